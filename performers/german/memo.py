"""Bounded memoisation of pure per-word functions (HanTa's tag distributions and morpheme
analyses, compound splits, verb paradigms): the most recently used results are kept, up
to a limit that can be lowered while running
(:func:`performers.german.analysis.limit_caches`, which lowers every module-level
:func:`word_cache` through :func:`limit_word_caches`)."""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

WORD_CACHE_SIZE = 100_000  # per memoised HanTa method: words (and their arguments) kept
_MISSING = object()  # a cached ``None`` is a result too
_F = TypeVar("_F", bound=Callable[..., Any])
_MODULE_CACHES: list[Any] = []


def _memoise(method: Callable, limit: int = WORD_CACHE_SIZE) -> Callable:
    """Memoise a pure method by its arguments (keyword arguments included), keeping the
    ``limit`` most recently used results (``wrapper.limit`` may be lowered later)."""
    memo: OrderedDict = OrderedDict()

    def wrapper(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        found = memo.get(key, _MISSING)
        if found is _MISSING:
            found = memo[key] = method(*args, **kwargs)
            while len(memo) > wrapper.limit:
                memo.popitem(last=False)
        else:
            memo.move_to_end(key)
        return found

    wrapper.memo, wrapper.limit = memo, limit  # type: ignore[attr-defined]
    return wrapper


def word_cache(limit: int) -> Callable[[_F], _F]:
    """Decorator: :func:`_memoise` a module-level pure function of words, keeping at most
    ``limit`` results until :func:`limit_word_caches` lowers it."""

    def decorate(function: _F) -> _F:
        wrapper = functools.wraps(function)(_memoise(function, limit))
        _MODULE_CACHES.append(wrapper)
        return wrapper  # type: ignore[return-value]

    return decorate


def limit_word_caches(words: int) -> None:
    """Keep at most ``words`` results in every module-level :func:`word_cache`."""
    for wrapper in _MODULE_CACHES:
        wrapper.limit = words
        while len(wrapper.memo) > words:
            wrapper.memo.popitem(last=False)
