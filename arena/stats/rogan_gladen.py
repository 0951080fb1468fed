"""Generative rates corrected for an imperfect detector (Rogan & Gladen 1978).

A detector that finds only a share ``se`` (sensitivity, recall) of the translations that show a
phenomenon and fires on a share ``fa`` (false alarms, 1 − specificity) of those that do not, observes
``p = se·π + fa·(1 − π)`` instead of the true rate ``π``.  Rogan–Gladen inverts it::

    π = (p − fa) / (se − fa),   clipped to [0, 1]

The interval carries the uncertainty of all three measurements: a parametric bootstrap draws ``p``,
``se`` and ``fa`` from their Jeffreys posteriors (Beta(k + ½, n − k + ½)) and takes the 2.5 and 97.5
percentiles of the corrected rate, so a detector measured on few items, or one that misses most errors
(``se`` near ``fa``), widens the interval instead of producing a verdict.  Its variance (of the draws)
feeds the false-positive test.  Where ``se ≤ fa`` the detector carries no information and there is no
correction (``None``).

A detector's :class:`Calibration` is measured on held-back published variants and on the matching
correct sentences (``experiments/bench/detectors.py --calibration FILE``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

SAMPLES = 4000
SEED = 12345


@dataclass(frozen=True)
class Calibration:
    """A detector measured: ``hits`` of ``positives`` erroneous sentences found, ``false_alarms`` of
    ``negatives`` correct sentences fired on; ``source`` says where."""

    hits: int
    positives: int
    false_alarms: int
    negatives: int
    source: str = ""

    @property
    def recall(self) -> float:
        return self.hits / self.positives if self.positives else float("nan")

    @property
    def false_alarm_rate(self) -> float:
        return self.false_alarms / self.negatives if self.negatives else float("nan")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Calibration:
        return cls(int(data["hits"]), int(data["positives"]), int(data["false_alarms"]), int(data["negatives"]),
                   str(data.get("source", "")))

    def to_json(self) -> dict[str, Any]:
        return {"hits": self.hits, "positives": self.positives, "false_alarms": self.false_alarms,
                "negatives": self.negatives, "recall": self.recall, "false_alarm_rate": self.false_alarm_rate,
                "source": self.source}


def point(observed: float, recall: float, false_alarm: float) -> float | None:
    """The Rogan–Gladen estimate, clipped to [0, 1]; ``None`` when ``recall <= false_alarm``."""
    if recall <= false_alarm:
        return None
    return float(min(1.0, max(0.0, (observed - false_alarm) / (recall - false_alarm))))


def corrected(count: float, n: int, calibration: Calibration, samples: int = SAMPLES,
              seed: int = SEED) -> dict[str, Any] | None:
    """The corrected rate of ``count`` detections in ``n`` translations: ``rate``, ``ci95``,
    ``variance`` (of the bootstrap draws), the detector's ``recall`` and ``false_alarm_rate``;
    ``None`` without translations or when the detector carries no information."""
    if n <= 0 or calibration.positives <= 0 or calibration.negatives <= 0:
        return None
    estimate = point(count / n, calibration.recall, calibration.false_alarm_rate)
    if estimate is None:
        return None
    rng = np.random.default_rng(seed)
    observed = rng.beta(count + 0.5, n - count + 0.5, samples)
    recall = rng.beta(calibration.hits + 0.5, calibration.positives - calibration.hits + 0.5, samples)
    false_alarm = rng.beta(calibration.false_alarms + 0.5, calibration.negatives - calibration.false_alarms + 0.5,
                           samples)
    informative = recall > false_alarm
    draws = np.clip((observed - false_alarm)[informative] / (recall - false_alarm)[informative], 0.0, 1.0)
    if len(draws) < samples // 2:
        return None
    low, high = np.quantile(draws, [0.025, 0.975])
    return {"rate": estimate, "ci95": (float(low), float(high)), "variance": float(draws.var()),
            "recall": calibration.recall, "false_alarm_rate": calibration.false_alarm_rate, "n": n}
