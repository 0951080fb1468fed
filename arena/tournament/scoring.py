"""Deduplicated scoring: every (source, target) pair of a tournament scored once per model.

A scoring Claude (one that offers ``score(sources, targets)`` and judges by comparing
those scores, see :class:`~arena.tournament.jobs.ClaudeKind`) sees the same reference
in every cell that shares a John: once per Zellig and once per seed.  A
:class:`ScoreBook` collects all requests of the unfinished cells of one model, keeps
each distinct pair once, groups the targets by source (so a Claude that reuses the
encoder output per source encodes each source once) and cuts the requests into
chunks at source boundaries.  The judgements are then derived from the scores exactly
as a scoring Claude's ``judge`` derives them:

- a candidate's score is its mean log-probability per token (``convention: mean``,
  DistilLingEval's length normalisation, end-of-sentence token included) or the sum
  (``convention: sum``);
- the candidate with the lowest score is judged corrupted; when the lowest score is
  shared (an exact tie) or a score is NaN the Claude abstains and the arena's seeded
  coin decides.

This is the rule of :mod:`performers.claude.scoring` (the scoring Claudes' ``judge``);
a Claude that judges otherwise sets ``judges_by_score = False`` and is asked cell by
cell.  The scores of a pair are those of the chunk it was scored in: a model's
floating-point results can differ in the last bits with the batch a pair shares, so
transcripts of a tournament match an ``arena run`` of a scoring Claude to about 1e-5
in log-probability, while tournaments on any backend match each other exactly (the
same chunks reach the same code).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from arena.records import Judgement, Pair, SequenceScore


def candidate_score(logprob: float, tokens: int, convention: str) -> float:
    """One candidate's score in a Claude's convention (as :class:`SequenceScore` defines it)."""
    score = SequenceScore(logprob, tokens)
    return score.logprob if convention == "sum" else score.mean


def judgement_from_scores(scores: Sequence[float]) -> Judgement:
    """The lowest-scored candidate is the corrupted one; an exact tie for lowest (or a
    NaN score) abstains."""
    values = tuple(float(s) for s in scores)
    if any(math.isnan(v) for v in values):
        return Judgement(None, values)
    lowest = min(values)
    if values.count(lowest) > 1:
        return Judgement(None, values)
    return Judgement(values.index(lowest), values)


class ScoreBook:
    """The scoring requests of one model, deduplicated, and their answers."""

    def __init__(self, convention: str = "mean"):
        self.convention = convention
        self.requested = 0  # requests before deduplication
        self._targets: dict[str, dict[str, None]] = {}  # source -> its distinct targets, in first-seen order
        self._scores: dict[tuple[str, str], tuple[float, int]] = {}

    def add(self, source: str, targets: Iterable[str]) -> list[tuple[str, str]]:
        """Register the candidates of one pair; return their request keys."""
        slot = self._targets.setdefault(source, {})
        keys = []
        for target in targets:
            self.requested += 1
            slot[target] = None
            keys.append((source, target))
        return keys

    @property
    def unique(self) -> int:
        """Requests after deduplication."""
        return sum(len(targets) for targets in self._targets.values())

    def chunks(self, size: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """Requests as ``(sources, targets)`` chunks of about ``size`` pairs, grouped by
        source and cut at source boundaries (a source with more than ``size`` targets
        is split).  Deterministic: sources and targets in first-seen order."""
        size = max(1, int(size))
        result: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        sources: list[str] = []
        targets: list[str] = []

        def flush() -> None:
            if targets:
                result.append((tuple(sources), tuple(targets)))
                sources.clear()
                targets.clear()

        for source, group in self._targets.items():
            group_targets = [t for t in group if (source, t) not in self._scores]
            if targets and len(targets) + len(group_targets) > size:
                flush()
            for target in group_targets:
                if len(targets) >= size:
                    flush()
                sources.append(source)
                targets.append(target)
        flush()
        return result

    def record(self, sources: Sequence[str], targets: Sequence[str], results: Sequence[tuple[float, int]]) -> None:
        if len(results) != len(targets):
            raise ValueError(f"{len(results)} scores for {len(targets)} scoring requests")
        for source, target, (logprob, tokens) in zip(sources, targets, results):
            self._scores[source, target] = (float(logprob), int(tokens))

    def has(self, source: str, target: str) -> bool:
        return (source, target) in self._scores

    def judge(self, pair: Pair) -> Judgement:
        scores = [
            candidate_score(*self._scores[pair.source, candidate], self.convention) for candidate in pair.candidates
        ]
        return judgement_from_scores(scores)


class ScoredClaude:
    """A Claude that answers from a :class:`ScoreBook` (every pair must be scored),
    so :func:`arena.match.judge_rounds` resolves ties and coins as for any Claude."""

    version = "1"

    def __init__(self, book: ScoreBook):
        self.book = book

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        return [self.book.judge(pair) for pair in pairs]
