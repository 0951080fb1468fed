"""The aggregation core: outcomes of a run and their per-instance sufficient statistics.

Every number the arena reports — S, contrastive accuracy, their bootstrap CIs, paired
tests between Claudes, Zelligs or Johns, mean ± std over seeds — is computed here from
a :class:`Tally`: per instance, the sum of a per-round value and the number of rounds.
Rounds of one instance are not independent (its k variants, every Zellig, every seed
share one reference), so CIs and paired tests resample *instances* (vectorised with
NumPy, with a fixed seed, so reports are reproducible); agreement between raters is
Cohen's or Fleiss' kappa; single proportions get Wilson intervals and the false-positive report
(:mod:`arena.stats.false_positives`) a cluster-robust variance and a one-sided Wald test.  ``scores.json``
(:mod:`arena.stats.metrics`, its per-round metrics in :mod:`arena.stats.registry`), the leaderboards (:mod:`arena.stats.leaderboards`), the plots and
``arena compare-johns`` all use this module.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.errors import DataError
from arena.record.rounds import RESOLVED_ABSTAIN, RESOLVED_LATE, JudgementRecord, OneBest, Round

# -- resampling statistics over per-instance outcomes ----------------------------------------

DEFAULT_SEED = 12345
RESAMPLE_CELLS = 1 << 19  # indices drawn at once: 4 MiB (and a float copy of each array), whatever the number of instances


def resampled_sums(arrays: tuple[np.ndarray, ...], samples: int, seed: int) -> list[np.ndarray]:
    """For each array, its sum over each of ``samples`` resamples (with replacement) of its
    positions.  The resamples are drawn a block of rows at a time, so memory stays bounded for any
    number of instances; the draws, and so the sums, equal those of one ``(samples, n)`` draw."""
    rng = np.random.default_rng(seed)
    n = len(arrays[0])
    rows = max(1, RESAMPLE_CELLS // max(n, 1))
    totals: list[list[np.ndarray]] = [[] for _ in arrays]
    for start in range(0, samples, rows):
        index = rng.integers(0, n, size=(min(rows, samples - start), n))
        for total, array in zip(totals, arrays):
            total.append(array[index].sum(axis=1))
    return [np.concatenate(parts) for parts in totals]


def bootstrap_ci(
    sums: np.ndarray, counts: np.ndarray, samples: int = 1000, alpha: float = 0.05, seed: int = DEFAULT_SEED
) -> tuple[float, float] | None:
    """Percentile bootstrap CI of ``sum(sums) / sum(counts)``, resampling instances."""
    sums = np.asarray(sums, dtype=float)
    counts = np.asarray(counts, dtype=float)
    if samples <= 0 or counts.sum() == 0:
        return None
    resampled, totals = resampled_sums((sums, counts), samples, seed)
    estimates = np.divide(resampled, totals, out=np.zeros(samples), where=totals > 0)
    low, high = np.quantile(estimates, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def paired_bootstrap(
    a: np.ndarray, b: np.ndarray, counts: np.ndarray | None = None, samples: int = 1000, seed: int = DEFAULT_SEED
) -> dict[str, float]:
    """Paired bootstrap (Koehn 2004) of the difference ``mean(a) - mean(b)`` over the
    same instances; ``a``/``b`` are per-instance outcome sums, ``counts`` their rounds.

    Returns the observed difference, its 95% interval and a two-sided p-value (the
    share of resamples in which the difference changes sign, doubled, as sacrebleu's
    paired bootstrap reads it for two systems).
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    counts = np.ones_like(a) if counts is None else np.asarray(counts, dtype=float)
    total = counts.sum()
    if total == 0:
        return {"delta": float("nan"), "low": float("nan"), "high": float("nan"), "p_value": float("nan"), "n": 0}
    delta = float((a.sum() - b.sum()) / total)
    if samples <= 0:
        return {"delta": delta, "low": float("nan"), "high": float("nan"), "p_value": float("nan"), "n": len(a)}
    differences, totals = resampled_sums((a - b, counts), samples, seed)
    deltas = np.divide(differences, totals, out=np.zeros(samples), where=totals > 0)
    low, high = np.quantile(deltas, [0.025, 0.975])
    p_value: float
    if delta > 0:
        p_value = (np.count_nonzero(deltas <= 0) + 1) / (samples + 1)
    elif delta < 0:
        p_value = (np.count_nonzero(deltas >= 0) + 1) / (samples + 1)
    else:
        p_value = 1.0
    return {
        "delta": delta,
        "low": float(low),
        "high": float(high),
        "p_value": float(min(1.0, 2 * p_value)),
        "n": len(a),
    }


