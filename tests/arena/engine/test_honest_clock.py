"""The honest clock (Smith's time budget): a score served from the cache costs the
time it took to compute, so a slow Claude is late whether or not its cache is warm,
and a fast one is punctual either way."""

from __future__ import annotations

import pytest

from arena.engine import match
from arena.record.rounds import RESOLVED_LATE, JudgementRecord, Round
from arena.records import Instance
from arena.roles import Clocked
from performers.claude.score_cache import ScoreCache
from tests.performers.claude.fake_scorer import FakeScoringClaude

PAIRS = 4  # rounds per judge call; the fake scores 2 candidates per round, one batch each


def rounds() -> list[Round]:
    result = []
    for i in range(PAIRS):
        instance = Instance(f"i{i}", f"source {i}", f"gut {i}")
        result.append(Round(f"r{i}", 1, "john", "zellig", instance, None, (f"gut {i}", f"schlecht {i}"), 1))
    return result


def hows(records: list[JudgementRecord]) -> set[str]:
    return {record.resolved_by for record in records}


@pytest.mark.parametrize(
    ("delay", "budget", "late"),
    [
        (0.05, 0.01, True),   # slow: ~0.05 s per 2 pairs per round against 0.01 s per round
        (0.0, 5.0, False),    # fast: must not be late, cached or not
    ],
)
def test_lateness_is_the_same_with_a_cold_and_a_warm_cache(tmp_path, delay, budget, late):
    cache = tmp_path / "scores.sqlite"
    cold = FakeScoringClaude(cache=str(cache), batch=1, delay=delay)
    first = match.judge_rounds(cold, "fake", rounds(), seconds_per_pair=budget)
    warm = FakeScoringClaude(cache=str(cache), batch=1, delay=delay)
    second = match.judge_rounds(warm, "fake", rounds(), seconds_per_pair=budget)
    assert warm.scored == []  # the second Claude computed nothing: every score came from the cache
    assert (RESOLVED_LATE in hows(first)) is late
    assert (RESOLVED_LATE in hows(second)) is late
    assert warm.replayed_seconds() >= (2 * PAIRS * delay * 0.9 if late else 0.0)


def test_a_cached_score_carries_its_cost(tmp_path):
    cache = tmp_path / "scores.sqlite"
    claude = FakeScoringClaude(cache=str(cache), batch=2, delay=0.02)
    claude.score(["s", "s"], ["a", "b"])
    assert claude.replayed_seconds() == 0.0  # computed, not replayed
    again = FakeScoringClaude(cache=str(cache), batch=2, delay=0.02)
    again.score(["s"], ["a"])
    assert 0.01 - 1e-3 <= again.replayed_seconds() < 1.0  # half of one 0.02 s batch of two
    assert isinstance(again, Clocked)


def test_an_unpriced_entry_is_computed_again_and_then_priced(tmp_path):
    path = tmp_path / "scores.sqlite"
    claude = FakeScoringClaude(cache=str(path), batch=1)
    model = claude._cache_model()
    ScoreCache.open(str(path)).put_scores(model, [(("s", "old"), -1.0, 2)])  # an entry from before the clock
    claude.score(["s"], ["old"])
    assert claude.scored == [("s", "old")] and claude.replayed_seconds() == 0.0
    (_, _, seconds) = ScoreCache.open(str(path)).get_timed_scores(model, [("s", "old")])[0]
    assert seconds is not None and seconds >= 0.0


def test_a_claude_without_a_cache_is_not_clocked_twice(tmp_path):
    claude = FakeScoringClaude(cache=False, batch=1, delay=0.0)
    records = match.judge_rounds(claude, "fake", rounds(), seconds_per_pair=5.0)
    assert RESOLVED_LATE not in hows(records) and claude.replayed_seconds() == 0.0
