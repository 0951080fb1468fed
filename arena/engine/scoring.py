"""Deduplicated scoring: every distinct (source, target) pair of a run scored once per model.

A scoring Claude (:class:`arena.roles.ScoringClaude`) sees the same reference in every
block that shares a John: once per Zellig and once per seed.  A :class:`ScoreBook`
collects all requests of the unfinished cells of one model, keeps each distinct pair
once, groups the targets by source (so a Claude that reuses the encoder output per
source encodes each source once) and cuts the requests into chunks at source
boundaries.  The judgements are then derived from the scores by the one rule every
scoring Claude's ``judge`` uses (:func:`arena.record.scoring_rule.judgement_from_scores` in the
Claude's ``convention``).

The scores of a pair are those of the chunk it was scored in: a model's floating-point
results can differ in the last bits with the batch a pair shares, so these transcripts
match a Claude's own one-call ``judge`` to about 1e-5 in log-probability, while runs on
any backend match each other exactly (the same chunks reach the same code).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from arena.record.scoring_rule import candidate_score, judgement_from_scores
from arena.records import Judgement, Pair, SequenceScore


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

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        """Judge pairs whose candidates are all scored: the book is a
        :class:`arena.roles.Claude`, so :func:`arena.engine.match.judge_rounds` resolves ties and
        coins as for any Claude."""
        return [
            judgement_from_scores(
                [candidate_score(SequenceScore(*self._scores[p.source, c]), self.convention) for c in p.candidates]
            )
            for p in pairs
        ]