def mean_std(values: list[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for a single value)."""
    array = np.asarray(values, dtype=float)
    if array.size == 0:
        return float("nan"), float("nan")
    return float(array.mean()), float(array.std(ddof=1)) if array.size > 1 else 0.0


def wilson_ci(successes: float, n: int, alpha: float = 0.05) -> tuple[float, float] | None:
    """Wilson score interval of a proportion (Wilson 1927); ``successes`` may be fractional
    (ties counted as half).  ``None`` for ``n == 0``."""
    from statistics import NormalDist

    if n <= 0:
        return None
    z = NormalDist().inv_cdf(1 - alpha / 2)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exact bounds, not a rounding error away
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return float(low), float(high)


def ratio_variance(sums: np.ndarray, counts: np.ndarray) -> float:
    """Cluster-robust (linearisation) variance of the ratio ``Σ sums / Σ counts`` over clusters
    (instances) with per-cluster ``sums`` of a 0/1 outcome over ``counts`` rounds; for one round per
    cluster it is ``p (1 − p) / n`` with the small-sample factor ``m / (m − 1)``."""
    sums = np.asarray(sums, dtype=float)
    counts = np.asarray(counts, dtype=float)
    m, total = len(sums), counts.sum()
    if m < 2 or total == 0:
        return 0.0
    ratio = sums.sum() / total
    return float(m / (m - 1) * np.sum((sums - ratio * counts) ** 2) / total**2)


def greater_p_value(first: float, first_variance: float, second: float, second_variance: float) -> float:
    """One-sided p-value of the Wald test of H1: ``first > second`` for two independent estimates with
    the given variances (0 when they differ without variance, 1 when they do not differ)."""
    from statistics import NormalDist

    spread = first_variance + second_variance
    if spread <= 0:
        return 0.0 if first > second else 1.0
    return float(1 - NormalDist().cdf((first - second) / np.sqrt(spread)))


def cohen_kappa(a: list[int], b: list[int]) -> float:
    """Cohen's kappa of two raters' labels on the same items (NaN when chance
    agreement is certain, e.g. both raters always give the same one label)."""
    if len(a) != len(b) or not a:
        raise ValueError("Cohen's kappa needs two equally long, non-empty label lists")
    labels = sorted(set(a) | set(b))
    observed = sum(x == y for x, y in zip(a, b)) / len(a)
    expected = sum((a.count(k) / len(a)) * (b.count(k) / len(b)) for k in labels)
    return float("nan") if expected == 1 else (observed - expected) / (1 - expected)


def fleiss_kappa(ratings: list[list[int]]) -> float:
    """Fleiss' kappa of ``ratings[item][rater]`` (every item rated by the same number of
    raters, at least two); NaN when chance agreement is certain."""
    if not ratings or len({len(row) for row in ratings}) != 1 or len(ratings[0]) < 2:
        raise ValueError("Fleiss' kappa needs items rated by the same number (≥ 2) of raters")
    labels = sorted({label for row in ratings for label in row})
    counts = np.array([[row.count(k) for k in labels] for row in ratings], dtype=float)
    raters = counts.sum(axis=1)[0]
    per_item = ((counts**2).sum(axis=1) - raters) / (raters * (raters - 1))
    shares = counts.sum(axis=0) / counts.sum()
    expected = float((shares**2).sum())
    return float("nan") if expected == 1 else float((per_item.mean() - expected) / (1 - expected))


@dataclass(frozen=True)
class Outcome:
    """One judged round joined with one Claude's judgement (and 1-best, if any)."""

    round: Round
    judgement: JudgementRecord
    one_best: OneBest | None

    @property
    def scores(self) -> tuple[float, float] | None:
        """(score of the correct candidate, score of the corrupted one)."""
        scores = self.judgement.scores
        if scores is None or self.round.corrupted is None or len(scores) != 2:
            return None
        return scores[1 - self.round.corrupted], scores[self.round.corrupted]


def join(
    rounds: Sequence[Round],
    judgements: Sequence[JudgementRecord],
    one_bests: Sequence[OneBest],
    counted_only: bool = False,
) -> dict[str, list[Outcome]]:
    """Outcomes per Claude, in round order; ``counted_only`` leaves out the rounds of a
    game's observation phases (they do not count toward S)."""
    by_id = {r.id: r for r in rounds}
    best = {(o.claude, o.seed, o.source): o for o in one_bests}  # seed: of a model replica, else None
    result: dict[str, list[Outcome]] = defaultdict(list)
    for j in judgements:
        r = by_id.get(j.round)
        if r is None:
            raise DataError(f"judgement of {j.claude} refers to unknown round {j.round!r}")
        if counted_only and not r.counts:
            continue
        one_best = best.get((j.claude, r.seed, r.instance.source)) or best.get((j.claude, None, r.instance.source))
        result[j.claude].append(Outcome(r, j, one_best))
    return result


# -- per-round values -----------------------------------------------------------------------

UNJUDGED = frozenset({RESOLVED_ABSTAIN, RESOLVED_LATE})  # resolutions of rounds S leaves out: the Claude did not judge


