"""``length`` Claude: a surface-cue baseline that reads nothing but the candidates' lengths.

Features (second candidate minus first): the difference in characters and in tokens (words and
punctuation marks).  The direction and weight of each are *fitted* (an L2-penalised logistic
regression without intercept, on both candidate orders), not assumed: on clause omission the
shorter candidate is the corrupted one, on hypercorrect genitive the longer.  Unfitted it
abstains.  See :mod:`performers.claude.surface` for how it learns; the features and the fit are
:mod:`arena.length_cue`'s, which ``scores.json``'s S net of cues uses too.

Example: fitted on clause-omission pairs it names *Er kam.* (not *Er kam, weil es regnete.*) as
corrupted without knowing a word of German.

Source: the hypothesis-only / annotation-artefact baselines of Gururangan et al. (2018) and
Poliak et al. (2018); issue 25.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.sdk import FinitePositiveFloat, Pair, PositiveInt, UsageError, length_cue
from performers.claude.surface import SurfaceClaude

FEATURES = ("characters", "tokens")


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
        self.weights = length_cue.fit(pairs, corrupted, self.l2)

    def margin(self, pair: Pair) -> float:
        return length_cue.margin(self.weights, pair)
