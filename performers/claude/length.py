"""``length`` Claude: a surface-cue baseline that reads nothing but the candidates' lengths.

Features (second candidate minus first): the difference in characters and in tokens (words and
punctuation marks).  The direction and weight of each are *fitted* (an L2-penalised logistic
regression without intercept, on both candidate orders), not assumed: on clause omission the
shorter candidate is the corrupted one, on hypercorrect genitive the longer.  Unfitted it
abstains.  See :mod:`performers.claude.surface` for how it learns.

Example: fitted on clause-omission pairs it names *Er kam.* (not *Er kam, weil es regnete.*) as
corrupted without knowing a word of German.

Source: the hypothesis-only / annotation-artefact baselines of Gururangan et al. (2018) and
Poliak et al. (2018); issue 25.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.sdk import FinitePositiveFloat, Pair, PositiveInt, UsageError
from performers.claude.kneser_ney import words
from performers.claude.learned import fit_logistic
from performers.claude.surface import SurfaceClaude

FEATURES = ("characters", "tokens")


def lengths(text: str) -> tuple[int, int]:
    return len(text), len(words(text))


def difference(pair: Pair) -> list[float]:
    (chars_a, tokens_a), (chars_b, tokens_b) = (lengths(text) for text in pair.candidates)
    return [float(chars_b - chars_a), float(tokens_b - tokens_a)]


class LengthClaude(SurfaceClaude):
    """Params: ``l2`` (penalty on standardised weights, default 1.0), ``min_examples`` (observed
    rounds before it refits in a game, default 10)."""

    version = "1"
    name = "length"

    def __init__(self, l2: FinitePositiveFloat = 1.0, min_examples: PositiveInt = 10) -> None:
        super().__init__(min_examples)
        if isinstance(l2, bool) or not isinstance(l2, (int, float)) or l2 <= 0:
            raise UsageError(f"length: l2 must be a positive number, not {l2!r}", key="l2")
        self.l2 = float(l2)
        self.weights = [0.0, 0.0]

    def _fit(self, pairs: Sequence[Pair], corrupted: Sequence[int]) -> None:
        rows, labels = [], []
        for pair, answer in zip(pairs, corrupted):
            row = difference(pair)
            rows += [row, [-value for value in row]]
            labels += [answer, 1 - answer]
        self.weights = fit_logistic(rows, labels, self.l2)

    def margin(self, pair: Pair) -> float:
        return sum(w * f for w, f in zip(self.weights, difference(pair)))