def judged(resolved_by: str) -> bool:
    """Whether a round resolved this way counts toward S: the Claude chose (or its exactly equal scores
    were split by a coin, or the Zellig's timeout gave a free point); an abstention or a late answer
    is recorded (``rounds``, ``resolved_by``) but left out of S, its CI and every test built on S."""
    return resolved_by not in UNJUDGED


def correct(outcome: Outcome) -> float | None:
    """1 when the Claude's final choice is the corrupted candidate (S counts these); ``None`` on a
    round the Claude did not judge (:func:`judged`)."""
    return float(outcome.judgement.correct) if judged(outcome.judgement.resolved_by) else None


def contrastive_correct(correct: float, corrupted: float, ties: str) -> float:
    """1.0 when the correct candidate scores higher; a tie by the policy."""
    if correct > corrupted:
        return 1.0
    if correct < corrupted:
        return 0.0
    return {"wrong": 0.0, "correct": 1.0, "half": 0.5}[ties]


def accurate(ties: str) -> Callable[[Outcome], float | None]:
    """Contrastive accuracy of a round (``None`` without scores) under a tie policy."""

    def value(outcome: Outcome) -> float | None:
        return contrastive_correct(*outcome.scores, ties) if outcome.scores is not None else None

    return value


def discrepancy(outcome: Outcome) -> float | None:
    scores = outcome.scores
    if scores is None or outcome.one_best is None:
        return None
    return max(0.0, outcome.one_best.score - max(scores))


def instance_key(outcome: Outcome) -> tuple[str, str]:
    return outcome.round.john, outcome.round.instance.id


# -- sufficient statistics ------------------------------------------------------------------

@dataclass(frozen=True)
class Tally:
    """Per cluster (an instance by default), in first-seen order: the sum of a per-round
    value and the number of rounds it was defined for."""

    keys: tuple[Hashable, ...]
    sums: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(
        cls,
        outcomes: Sequence[Outcome],
        value: Callable[[Outcome], float | None] = correct,
        key: Callable[[Outcome], Hashable] = instance_key,
    ) -> Tally:
        sums: dict[Hashable, float] = {}
        counts: dict[Hashable, int] = {}
        for outcome in outcomes:
            v = value(outcome)
            if v is None:
                continue
            k = key(outcome)
            sums[k] = sums.get(k, 0.0) + v
            counts[k] = counts.get(k, 0) + 1
        return cls(tuple(sums), np.array(list(sums.values()), dtype=float), np.array(list(counts.values()), dtype=int))

    @property
    def rounds(self) -> int:
        return int(self.counts.sum())

    def rate(self) -> float | None:
        """The pooled rate ``Σ sums / Σ counts`` (S, accuracy); ``None`` without rounds."""
        return float(self.sums.sum() / self.rounds) if self.rounds else None

    def ci(self, samples: int) -> tuple[float, float] | None:
        """95% percentile bootstrap CI of :meth:`rate`, resampling clusters."""
        return bootstrap_ci(self.sums, self.counts, samples) if self.rounds else None

    def paired(self, other: Tally, samples: int, equal_weight: bool = False) -> dict[str, Any] | None:
        """Paired bootstrap of ``self.rate() − other.rate()`` over the clusters both hold.

        Without ``equal_weight`` (two Claudes on the same rounds) a cluster weighs by its
        rounds and is paired only where both hold the same number of rounds; with it (two
        Zelligs or Johns, whose rounds differ) each shared cluster's own rate counts once.
        """
        position = {k: i for i, k in enumerate(other.keys)}
        mine = [i for i, k in enumerate(self.keys) if k in position]
        if not equal_weight:
            mine = [i for i in mine if self.counts[i] == other.counts[position[self.keys[i]]]]
        if not mine:
            return None
        theirs = [position[self.keys[i]] for i in mine]
        left, right, counts = self.sums[mine], other.sums[theirs], self.counts[mine]
        if equal_weight:
            return paired_bootstrap(left / counts, right / other.counts[theirs], None, samples)
        return paired_bootstrap(left, right, counts, samples)


def over_seeds(
    outcomes: Sequence[Outcome], value: Callable[[Outcome], float | None] = correct
) -> tuple[int, float | None, float | None]:
    """The number of seeds and the mean ± sample std of the per-seed rate of ``value``."""
    rates = [Tally.of(items, value).rate() for items in group(outcomes, lambda o: o.round.seed).values()]
    defined = [r for r in rates if r is not None]  # a seed the Claude judged no round of has no rate
    if not defined:
        return len(rates), None, None
    return (len(rates), *mean_std(defined))


def group(outcomes: Sequence[Outcome], key: Callable[[Outcome], Hashable | None]) -> dict[Any, list[Outcome]]:
    """Outcomes per ``key(outcome)`` in first-seen order (``None`` keys left out)."""
    groups: dict[Any, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        k = key(outcome)
        if k is not None:
            groups[k].append(outcome)
    return groups

