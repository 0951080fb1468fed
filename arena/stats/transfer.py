"""The transfer matrix of a transfer run: does what a Zellig learns against one Claude
hold against the others?

Input: a finished run of an expanded transfer config (:mod:`arena.specs.transfer`) and
its plan.  A *cluster* is one instance (``John, instance``) with its rounds in every
seed: the rounds of every Zellig and seed on it share the reference (a deterministic
Zellig plays the same pair in every seed), so CIs and paired tests resample clusters,
with the seeds' rounds inside each, which covers instances and seeds at once.

For each Zellig ``Z``, Claude ``A`` it was tuned against and Claude ``B`` judging:

- ``s``: S of ``Z@A``'s counted rounds as judged by ``B``, ``ci`` its 95% bootstrap CI;
- ``gain_vs_base``: S of the untuned base judged by ``B`` minus S of ``Z@A`` judged by
  ``B``, on the instances both played, each instance's rate (over its seeds) weighing once (positive: the
  tuning fools ``B`` more often), with the paired bootstrap's ``gain_ci`` and ``p``.

The diagonal (``A = B``) and the off-diagonal (``A ≠ B``) gains are summarised apart
(mean over their cells), and the **transfer ratio** = off-diagonal gain / diagonal gain,
with a 95% CI from one bootstrap that resamples clusters for all cells of ``Z`` at once.
Across seeds, each cell's per-seed S gets a mean with a t interval (beside the per-seed
bootstrap CIs).  The trend of an adapting Zellig is tested over seeds: per seed and
diagonal cell, the least-squares slope of found/not found on the round's rank (and of
the paired difference to the base on the same clusters), then a one-sample t-test of
the mean per-seed slope (slopes per 100 rounds).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from arena.specs.transfer import TransferPlan
from arena.stats.aggregate import DEFAULT_SEED, Outcome, bootstrap_ci, correct, paired_bootstrap

Cluster = tuple[int, str, str]  # seed, John, instance id


def _found(outcomes: Mapping[str, Sequence[Outcome]]) -> dict[tuple[str, str], dict[Cluster, list[float]]]:
    """(Claude, Zellig) → cluster → the Claude's found/not found of the Zellig's rounds there, in round order."""
    table: dict[tuple[str, str], dict[Cluster, list[float]]] = defaultdict(dict)
    for claude, items in outcomes.items():
        for o in items:
            if (found := correct(o)) is None:  # abstained or late: not judged, left out as in S
                continue
            key = (o.round.seed, o.round.john, o.round.instance.id)
            table[claude, o.round.zellig].setdefault(key, []).append(found)
    return table


def _rates(cells: Mapping[Any, list[float]], keys: Sequence[Any]) -> np.ndarray:
    return np.array([sum(cells[k]) / len(cells[k]) for k in keys], dtype=float)


def _pooled(cells: Mapping[Cluster, list[float]]) -> dict[tuple[str, str], list[float]]:
    """The rounds of each instance pooled over seeds: the clusters CIs resample (a seed
    replays the same instance, so its rounds are not independent of the other seeds')."""
    pooled: dict[tuple[str, str], list[float]] = {}
    for (_, john, instance), values in cells.items():
        pooled.setdefault((john, instance), []).extend(values)
    return pooled


def t_interval(values: Sequence[float]) -> dict[str, Any]:
    """Mean of per-seed values with a 95% t interval and the two-sided p of mean = 0."""
    from scipy import stats

    array = np.asarray(values, dtype=float)
    mean = float(array.mean()) if array.size else float("nan")
    if array.size < 2:
        return {"mean": mean, "ci": None, "p": None, "seeds": int(array.size)}
    sem = float(array.std(ddof=1) / math.sqrt(array.size))
    half = float(stats.t.ppf(0.975, array.size - 1)) * sem
    if sem <= 1e-12 * max(1.0, abs(mean)):  # every seed gives the same value (a deterministic Zellig): no test
        return {"mean": mean, "ci": [mean, mean], "p": None, "seeds": int(array.size)}
    p = float(2 * stats.t.sf(abs(mean / sem), array.size - 1))
    return {"mean": mean, "ci": [mean - half, mean + half], "p": p, "seeds": int(array.size)}


def _cell(table, plan: TransferPlan, family: str, tuned: str, judge: str, samples: int) -> dict[str, Any]:
    mine = _pooled(table.get((judge, plan.alias(family, tuned)), {}))
    base = _pooled(table.get((judge, plan.bases[family]), {}))
    sums = np.array([sum(v) for v in mine.values()], dtype=float)
    counts = np.array([len(v) for v in mine.values()], dtype=float)
    n = int(counts.sum())
    ci = bootstrap_ci(sums, counts, samples) if n else None
    shared = [k for k in mine if k in base]
    test = paired_bootstrap(_rates(base, shared), _rates(mine, shared), None, samples) if shared else None
    return {
        "zellig": family, "tuned_against": tuned, "judged_by": judge, "n": n,
        "s": float(sums.sum() / n) if n else None, "ci": list(ci) if ci else None,
        "gain_vs_base": test["delta"] if test else None,
        "gain_ci": [test["low"], test["high"]] if test else None,
        "p": test["p_value"] if test else None,
    }


def _seed_spread(table, plan: TransferPlan, family: str, tuned: str, judge: str, samples: int) -> dict[str, Any]:
    """Per-seed S with its bootstrap CI, and their mean with a t interval over seeds."""
    mine = table.get((judge, plan.alias(family, tuned)), {})
    per_seed: list[dict[str, Any]] = []
    for seed in plan.seeds:
        keys = [k for k in mine if k[0] == seed]
        sums = np.array([sum(mine[k]) for k in keys], dtype=float)
        counts = np.array([len(mine[k]) for k in keys], dtype=float)
        if counts.sum():
            ci = bootstrap_ci(sums, counts, samples)
            per_seed.append({"seed": seed, "n": int(counts.sum()), "s": float(sums.sum() / counts.sum()),
                             "ci": list(ci) if ci else None})
    return {"per_seed": per_seed, "over_seeds": t_interval([float(entry["s"]) for entry in per_seed])}


def ratio(table, plan: TransferPlan, family: str, samples: int, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """Mean diagonal and off-diagonal gain of ``family`` and their ratio, with bootstrap
    CIs over the clusters every cell of the family shares."""
    tuned = [a for a in plan.tuned_against]
    pairs = [(a, b) for a in tuned for b in plan.claudes]
    per_cell = [(_pooled(table.get((b, plan.alias(family, a)), {})), _pooled(table.get((b, plan.bases[family]), {})))
                for a, b in pairs]
    keys = sorted(set.intersection(*(set(m) & set(base) for m, base in per_cell))) if per_cell else []
    if not keys:
        return {"clusters": 0}
    gains = np.stack([_rates(base, keys) - _rates(m, keys) for m, base in per_cell], axis=1)  # clusters × cells
    diagonal = np.array([a == b for a, b in pairs])
    off = ~diagonal

    def summary(rows: np.ndarray) -> tuple[float, float, float]:
        d, o = rows[:, diagonal].mean(), rows[:, off].mean() if off.any() else float("nan")
        return float(d), float(o), float(o / d) if d != 0 else float("nan")

    d, o, r = summary(gains)
    rng = np.random.default_rng(seed)
    boots = np.array([summary(gains[rng.integers(0, len(keys), len(keys))]) for _ in range(samples)])

    def interval(column: int) -> list[float] | None:
        finite = boots[:, column][np.isfinite(boots[:, column])]
        return [float(np.quantile(finite, 0.025)), float(np.quantile(finite, 0.975))] if finite.size else None

    return {"clusters": len(keys), "diagonal_gain": d, "diagonal_ci": interval(0),
            "off_diagonal_gain": o, "off_diagonal_ci": interval(1), "transfer_ratio": r, "ratio_ci": interval(2)}


def slope(values: Sequence[float]) -> float:
    """Least-squares slope of ``values`` on their rank, per 100 ranks."""
    n = len(values)
    if n < 2:
        return float("nan")
    x = np.arange(n, dtype=float)
    y = np.asarray(values, dtype=float)
    return float(100 * ((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum())


def trend(outcomes: Mapping[str, Sequence[Outcome]], plan: TransferPlan, family: str) -> dict[str, Any]:
    """Per seed and diagonal cell, the slope of found on round rank and of the paired
    difference to the base; the mean slope per seed (over the Claudes tuned against) and
    its t-test over seeds."""
    slopes: dict[int, list[float]] = defaultdict(list)
    paired: dict[int, list[float]] = defaultdict(list)
    per_cell = []
    for claude in plan.tuned_against:
        items = [o for o in outcomes.get(claude, ()) if correct(o) is not None]  # the rounds it judged, as S
        mine = [o for o in items if o.round.zellig == plan.alias(family, claude)]
        base = {(o.round.seed, o.round.john, o.round.instance.id): float(o.judgement.correct)
                for o in items if o.round.zellig == plan.bases[family]}
        for seed in plan.seeds:
            rounds = [o for o in mine if o.round.seed == seed]
            found = [float(o.judgement.correct) for o in rounds]
            diffs = [float(o.judgement.correct) - base[key] for o in rounds
                     if (key := (o.round.seed, o.round.john, o.round.instance.id)) in base]
            if len(found) >= 2:
                slopes[seed].append(slope(found))
                per_cell.append({"tuned_against": claude, "seed": seed, "rounds": len(found),
                                 "slope": slopes[seed][-1], "paired_slope": slope(diffs) if len(diffs) >= 2 else None})
            if len(diffs) >= 2:
                paired[seed].append(slope(diffs))
    return {
        "per_cell": per_cell,
        "slope": t_interval([float(np.mean(v)) for v in slopes.values()]),
        "paired_slope": t_interval([float(np.mean(v)) for v in paired.values()]),
    }


def transfer_matrix(outcomes: Mapping[str, Sequence[Outcome]], plan: TransferPlan,
                    samples: int = 1000) -> tuple[dict[str, Any], dict[str, Any]]:
    """``transfer.json`` (the issue's shape: claudes, zelligs, seeds, cells) and the summary
    beside it (diagonal/off-diagonal, transfer ratio, seeds, trend) for the report."""
    table = _found(outcomes)
    cells, spreads = [], []
    for family in plan.zelligs:
        for tuned in plan.tuned_against:
            for judge in plan.claudes:
                cells.append(_cell(table, plan, family, tuned, judge, samples))
                spreads.append({"zellig": family, "tuned_against": tuned, "judged_by": judge,
                                **_seed_spread(table, plan, family, tuned, judge, samples)})
    bases = []
    for family in plan.zelligs:
        for judge in plan.claudes:
            found = table.get((judge, plan.bases[family]), {})
            n = sum(len(v) for v in found.values())
            bases.append({"zellig": family, "base": plan.bases[family], "judged_by": judge, "n": n,
                          "s": sum(sum(v) for v in found.values()) / n if n else None})
    matrix = {"claudes": list(plan.claudes), "zelligs": list(plan.zelligs), "seeds": list(plan.seeds), "cells": cells}
    summary = {
        "tuned_against": list(plan.tuned_against),
        "ratios": {family: ratio(table, plan, family, samples) for family in plan.zelligs},
        "trends": {family: trend(outcomes, plan, family) for family in plan.zelligs},
        "seeds": spreads,
        "bases": bases,
    }
    return matrix, summary
