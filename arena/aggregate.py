"""The aggregation core: outcomes of a run and their per-instance sufficient statistics.

Every number the arena reports — S, contrastive accuracy, their bootstrap CIs, paired
tests between Claudes, Zelligs or Johns, mean ± std over seeds — is computed here from
a :class:`Tally`: per instance, the sum of a per-round value and the number of rounds.
Rounds of one instance are not independent (its k variants, every Zellig, every seed
share one reference), so CIs and paired tests resample *instances*
(:mod:`arena.stats`).  ``scores.json`` (:mod:`arena.metrics`), the leaderboards
(:mod:`arena.report`), the plots and ``arena compare-johns`` all use this module.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena import transcripts
from arena.match import JudgementRecord, OneBest, Round
from arena.stats import bootstrap_ci, mean_std, paired_bootstrap


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


def read_run(run_dir: Path) -> tuple[dict, list[Round], list[JudgementRecord], list[OneBest]]:
    manifest = json.loads((run_dir / transcripts.MANIFEST).read_text(encoding="utf-8"))
    rounds = [Round.from_json(r) for r in transcripts.read_jsonl(run_dir / transcripts.ROUNDS)]
    judgements = [JudgementRecord.from_json(j) for j in transcripts.read_jsonl(run_dir / transcripts.JUDGEMENTS)]
    one_bests = [OneBest.from_json(o) for o in transcripts.read_jsonl(run_dir / transcripts.ONEBEST)]
    return manifest, rounds, judgements, one_bests


def join(
    rounds: Sequence[Round], judgements: Sequence[JudgementRecord], one_bests: Sequence[OneBest]
) -> dict[str, list[Outcome]]:
    """Outcomes per Claude, in round order."""
    by_id = {r.id: r for r in rounds}
    best = {(o.claude, o.seed, o.source): o for o in one_bests}  # seed: of a model replica, else None
    result: dict[str, list[Outcome]] = defaultdict(list)
    for j in judgements:
        r = by_id.get(j.round)
        if r is None:
            raise ValueError(f"judgement of {j.claude} refers to unknown round {j.round!r}")
        one_best = best.get((j.claude, r.seed, r.instance.source)) or best.get((j.claude, None, r.instance.source))
        result[j.claude].append(Outcome(r, j, one_best))
    return result


# -- per-round values -----------------------------------------------------------------------

def correct(outcome: Outcome) -> float:
    """1 when the Claude's final choice is the corrupted candidate (S counts these)."""
    return float(outcome.judgement.correct)


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


def summary(outcomes: Sequence[Outcome], ties: str, samples: int) -> dict[str, Any]:
    """S, its CI, resolution counts, accuracy and discrepancy of a group of outcomes."""
    s = Tally.of(outcomes)
    result: dict[str, Any] = {
        "rounds": len(outcomes),
        "S": s.rate(),
        "S_ci95": s.ci(samples),
        "correct": int(s.sums.sum()),
        "resolved_by": dict(sorted(Counter(o.judgement.resolved_by for o in outcomes).items())),
    }
    accuracy = Tally.of(outcomes, accurate(ties))
    if accuracy.rounds:
        result["accuracy"] = accuracy.rate()
        result["accuracy_ci95"] = accuracy.ci(samples)
        result["ties"] = sum(1 for o in outcomes if o.scores is not None and o.scores[0] == o.scores[1])
    values = [d for d in (discrepancy(o) for o in outcomes) if d is not None]
    if values:
        result["discrepancy"] = float(np.mean(values))
    return result


def over_seeds(
    outcomes: Sequence[Outcome], value: Callable[[Outcome], float | None] = correct
) -> tuple[int, float | None, float | None]:
    """The number of seeds and the mean ± sample std of the per-seed rate of ``value``."""
    rates = [Tally.of(items, value).rate() for items in group(outcomes, lambda o: o.round.seed).values()]
    if not rates:
        return 0, None, None
    return (len(rates), *mean_std([r for r in rates if r is not None]))


def group(outcomes: Sequence[Outcome], key: Callable[[Outcome], Hashable | None]) -> dict[Any, list[Outcome]]:
    """Outcomes per ``key(outcome)`` in first-seen order (``None`` keys left out)."""
    groups: dict[Any, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        k = key(outcome)
        if k is not None:
            groups[k].append(outcome)
    return groups

