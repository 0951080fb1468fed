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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from arena.stats import outcome_tests
from arena.stats.false_positive_records import ClusteredRate, FalsePositiveRow, Rate
from arena.stats.rogan_gladen import Calibration, corrected

MIN_ITEMS = 10  # pairs and translations below which a verdict is undecided

LEGEND = ("; corrected generative: Rogan–Gladen for the detector's measured recall and false alarms, 95% "
          "interval by parametric bootstrap over all three, and the verdict against it; strongest cue: "
          "out-of-fold accuracy of the best surface Claude; cue kinds: the kinds of the strong cues (nuisance: "
          "confounded for contrastive scoring; edit-identity: learnable by an observing Claude; target-only: "
          "measures fluency, not adequacy), beside the verdicts, never replacing them")
EXTRA = (("generative_corrected", "corrected generative % [95% CI]"), ("verdict_corrected", "verdict (corrected)"),
         ("cue", "strongest cue [95% CI]"), ("cue_kinds", "cue kinds"))


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


def _correct(row: FalsePositiveRow, calibration: Calibration, alpha: float, margin: float) -> FalsePositiveRow:
    generative = row.generative_pool if row.generative_used == "pool" else row.generative
    if generative is None or not generative.n:
        return row
    adjusted = corrected(generative.count, generative.n, calibration)
    row = replace(row, generative_corrected=adjusted)
    error = row.contrastive_error
    if adjusted is None or error.rate is None or not error.n:
        return row
    decision = decide(error, adjusted["rate"], adjusted["variance"], generative.n, alpha, margin)
    return replace(row, p_value_corrected=decision.p_exceeds, verdict_corrected=decision.verdict)


def adjust(rows: Sequence[FalsePositiveRow], calibrations: Mapping[str, Calibration] | None = None,
           cues: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
           alpha: float = 0.05, margin: float = outcome_tests.MARGIN) -> list[FalsePositiveRow]:
    """The rows with their corrected verdicts and cue columns: ``calibrations`` by Zellig label,
    ``cues`` by (Zellig label, phenomenon) → ``{"name", "accuracy", "ci", "kinds", "enough", "n"}``."""
    result = []
    for row in rows:
        calibration = (calibrations or {}).get(row.zellig)
        if calibration is not None:
            row = _correct(row, calibration, alpha, margin)
        cue = (cues or {}).get((row.zellig, row.phenomenon))
        if cue is not None:
            kinds = tuple(cue.get("kinds") or ()) if cue.get("enough", True) else ("too few pairs",)
            row = replace(row, cue={k: v for k, v in cue.items() if k != "kinds"}, cue_kinds=kinds)
        result.append(row)
    return result


def cell(value: Any, name: str) -> str:
    """A table cell of an extra column."""
    if name == "verdict_corrected":
        return value or "-"
    if name == "cue_kinds":
        return ", ".join(value) if value else "-"
    if not value or value.get("accuracy" if name == "cue" else "rate") is None:
        return "-"
    low, high = value["ci" if name == "cue" else "ci95"]
    if name == "cue":
        return f"{value['name']} {value['accuracy']:.3f} [{low:.3f}, {high:.3f}]"
    return f"{100 * value['rate']:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def extend_table(rows: Sequence[FalsePositiveRow], headers: list[str],
                 cells: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """The report's table with the corrected-rate, corrected-verdict and cue columns where any row has them."""
    extra = [(name, title) for name, title in EXTRA if any(getattr(r, name) is not None for r in rows)]
    return ([*headers, *[title for _, title in extra]],
            [[*line, *[cell(getattr(row, name), name) for name, _ in extra]] for row, line in zip(rows, cells)])


def legend(rows: Sequence[FalsePositiveRow]) -> str:
    return LEGEND if any(r.generative_corrected is not None or r.cue is not None for r in rows) else ""
