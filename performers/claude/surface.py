"""What the fitted surface-cue Claudes share (``length``, ``edit-words``).

A surface Claude sees only the two candidates (never the source, never a translation model)
and decides by the sign of a *margin*, a linear function of features that is antisymmetric
in the candidates: positive means the second candidate is the corrupted one, negative the
first, zero (no cue) abstains and the arena's seeded coin decides.  Swapping the candidates
flips the margin, so the Claude has no side bias.

It learns in two ways, both from labelled pairs only:

- ``fit(pairs, corrupted)`` (:class:`arena.roles.Fittable`): the cue audit
  (:mod:`arena.stats.cues`) fits a fresh one per cross-validation fold;
- ``observe(outcomes)`` (:class:`arena.roles.Observer`) in a game: every round transparent
  to it is one example; once ``min_examples`` are in, it refits on all of them after each
  block.  Before it has been fitted it abstains on every pair (chance).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from arena.sdk import Judgement, Pair, RoundOutcome, UsageError

logger = logging.getLogger(__name__)


def checked_pairs(pairs: Sequence[Pair], name: str) -> None:
    for pair in pairs:
        if len(pair.candidates) != 2:
            raise UsageError(f"pair {pair.id}: the {name} Claude judges pairs of two candidates, "
                             f"not {len(pair.candidates)}")


class SurfaceClaude:
    """Base class: subclasses set ``name`` and implement ``_fit`` and ``margin``."""

    name = "surface"

    def __init__(self, min_examples: int = 10) -> None:
        if isinstance(min_examples, bool) or not isinstance(min_examples, int) or min_examples < 1:
            raise UsageError(f"{self.name}: min_examples must be an integer ≥ 1, not {min_examples!r}",
                             key="min_examples")
        self.min_examples = min_examples
        self.fitted = False
        self.observed: list[tuple[Pair, int]] = []

    def _fit(self, pairs: Sequence[Pair], corrupted: Sequence[int]) -> None:
        raise NotImplementedError

    def margin(self, pair: Pair) -> float:
        """Positive: the second candidate looks corrupted; negative: the first; 0: no cue."""
        raise NotImplementedError

    def fit(self, pairs: Sequence[Pair], corrupted: Sequence[int]) -> None:
        checked_pairs(pairs, self.name)
        if len(pairs) != len(corrupted) or any(c not in (0, 1) for c in corrupted):
            raise UsageError(f"{self.name}: fit needs one answer (0 or 1) per pair")
        self._fit(pairs, corrupted)
        self.fitted = True

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        checked_pairs(pairs, self.name)
        if not self.fitted:
            return [Judgement(None) for _ in pairs]
        result = []
        for pair in pairs:
            margin = self.margin(pair)
            # scores: higher = looks correct, so the lower-scored candidate is the one judged corrupted
            result.append(Judgement(None if margin == 0 else int(margin > 0), (margin / 2, -margin / 2)))
        return result

    def observe(self, outcomes: Sequence[RoundOutcome]) -> None:
        for outcome in outcomes:
            if outcome.transparent and outcome.corrupted is not None and outcome.candidates is not None \
                    and len(outcome.candidates) == 2:
                self.observed.append((Pair(outcome.round, outcome.source or "", tuple(outcome.candidates)),
                                      outcome.corrupted))
        if len(self.observed) >= self.min_examples:
            self.fit([p for p, _ in self.observed], [c for _, c in self.observed])
            logger.info("%s: fitted on %d observed rounds", self.name, len(self.observed))
