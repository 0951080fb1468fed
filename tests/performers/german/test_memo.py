"""Bounded memoisation: the most recently used results are kept up to the limit."""

from __future__ import annotations

from performers.german.memo import _memoise


def test_memoise_keeps_the_most_recently_used_results():
    calls = []

    def double(x):
        calls.append(x)
        return 2 * x

    memoised = _memoise(double, limit=2)
    assert [memoised(x) for x in (1, 2, 1, 3, 1, 2)] == [2, 4, 2, 6, 2, 4]
    assert calls == [1, 2, 3, 2]  # 1 stayed (recently used), 2 was evicted by 3
    assert list(memoised.memo) == [(1,), (2,)]
