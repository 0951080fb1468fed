"""Bounded memoisation of pure per-word methods (HanTa's tag distributions and morpheme
analyses): the most recently used results are kept, up to a limit that can be lowered
while running (:func:`performers.german.analysis.limit_caches`)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

WORD_CACHE_SIZE = 100_000  # per memoised HanTa method: words (and their arguments) kept


def _memoise(method: Callable, limit: int = WORD_CACHE_SIZE) -> Callable:
    """Memoise a pure method by its arguments (keyword arguments included), keeping the
    ``limit`` most recently used results (``wrapper.limit`` may be lowered later)."""
    memo: OrderedDict = OrderedDict()

    def wrapper(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        found = memo.get(key)
        if found is None:
            found = memo[key] = method(*args, **kwargs)
            while len(memo) > wrapper.limit:
                memo.popitem(last=False)
        else:
            memo.move_to_end(key)
        return found

    wrapper.memo, wrapper.limit = memo, limit  # type: ignore[attr-defined]
    return wrapper
