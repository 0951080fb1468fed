"""Two corrections of the false-positive verdicts (issue 25, item 5), applied to the rows of
:mod:`arena.stats.false_positives`:

- **detector correction**: with a :class:`~arena.stats.rogan_gladen.Calibration` of the Zellig's
  detector, the generative rate the verdict uses is corrected for the detector's recall and false
  alarms (Rogan–Gladen), and the test takes the corrected rate's variance, which carries the
  detector's uncertainty: a weak detector widens the interval instead of making a false positive.
  The uncorrected p-value and verdict stay in the row (``p_value_uncorrected``, ``verdict_uncorrected``).
  Where people labelled a validation sample of the run's 1-bests for the row's Claude and Zellig
  (``arena false-positives RUN --validate N``), the double-sampling estimate of
  :mod:`arena.stats.fp_validation` replaces Rogan–Gladen (``generative_corrected["method"]`` says
  which); a Rogan–Gladen row carries its verdict under a sensitivity band of the detector's rates
  (:mod:`arena.stats.fp_band`: ``sensitivity_band``, ``flips_in_band``).
- **cue column**: the strongest surface cue of the row's Zellig and phenomenon (:mod:`arena.stats.cues`)
  with its out-of-fold accuracy; where the cue audit finds the table confounded, the verdict is
  ``confounded by CUE`` (the cue alone explains the contrastive errors), and the verdict it replaces
  stays as ``verdict_without_cue``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from arena.stats import fp_band, fp_validation
from arena.stats.aggregate import greater_p_value
from arena.stats.false_positive_records import FalsePositiveRow
from arena.stats.fp_validation import Validation
from arena.stats.rogan_gladen import Calibration, corrected

FALSE_POSITIVE = "false positive"
CONSISTENT = "consistent"
TESTED = (FALSE_POSITIVE, CONSISTENT)
ROGAN_GLADEN = "Rogan-Gladen (published pairs)"
LEGEND = ("; corrected generative: Rogan–Gladen for the detector's measured recall and false alarms, 95% "
          "interval by parametric bootstrap over all three (the verdict then tests against it); strongest cue: "
          "out-of-fold accuracy of the best surface Claude, 'confounded by CUE' where the cue audit finds the "
          "cue explains the pairs")
EXTRA = (("generative_corrected", "corrected generative % [95% CI]"), ("flips_in_band", "flips in band"),
         ("cue", "strongest cue [95% CI]"))


def confounded_by(cue: str) -> str:
    return f"confounded by {cue}"


def _correct(row: FalsePositiveRow, calibration: Calibration | None, alpha: float,
             validation: Validation | None = None) -> FalsePositiveRow:
    """The row's generative rate corrected by the validation sample's double-sampling estimator
    where it has labels (:mod:`arena.stats.fp_validation`), else by Rogan–Gladen with the calibration."""
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
    if adjusted is None or row.verdict not in TESTED or error.rate is None:
        return row
    p = greater_p_value(error.rate, error.variance, adjusted["rate"], adjusted["variance"])
    return replace(row, p_value_uncorrected=row.p_value, verdict_uncorrected=row.verdict, p_value=p,
                   verdict=FALSE_POSITIVE if p < alpha else CONSISTENT)


def adjust(rows: Sequence[FalsePositiveRow], calibrations: Mapping[str, Calibration] | None = None,
           cues: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
           alpha: float = 0.05,
           validations: Mapping[tuple[str, str], Validation] | None = None) -> list[FalsePositiveRow]:
    """The rows corrected: ``calibrations`` by Zellig label, ``cues`` by (Zellig label, phenomenon)
    → ``{"name", "accuracy", "ci", "confounded"}``, ``validations`` by (Claude label, Zellig label);
    a Rogan–Gladen corrected row carries its verdict under the sensitivity band (:mod:`arena.stats.fp_band`)."""
    result = []
    for row in rows:
        calibration = (calibrations or {}).get(row.zellig)
        validation = (validations or {}).get((row.claude, row.zellig))
        if calibration is not None or validation is not None:
            original, row = row, _correct(row, calibration, alpha, validation)
            if calibration is not None and (row.generative_corrected or {}).get("method") == ROGAN_GLADEN:
                row = fp_band.with_band(original, row, calibration,
                                        lambda r, c: _correct(r, c, alpha).verdict)
        cue = (cues or {}).get((row.zellig, row.phenomenon))
        if cue is not None:
            row = replace(row, cue=dict(cue))
            if cue.get("confounded") and row.verdict in TESTED:
                row = replace(row, verdict_without_cue=row.verdict, verdict=confounded_by(cue["name"]))
        result.append(row)
    return result


def cell(value: Any, name: str) -> str:
    """A table cell of the corrected generative rate (``generative_corrected``: ``labels F+U`` where a
    validation sample corrected it), of ``flips_in_band`` or of the ``cue``."""
    if name == "flips_in_band":
        return "-" if value is None else ("yes" if value else "no")
    if not value or value.get("accuracy" if name == "cue" else "rate") is None:
        return "-"
    low, high = value["ci" if name == "cue" else "ci95"]
    if name == "cue":
        return f"{value['name']} {value['accuracy']:.3f} [{low:.3f}, {high:.3f}]"
    labelled = f" labels {value['labelled']['flagged']}+{value['labelled']['unflagged']}" if "labelled" in value else ""
    return f"{100 * value['rate']:.1f} [{100 * low:.1f}, {100 * high:.1f}]{labelled}"


def extend_table(rows: Sequence[FalsePositiveRow], headers: list[str],
                 cells: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """The report's table with the corrected-rate and cue columns where any row has them."""
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
