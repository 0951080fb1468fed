"""Resampling statistics over per-instance outcomes (vectorised with NumPy).

Rounds of one instance are not independent (k variants share a reference), so both
the confidence interval and the paired test resample *instances*: each instance
contributes the sum of its outcomes and its number of rounds.
"""

from __future__ import annotations

import numpy as np

DEFAULT_SEED = 12345


def bootstrap_ci(
    sums: np.ndarray, counts: np.ndarray, samples: int = 1000, alpha: float = 0.05, seed: int = DEFAULT_SEED
) -> tuple[float, float] | None:
    """Percentile bootstrap CI of ``sum(sums) / sum(counts)``, resampling instances."""
    sums = np.asarray(sums, dtype=float)
    counts = np.asarray(counts, dtype=float)
    if samples <= 0 or counts.sum() == 0:
        return None
    rng = np.random.default_rng(seed)
    index = rng.integers(0, len(sums), size=(samples, len(sums)))
    totals = counts[index].sum(axis=1)
    estimates = np.divide(sums[index].sum(axis=1), totals, out=np.zeros(samples), where=totals > 0)
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
    rng = np.random.default_rng(seed)
    index = rng.integers(0, len(a), size=(samples, len(a)))
    totals = counts[index].sum(axis=1)
    deltas = np.divide((a - b)[index].sum(axis=1), totals, out=np.zeros(samples), where=totals > 0)
    low, high = np.quantile(deltas, [0.025, 0.975])
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
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))


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
