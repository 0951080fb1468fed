"""``random`` Claude: a seeded coin per pair — the chance baseline (S ≈ 0.5).

Its choice depends only on its own ``seed`` and the pair id, never on the batch a pair
arrives in, so it gives the same answers in-process and on Ray.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from arena.sdk import Judgement, Pair


class RandomClaude:
    """Judges a uniformly random candidate as corrupted."""

    version = "1"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        return [Judgement(random.Random(f"{self.seed}/{pair.id}").randrange(len(pair.candidates))) for pair in pairs]
