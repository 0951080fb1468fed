"""Performers for the game tests (importable by Ray workers as ``module:Class``)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from arena.records import Judgement, Pair, RoundOutcome
from tests.arena.engine.helpers import HashScorer


class SideLearner:
    """An observing Claude whose answers depend on everything it has observed: it
    names the side on which transparent rounds showed the corruption more often
    (HashScorer's choice while it has seen nothing or a tie), so a resume that
    rebuilt its state wrongly would change its transcripts.  With
    ``ARENA_TEST_GAME_INTERRUPT=N`` set, its N-th ``judge`` call raises
    KeyboardInterrupt (a Ctrl-C in the middle of a schedule)."""

    version = "1"

    def __init__(self) -> None:
        self.scorer = HashScorer()
        self.sides = [0, 0]
        self.calls = 0
        self.shown = 0

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        self.calls += 1
        if os.environ.get("ARENA_TEST_GAME_INTERRUPT") == str(self.calls):
            raise KeyboardInterrupt
        base = self.scorer.judge(pairs)
        if self.sides[0] == self.sides[1]:
            return base
        side = int(self.sides[1] > self.sides[0])
        return [Judgement(side, judgement.scores) for judgement in base]

    def observe(self, outcomes: Sequence[RoundOutcome]) -> None:
        for outcome in outcomes:
            self.shown += 1
            if outcome.transparent and outcome.corrupted is not None:
                self.sides[outcome.corrupted] += 1
