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
correct sentences (``experiments/bench/detectors.py --calibration FILE``).  The pairs are not
independent: a published set repeats a correct sentence once per variant (np-agreement about 1.4 times),
so the calibration resamples **sentences**, not pairs.  A version-2 calibration file keeps, per
detector, how many correct sentences had how many pairs, hits and false alarms (``clusters``); the
Jeffreys draws of recall and false-alarm rate then use the *effective* number of pairs ``n / deff``,
where the design effect ``deff`` is the cluster-robust variance of the rate over sentences (what a
cluster bootstrap by correct sentence estimates) over its binomial variance, at least 1 (Korn &
Graubard 1998, effective sample size for clustered proportions).  A rate of 0 or 1 has no variance to
compare; it takes the design effect of sentences whose pairs all agree, ``Σ m² / Σ m`` (the correct side
of a repeated sentence is the same text, so a false alarm repeats with it).  Without ``clusters`` (a
version-1 file) every pair is its own sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from pydantic import ConfigDict, computed_field, model_validator

from arena.stats.typed import OMIT_EMPTY, Result

SAMPLES = 4000
SEED = 12345
FILE_VERSION = 2


def design_effect(sizes: np.ndarray, counts: np.ndarray, weights: np.ndarray) -> float:
    """The design effect of a rate over clusters: ``weights[i]`` clusters of ``sizes[i]`` pairs with
    ``counts[i]`` positives each; cluster-robust over binomial variance, at least 1; ``Σ m² / Σ m`` for a
    rate of 0 or 1."""
    n, k = float(np.dot(weights, sizes)), float(np.dot(weights, counts))
    if n <= 0:
        return 1.0
    rate, clusters = k / n, float(weights.sum())
    if rate in (0.0, 1.0) or clusters < 2:  # no variance to compare
        return max(1.0, float(np.dot(weights, sizes**2)) / n)
    robust = float(np.dot(weights, (counts - rate * sizes) ** 2)) / n**2  # 1 for clusters of one pair
    return max(1.0, robust / (rate * (1 - rate) / n))


@dataclass(frozen=True)
class Calibration(Result):
    """A detector measured: ``hits`` of ``positives`` erroneous sentences found, ``false_alarms`` of
    ``negatives`` correct sentences fired on; ``source`` says where.  An entry of a calibration file
    is ``dump(calibration)`` (:mod:`arena.stats.typed`): these fields, then the derived figures
    (recall, false-alarm rate, sentences, effective numbers of pairs), which ``load`` ignores."""

    __pydantic_config__ = ConfigDict(extra="ignore")  # the derived figures are not read back

    hits: int | float  # whole counts when measured; a sensitivity band shifts them (arena.stats.fp_band)
    positives: int
    false_alarms: int | float
    negatives: int
    source: str = ""
    # (pairs, hits, false alarms, sentences); none in a version-1 entry
    clusters: Annotated[tuple[tuple[int, int, int, int], ...], OMIT_EMPTY] = ()

    @model_validator(mode="after")
    def _adds_up(self) -> Calibration:
        clusters = self.clusters
        if clusters and (sum(r[0] * r[3] for r in clusters), sum(r[1] * r[3] for r in clusters),
                         sum(r[2] * r[3] for r in clusters)) != (self.positives, self.hits, self.false_alarms):
            raise ValueError("clusters do not add up to positives, hits and false_alarms")
        return self

    def effective(self, side: str) -> float:
        """The effective number of ``positives`` or ``negatives`` (the pairs over the design effect of
        their correct sentences); the pairs themselves without ``clusters``."""
        n = self.positives if side == "positives" else self.negatives
        if not self.clusters:
            return float(n)
        table = np.asarray(self.clusters, dtype=float)
        counts = table[:, 1] if side == "positives" else table[:, 2]
        return n / design_effect(table[:, 0], counts, table[:, 3])

    @computed_field  # type: ignore[prop-decorator]
    @property
    def recall(self) -> float:
        return self.hits / self.positives if self.positives else float("nan")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def false_alarm_rate(self) -> float:
        return self.false_alarms / self.negatives if self.negatives else float("nan")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def sentences(self) -> int:
        return sum(row[3] for row in self.clusters) if self.clusters else self.positives

    @computed_field  # type: ignore[prop-decorator]
    @property
    def effective_positives(self) -> float:
        return round(self.effective("positives"), 1)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def effective_negatives(self) -> float:
        return round(self.effective("negatives"), 1)


def clusters_of(per_sentence: Any) -> tuple[tuple[int, int, int, int], ...]:
    """The histogram ``(pairs, hits, false alarms, sentences)`` of per-sentence ``[pairs, hits, false
    alarms]`` counts, sorted."""
    from collections import Counter

    histogram = Counter(tuple(int(v) for v in counts) for counts in per_sentence)
    return tuple(sorted((*key, number) for key, number in histogram.items()))  # type: ignore[misc]


def point(observed: float, recall: float, false_alarm: float) -> float | None:
    """The Rogan–Gladen estimate, clipped to [0, 1]; ``None`` when ``recall <= false_alarm``."""
    if recall <= false_alarm:
        return None
    return float(min(1.0, max(0.0, (observed - false_alarm) / (recall - false_alarm))))


def _jeffreys(rng: np.random.Generator, count: float, n: int, effective: float, samples: int) -> np.ndarray:
    """Draws from the Jeffreys posterior of ``count`` of ``n`` items scaled to ``effective`` items."""
    scale = effective / n
    return rng.beta(count * scale + 0.5, (n - count) * scale + 0.5, samples)


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
    recall = _jeffreys(rng, calibration.hits, calibration.positives, calibration.effective("positives"), samples)
    false_alarm = _jeffreys(rng, calibration.false_alarms, calibration.negatives, calibration.effective("negatives"),
                            samples)
    informative = recall > false_alarm
    draws = np.clip((observed - false_alarm)[informative] / (recall - false_alarm)[informative], 0.0, 1.0)
    if len(draws) < samples // 2:
        return None
    low, high = np.quantile(draws, [0.025, 0.975])
    return {"rate": estimate, "ci95": (float(low), float(high)), "variance": float(draws.var()),
            "recall": calibration.recall, "false_alarm_rate": calibration.false_alarm_rate, "n": n}
