"""``oracle`` Claude: told the answer key by the arena, it always finds the corrupted
candidate (S = 1.0).  An upper bound and a check of the arena's bookkeeping, never a
model: it abstains on pairs whose answer it was not told.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.sdk import Judgement, Pair


class OracleClaude:
    """Answers from the answer key (see :class:`arena.roles.AnswerKeyAware`)."""

    version = "1"

    def __init__(self) -> None:
        self._answers: dict[str, int] = {}

    def observe_answers(self, answers: dict[str, int]) -> None:
        self._answers.update(answers)

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        return [Judgement(self._answers.get(pair.id)) for pair in pairs]
