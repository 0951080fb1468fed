"""The false-positive verdict under a sensitivity band of the detector's rates (issue 34, item 4).

Without a validation sample (:mod:`arena.stats.fp_validation`) the Rogan–Gladen correction assumes
that the detector's recall and false alarms, measured on published pairs, transfer to the model's own
beam-search translations.  How much the verdict rests on that assumption: the row is corrected again
with the recall moved :data:`RECALL_POINTS` up and down (within [0, 1]) and the false-alarm rate
halved and doubled (:data:`FALSE_ALARM_FACTOR`; a measured 0 stays 0), on the 3 × 3 grid of these
values; a verdict whose outcome differs anywhere on the grid **flips in the band** (``flips_in_band``)
and the row records the band (``sensitivity_band``: the rates tried, the range of corrected rates and
the outcomes met).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from arena.stats.false_positive_records import FalsePositiveRow
from arena.stats.rogan_gladen import Calibration

RECALL_POINTS = 0.10
FALSE_ALARM_FACTOR = 2.0
ASSUMPTION = ("the detector's recall and false alarms are assumed to transfer from the published pairs to the "
              "model's own translations (no validation labels: arena false-positives RUN --validate N checks it)")


def grid(calibration: Calibration) -> list[tuple[float, float]]:
    """(recall, false-alarm rate) on the band's 3 × 3 grid, the measured pair among them."""
    recall, false_alarm = calibration.recall, calibration.false_alarm_rate
    recalls = [min(1.0, max(0.0, recall + step)) for step in (-RECALL_POINTS, 0.0, RECALL_POINTS)]
    false_alarms = [min(1.0, false_alarm * factor) for factor in (1 / FALSE_ALARM_FACTOR, 1.0, FALSE_ALARM_FACTOR)]
    return [(r, f) for r in recalls for f in false_alarms]


def shifted(calibration: Calibration, recall: float, false_alarm: float) -> Calibration:
    """The calibration with these rates on the same pairs and sentences."""
    return replace(calibration, hits=recall * calibration.positives,
                   false_alarms=false_alarm * calibration.negatives)


def with_band(original: FalsePositiveRow, row: FalsePositiveRow, calibration: Calibration,
              verdict_of: Callable[[FalsePositiveRow, Calibration], str]) -> FalsePositiveRow:
    """``row`` (``original`` corrected with ``calibration``) with its sensitivity band: ``verdict_of``
    gives the corrected verdict (``verdict_corrected``) of ``original`` under another calibration."""
    points = grid(calibration)
    verdicts, rates = set(), []
    for recall, false_alarm in points:
        other = shifted(calibration, recall, false_alarm)
        verdicts.add(outcome(verdict_of(original, other)))
        if recall > false_alarm and row.generative_corrected is not None:
            observed = _observed(original)
            rates.append(min(1.0, max(0.0, (observed - false_alarm) / (recall - false_alarm))))
    band = {
        "recall": [min(r for r, _ in points), max(r for r, _ in points)],
        "false_alarm_rate": [min(f for _, f in points), max(f for _, f in points)],
        "rate": [min(rates), max(rates)] if rates else None,
        "verdicts": sorted(verdicts),
    }
    return replace(row, sensitivity_band=band, flips_in_band=verdicts != {outcome(row.verdict_corrected or "")})


def outcome(verdict: str) -> str:
    """A verdict without its parenthesised detail (``undecided (n ≈ 300 would decide)`` → ``undecided``),
    so that a detail that moves with the rates is no flip."""
    return verdict.partition(" (")[0]


def _observed(row: FalsePositiveRow) -> float:
    generative = row.generative_pool if row.generative_used == "pool" else row.generative
    return generative.rate if generative is not None and generative.rate is not None else 0.0
