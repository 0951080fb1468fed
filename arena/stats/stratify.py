"""S stratified by a cue: the mean of S over the pairs a cue gets right and over those it gets wrong,
each stratum weighted equally, with a bootstrap interval over instances (the metric
``s_net_of_cues``; the strata come from :mod:`arena.stats.cue_strata`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from arena.stats.aggregate import DEFAULT_SEED, resampled_sums

MIN_STRATUM = 10


def _per_instance(keys: Sequence[Hashable], columns: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each column summed per key, keys in first-seen order, rows added in order."""
    index: dict[Hashable, int] = {}
    dense = np.fromiter((index.setdefault(k, len(index)) for k in keys), dtype=np.int64, count=len(keys))
    return [np.bincount(dense, weights=c, minlength=len(index)).astype(float) for c in columns]


def stratified(keys: Sequence[Hashable], correct: np.ndarray, strata: np.ndarray,
               samples: int) -> tuple[float | None, tuple[float, float] | None, str | None]:
    """S net of cues of rounds with instance ``keys``, S values ``correct`` and cue ``strata``:
    value, 95% bootstrap interval over instances (none with ``samples`` 0), and why it is
    undefined (``None`` when it is defined)."""
    correct = np.asarray(correct, dtype=float)
    right = np.asarray(strata, dtype=float)
    wrong = 1.0 - right
    sums = _per_instance(keys, [correct * right, right, correct * wrong, wrong])
    n_right, n_wrong = float(sums[1].sum()), float(sums[3].sum())
    if min(n_right, n_wrong) < MIN_STRATUM:
        side, n = ("wrong", n_wrong) if n_wrong < n_right else ("right", n_right)
        return None, None, f"undefined: the cue gets {n:g} pairs {side} (< {MIN_STRATUM} in a stratum)"
    value = 0.5 * (sums[0].sum() / n_right + sums[2].sum() / n_wrong)
    if samples <= 0:
        return float(value), None, None
    r_sum, r_n, w_sum, w_n = resampled_sums(tuple(sums), samples, DEFAULT_SEED)
    estimates = 0.5 * (np.divide(r_sum, r_n, out=np.full(samples, 0.5), where=r_n > 0)
                       + np.divide(w_sum, w_n, out=np.full(samples, 0.5), where=w_n > 0))
    low, high = np.quantile(estimates, [0.025, 0.975])
    return float(value), (float(low), float(high)), None
