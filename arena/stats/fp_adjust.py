"""Two additions to the false-positive verdicts, applied to the rows of
:mod:`arena.stats.false_positives`; both sit *beside* the raw-rate verdict, neither replaces it:

- **detector correction**: with a :class:`~arena.stats.rogan_gladen.Calibration` of the Zellig's
  detector, the generative rate is corrected for the detector's recall and false alarms
  (Rogan–Gladen), and a second verdict (``verdict_corrected``, ``p_value_corrected``) tests against
  the corrected rate with its variance, which carries the detector's uncertainty: a weak detector
  widens the interval and the verdict reads ``undecided`` rather than ``exceeds``.
- **cue columns**: the strongest surface cue of the row's Zellig and phenomenon
  (:mod:`arena.stats.cues`) with its out-of-fold accuracy, and the kinds of its strong cues
  (``cue_kinds``: nuisance, edit-identity, target-only; :mod:`arena.stats.cue_kinds`), or
  ``too few pairs`` where the audit gives no verdict.
  Where people labelled a validation sample of the run's 1-bests for the row's Claude and Zellig
  (``arena false-positives RUN --validate N``), the double-sampling estimate of
  :mod:`arena.stats.fp_validation` replaces Rogan–Gladen (``generative_corrected["method"]`` says
  which); a Rogan–Gladen row carries its corrected verdict under a sensitivity band of the detector's
  rates (:mod:`arena.stats.fp_band`: ``sensitivity_band``, ``flips_in_band``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from arena.stats import fp_band, fp_validation, outcome_tests
from arena.stats.false_positive_records import ClusteredRate, FalsePositiveRow, Rate
from arena.stats.fp_validation import Validation
from arena.stats.rogan_gladen import Calibration, corrected

MIN_ITEMS = 10  # pairs and translations below which a verdict is undecided
ROGAN_GLADEN = "Rogan-Gladen (published pairs)"

LEGEND = ("; corrected generative: Rogan–Gladen for the detector's measured recall and false alarms, 95% "
          "interval by parametric bootstrap over all three, and the verdict against it; strongest cue: "
          "out-of-fold accuracy of the best surface Claude; cue kinds: the kinds of the strong cues (nuisance: "
          "confounded for contrastive scoring; edit-identity: learnable by an observing Claude; target-only: "
          "measures fluency, not adequacy), beside the verdicts, never replacing them")
EXTRA = (("generative_corrected", "corrected generative % [95% CI]"), ("verdict_corrected", "verdict (corrected)"),
         ("flips_in_band", "flips in band"), ("cue", "strongest cue [95% CI]"), ("cue_kinds", "cue kinds"))


def generative_variance(generative: Rate) -> float:
    """The generative rate's binomial variance with one pseudo-success and -failure (Agresti & Coull),
    so that a rate of 0 still has a spread."""
    n = generative.n + 2
    adjusted = (generative.count + 1) / n
    return adjusted * (1 - adjusted) / n


def decide(error: ClusteredRate, rate: float, variance: float, n_generative: int, alpha: float,
           margin: float) -> outcome_tests.Decision:
    """Exceeds, equivalent or undecided; under :data:`MIN_ITEMS` pairs or translations always
    undecided, with the n that would decide (at least :data:`MIN_ITEMS`)."""
    assert error.rate is not None
    decision = outcome_tests.decide(error.rate, error.variance, rate, variance, error.n, alpha, margin)
    if error.n >= MIN_ITEMS and n_generative >= MIN_ITEMS:
        return decision
    spread = (error.variance + variance) ** 0.5
    k = outcome_tests.needed_n(error.n, error.rate - rate, spread, margin, alpha)
    return outcome_tests.Decision(outcome_tests.undecided_words(f"n ≈ {max(k or 0, MIN_ITEMS)} would decide"),
                                  decision.p_exceeds, decision.p_equivalent)


def _correct(row: FalsePositiveRow, calibration: Calibration | None, alpha: float, margin: float,
             validation: Validation | None = None) -> FalsePositiveRow:
    """The row's generative rate corrected by the validation sample's double-sampling estimator
    where it has labels (:mod:`arena.stats.fp_validation`), else by Rogan–Gladen with the calibration,
    and the verdict against the corrected rate."""
    generative = row.generative_pool if row.generative_used == "pool" else row.generative
    if generative is None or not generative.n:
        return row
    adjusted = fp_validation.corrected(generative.count, generative.n, validation) if validation else None
    if adjusted is None and calibration is not None:
        adjusted = corrected(generative.count, generative.n, calibration)
        if adjusted is not None:
            adjusted = {**adjusted, "method": ROGAN_GLADEN}
    row = replace(row, generative_corrected=adjusted)
    error = row.contrastive_error
    if adjusted is None or error.rate is None or not error.n:
        return row
    decision = decide(error, adjusted["rate"], adjusted["variance"], generative.n, alpha, margin)
    return replace(row, p_value_corrected=decision.p_exceeds, verdict_corrected=decision.verdict)


def adjust(rows: Sequence[FalsePositiveRow], calibrations: Mapping[str, Calibration] | None = None,
           cues: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
           alpha: float = 0.05, margin: float = outcome_tests.MARGIN,
           validations: Mapping[tuple[str, str], Validation] | None = None) -> list[FalsePositiveRow]:
    """The rows with their corrected verdicts and cue columns: ``calibrations`` by Zellig label,
    ``cues`` by (Zellig label, phenomenon) → ``{"name", "accuracy", "ci", "kinds", "enough", "n"}``,
    ``validations`` by (Claude label, Zellig label); a Rogan–Gladen corrected row carries its corrected
    verdict under the sensitivity band (:mod:`arena.stats.fp_band`)."""
    result = []
    for row in rows:
        calibration = (calibrations or {}).get(row.zellig)
        validation = (validations or {}).get((row.claude, row.zellig))
        if calibration is not None or validation is not None:
            original, row = row, _correct(row, calibration, alpha, margin, validation)
            if calibration is not None and (row.generative_corrected or {}).get("method") == ROGAN_GLADEN:
                row = fp_band.with_band(original, row, calibration,
                                        lambda r, c: _correct(r, c, alpha, margin).verdict_corrected or "")
        cue = (cues or {}).get((row.zellig, row.phenomenon))
        if cue is not None:
            kinds = tuple(cue.get("kinds") or ()) if cue.get("enough", True) else ("too few pairs",)
            row = replace(row, cue={k: v for k, v in cue.items() if k != "kinds"}, cue_kinds=kinds)
        result.append(row)
    return result


def cell(value: Any, name: str) -> str:
    """A table cell of an extra column (``generative_corrected``: ``labels F+U`` where a validation
    sample corrected it)."""
    if name == "flips_in_band":
        return "-" if value is None else ("yes" if value else "no")
    if name == "verdict_corrected":
        return value or "-"
    if name == "cue_kinds":
        return ", ".join(value) if value else "-"
    if not value or value.get("accuracy" if name == "cue" else "rate") is None:
        return "-"
    low, high = value["ci" if name == "cue" else "ci95"]
    if name == "cue":
        return f"{value['name']} {value['accuracy']:.3f} [{low:.3f}, {high:.3f}]"
    labelled = f" labels {value['labelled']['flagged']}+{value['labelled']['unflagged']}" if "labelled" in value else ""
    return f"{100 * value['rate']:.1f} [{100 * low:.1f}, {100 * high:.1f}]{labelled}"


def extend_table(rows: Sequence[FalsePositiveRow], headers: list[str],
                 cells: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """The report's table with the corrected-rate, corrected-verdict and cue columns where any row has them."""
    extra = [(name, title) for name, title in EXTRA if any(getattr(r, name) is not None for r in rows)]
    return ([*headers, *[title for _, title in extra]],
            [[*line, *[cell(getattr(row, name), name) for name, _ in extra]] for row, line in zip(rows, cells)])


def legend(rows: Sequence[FalsePositiveRow]) -> str:
    text = LEGEND if any(r.generative_corrected is not None or r.cue is not None for r in rows) else ""
    if any((r.generative_corrected or {}).get("method") == fp_validation.METHOD for r in rows):
        text += ("; 'labels F+U': corrected with a validation sample of the model's own 1-bests, F flagged and U "
                 "not flagged by the detector labelled by people (rate = flagged share × PPV + unflagged share × "
                 "(1 − NPV), interval by parametric bootstrap over the three)")
    if any(r.sensitivity_band is not None for r in rows):
        text += (f"; Rogan–Gladen rows: {fp_band.ASSUMPTION}; 'flips in band': the corrected verdict changes "
                 f"somewhere in recall ±{100 * fp_band.RECALL_POINTS:.0f} points × false alarms ÷{fp_band.FALSE_ALARM_FACTOR:g} "
                 f"to ×{fp_band.FALSE_ALARM_FACTOR:g}")
    return text
