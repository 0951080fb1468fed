"""Two corrections of the false-positive verdicts (issue 25, item 5), applied to the rows of
:mod:`arena.stats.false_positives`:

- **detector correction**: with a :class:`~arena.stats.rogan_gladen.Calibration` of the Zellig's
  detector, the generative rate the verdict uses is corrected for the detector's recall and false
  alarms (Rogan–Gladen), and the test takes the corrected rate's variance, which carries the
  detector's uncertainty: a weak detector widens the interval instead of making a false positive.
  The uncorrected p-value and verdict stay in the row (``p_value_uncorrected``, ``verdict_uncorrected``).
- **cue column**: the strongest surface cue of the row's Zellig and phenomenon (:mod:`arena.stats.cues`)
  with its out-of-fold accuracy; where the cue audit finds the table confounded, the verdict is
  ``confounded by CUE`` (the cue alone explains the contrastive errors), and the verdict it replaces
  stays as ``verdict_without_cue``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from arena.stats.aggregate import greater_p_value
from arena.stats.false_positive_records import FalsePositiveRow
from arena.stats.rogan_gladen import Calibration, corrected

FALSE_POSITIVE = "false positive"
CONSISTENT = "consistent"
TESTED = (FALSE_POSITIVE, CONSISTENT)
LEGEND = ("; corrected generative: Rogan–Gladen for the detector's measured recall and false alarms, 95% "
          "interval by parametric bootstrap over all three (the verdict then tests against it); strongest cue: "
          "out-of-fold accuracy of the best surface Claude, 'confounded by CUE' where the cue audit finds the "
          "cue explains the pairs")
EXTRA = (("generative_corrected", "corrected generative % [95% CI]"), ("cue", "strongest cue [95% CI]"))


def confounded_by(cue: str) -> str:
    return f"confounded by {cue}"


def _correct(row: FalsePositiveRow, calibration: Calibration, alpha: float) -> FalsePositiveRow:
    generative = row.generative_pool if row.generative_used == "pool" else row.generative
    if generative is None or not generative.n:
        return row
    adjusted = corrected(generative.count, generative.n, calibration)
    row = replace(row, generative_corrected=adjusted)
    error = row.contrastive_error
    if adjusted is None or row.verdict not in TESTED or error.rate is None:
        return row
    p = greater_p_value(error.rate, error.variance, adjusted["rate"], adjusted["variance"])
    return replace(row, p_value_uncorrected=row.p_value, verdict_uncorrected=row.verdict, p_value=p,
                   verdict=FALSE_POSITIVE if p < alpha else CONSISTENT)


def adjust(rows: Sequence[FalsePositiveRow], calibrations: Mapping[str, Calibration] | None = None,
           cues: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
           alpha: float = 0.05) -> list[FalsePositiveRow]:
    """The rows corrected: ``calibrations`` by Zellig label, ``cues`` by (Zellig label, phenomenon)
    → ``{"name", "accuracy", "ci", "confounded"}``."""
    result = []
    for row in rows:
        calibration = (calibrations or {}).get(row.zellig)
        if calibration is not None:
            row = _correct(row, calibration, alpha)
        cue = (cues or {}).get((row.zellig, row.phenomenon))
        if cue is not None:
            row = replace(row, cue=dict(cue))
            if cue.get("confounded") and row.verdict in TESTED:
                row = replace(row, verdict_without_cue=row.verdict, verdict=confounded_by(cue["name"]))
        result.append(row)
    return result


def cell(value: Mapping[str, Any] | None, name: str) -> str:
    """A table cell of the corrected generative rate (``generative_corrected``) or of the ``cue``."""
    if not value or value.get("accuracy" if name == "cue" else "rate") is None:
        return "-"
    low, high = value["ci" if name == "cue" else "ci95"]
    if name == "cue":
        return f"{value['name']} {value['accuracy']:.3f} [{low:.3f}, {high:.3f}]"
    return f"{100 * value['rate']:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def extend_table(rows: Sequence[FalsePositiveRow], headers: list[str],
                 cells: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """The report's table with the corrected-rate and cue columns where any row has them."""
    extra = [(name, title) for name, title in EXTRA if any(getattr(r, name) is not None for r in rows)]
    return ([*headers, *[title for _, title in extra]],
            [[*line, *[cell(getattr(row, name), name) for name, _ in extra]] for row, line in zip(rows, cells)])


def legend(rows: Sequence[FalsePositiveRow]) -> str:
    return LEGEND if any(r.generative_corrected is not None or r.cue is not None for r in rows) else ""
