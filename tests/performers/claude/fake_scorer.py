"""A ScoringClaude with a scripted backend, for testing the base class without a model."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from arena.record.scoring_rule import ScoreConvention
from performers.claude.scoring import ScoringClaude


def fake_score(source: str, target: str) -> tuple[float, int]:
    """A deterministic stand-in: ``-len(target)`` over ``len(target.split()) + 1`` tokens,
    unless the target is listed in ``FIXED``."""
    if target in FIXED:
        return FIXED[target]
    return -float(len(target)), len(target.split()) + 1


# targets with hand-picked (logprob, tokens)
FIXED = {
    "long good": (-6.0, 6),   # mean -1.0, sum -6
    "short bad": (-3.0, 2),   # mean -1.5, sum -3
    "tie a": (-2.0, 2),
    "tie b": (-4.0, 4),       # same mean as "tie a"
    "nan": (float("nan"), 2),
    "best": (-1.0, 2),
}


class FakeScoringClaude(ScoringClaude):
    version = "1"

    def __init__(self, convention: ScoreConvention = "mean", cache: Any = False, batch: int = 4, delay: float = 0.0,
                 name: str = "fake", interrupt_after: int | None = None) -> None:
        super().__init__(convention=convention, cache=cache, progress=False)
        self.batch, self.delay, self.name = batch, delay, name
        self.interrupt_after = interrupt_after  # batches before a KeyboardInterrupt
        self.scored: list[tuple[str, str]] = []
        self.translated: list[str] = []

    def identity(self) -> Mapping[str, Any]:
        return {"model": self.name}

    def _score_uncached(self, pairs: Sequence[tuple[str, str]]) -> Iterator[list[tuple[int, float, int]]]:
        for number, start in enumerate(range(0, len(pairs), self.batch)):
            if number == self.interrupt_after:
                raise KeyboardInterrupt
            time.sleep(self.delay)
            chunk = range(start, min(start + self.batch, len(pairs)))
            self.scored += [pairs[i] for i in chunk]
            yield [(i, *fake_score(*pairs[i])) for i in chunk]

    def _translate_uncached(self, sources, beam, max_length) -> Iterator[list[tuple[int, str]]]:
        self.translated += list(sources)
        yield [(i, f"{source} @ beam {beam}") for i, source in enumerate(sources)]


def main(cache: str, count: int) -> None:
    """Score ``count`` pairs slowly, one per batch, committing after each (for the
    kill-and-resume test)."""
    import performers.claude.scoring as scoring

    scoring.COMMIT_SECONDS = 0.0
    claude = FakeScoringClaude(cache=cache, batch=1, delay=0.05)
    claude.score([f"s{i}" for i in range(count)], [f"t{i}" for i in range(count)])

