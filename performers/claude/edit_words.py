"""``edit-words`` Claude: a linear classifier over the words of the edit, candidate-only.

It aligns the two candidates word by word (``difflib``), keeps what differs — the words only
the first candidate has and the words only the second has (what was deleted, inserted or
replaced) — and describes each side by its words (``w=Ding``), their character trigrams
(``c=din``) and an empty-side marker (``∅``: the side lost words).  Fitted, it weighs each
feature by its log-count ratio between corrupted and correct sides (multinomial naive Bayes,
add-``alpha`` smoothing; Wang & Manning 2012, NBSVM's ratios without the SVM), and the margin
is the sum over the second side's features minus the first's.  Features never seen in fitting
weigh nothing; a pair with nothing but such features is a tie (the arena's coin).

Example: fitted on placeholder-*Ding* pairs it names *Er kaufte ein Ding.* (not *Er kaufte ein
Auto.*) as corrupted: ``w=Ding`` only ever appears on the corrupted side.

Source: issue 25; hypothesis-only baselines (Gururangan et al. 2018; Poliak et al. 2018).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from arena.sdk import Pair, PositiveFloat, PositiveInt, UsageError, length_cue
from performers.claude.surface import SurfaceClaude

EMPTY = "∅"


@lru_cache(maxsize=1 << 16)
def edit_sides(first: str, second: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words only ``first`` has and the words only ``second`` has, in order."""
    a, b = length_cue.words(first), length_cue.words(second)
    only_a: list[str] = []
    only_b: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            only_a += a[i1:i2]
            only_b += b[j1:j2]
    return tuple(only_a), tuple(only_b)


def side_features(tokens: Sequence[str]) -> list[str]:
    """Words, character trigrams (with word boundaries) and the empty-side marker."""
    if not tokens:
        return [EMPTY]
    features = []
    for token in tokens:
        features.append(f"w={token}")
        padded = f"<{token.lower()}>"
        features += [f"c={padded[i:i + 3]}" for i in range(len(padded) - 2)]
    return features


def pair_features(pair: Pair) -> tuple[list[str], list[str]]:
    only_a, only_b = edit_sides(*pair.candidates)
    return side_features(only_a), side_features(only_b)


class EditWordsClaude(SurfaceClaude):
    """Params: ``alpha`` (add-alpha smoothing of the feature counts, default 1.0),
    ``min_examples`` (observed rounds before it refits in a game, default 10)."""

    version = "1"
    name = "edit-words"

    def __init__(self, alpha: PositiveFloat = 1.0, min_examples: PositiveInt = 10) -> None:
        super().__init__(min_examples)
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or alpha <= 0:
            raise UsageError(f"edit-words: alpha must be a positive number, not {alpha!r}", key="alpha")
        self.alpha = float(alpha)
        self.ratios: dict[str, float] = {}

    def _fit(self, pairs: Sequence[Pair], corrupted: Sequence[int]) -> None:
        on_corrupted: Counter[str] = Counter()
        on_correct: Counter[str] = Counter()
        for pair, answer in zip(pairs, corrupted):
            sides = pair_features(pair)
            on_corrupted.update(sides[answer])
            on_correct.update(sides[1 - answer])
        vocabulary = on_corrupted.keys() | on_correct.keys()
        total_corrupted = sum(on_corrupted.values()) + self.alpha * len(vocabulary)
        total_correct = sum(on_correct.values()) + self.alpha * len(vocabulary)
        self.ratios = {
            feature: math.log((on_corrupted[feature] + self.alpha) / total_corrupted)
            - math.log((on_correct[feature] + self.alpha) / total_correct)
            for feature in vocabulary
        }

    def margin(self, pair: Pair) -> float:
        first, second = pair_features(pair)
        return sum(self.ratios.get(f, 0.0) for f in second) - sum(self.ratios.get(f, 0.0) for f in first)
