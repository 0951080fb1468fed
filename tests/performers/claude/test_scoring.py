"""The scoring Claude base: decisions, deduplication, the cache, resuming after a kill."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.record.scoring_rule import judgement_from_scores
from arena.records import Judgement, Pair, SequenceScore
from performers.claude.score_cache import ScoreCache
from tests.performers.built import built
from tests.performers.claude.fake_scorer import FakeScoringClaude, fake_score

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    "scores, expected",
    [
        ((-1.0, -2.0), 1),
        ((-2.0, -1.0), 0),
        ((-1.0, -1.0), None),  # exact tie: abstain
        ((-3.0, -1.0, -2.0), 0),
        ((-1.0, -3.0, -3.0), None),  # the lowest is shared
        ((-3.0, -1.0, -1.0), 0),  # a tie above the lowest does not matter
        ((math.nan, -1.0), None),
        ((-math.inf, -1.0), 0),
        ((-3.0, -1.0, -3.0 + 1e-12), 0),  # close is not a tie
    ],
)
def test_judgement_from_scores(scores, expected):
    judgement = judgement_from_scores(scores)
    assert judgement.corrupted == expected and len(judgement.scores) == len(scores)


@pytest.mark.parametrize(
    "convention, candidates, expected",
    [
        ("mean", ("long good", "short bad"), Judgement(1, (-1.0, -1.5))),
        ("sum", ("long good", "short bad"), Judgement(0, (-6.0, -3.0))),  # sum prefers the short one
        ("mean", ("short bad", "long good"), Judgement(0, (-1.5, -1.0))),
        ("mean", ("tie a", "tie b"), Judgement(None, (-1.0, -1.0))),
        ("sum", ("tie a", "tie b"), Judgement(1, (-2.0, -4.0))),
        ("mean", ("best", "long good", "short bad"), Judgement(2, (-0.5, -1.0, -1.5))),
    ],
)
def test_judge(convention, candidates, expected):
    claude = FakeScoringClaude(convention=convention)
    assert claude.judge([Pair("p", "source", candidates)]) == [expected]


def test_judge_nan_abstains():
    judgement = FakeScoringClaude().judge([Pair("p", "s", ("nan", "best"))])[0]
    assert judgement.corrupted is None and math.isnan(judgement.scores[0])


def test_judge_batches_and_edge_cases():
    claude = FakeScoringClaude()
    assert claude.judge([]) == []
    assert claude.score([], []) == []
    assert claude.translate([]) == []
    pairs = [Pair(f"p{i}", "same source", ("long good", "short bad")) for i in range(5)]
    assert [j.corrupted for j in claude.judge(pairs)] == [1] * 5
    assert claude.scored == [("same source", "long good"), ("same source", "short bad")]  # deduplicated
    with pytest.raises(ValueError, match="at least two candidates"):
        claude.judge([Pair("p", "s", ("only",))])


@pytest.mark.parametrize(
    "sources, targets, error",
    [
        (["a"], ["x", "y"], ValueError),
        (["a", None], ["x", "y"], TypeError),
        (["a"], [3], TypeError),
    ],
)
def test_score_checks_input(sources, targets, error):
    with pytest.raises(error):
        FakeScoringClaude().score(sources, targets)


def test_bad_params():
    with pytest.raises(ValueError, match="parameter 'convention' must be one of mean, sum, not 'max'"):
        built(FakeScoringClaude, convention="max")
    with pytest.raises(ValueError, match="beam"):
        FakeScoringClaude().translate(["a"], beam=0)


def test_scores_in_request_order_with_duplicates():
    claude = FakeScoringClaude(batch=2)
    sources = ["s1", "s2", "s1", "s3", "s1"]
    targets = ["a b", "xyz", "a b", "q", "c"]
    scores = claude.score(sources, targets)
    assert scores == [SequenceScore(*fake_score(s, t)) for s, t in zip(sources, targets)]
    assert len(claude.scored) == 4


def test_cache_serves_a_second_run(tmp_path):
    cache = str(tmp_path / "scores.sqlite")
    sources, targets = ["s"] * 6, [f"t {i}" for i in range(6)]
    first = FakeScoringClaude(cache=cache)
    expected = first.score(sources, targets)
    second = FakeScoringClaude(cache=cache)
    assert second.score(sources, targets) == expected
    assert second.scored == []
    other_model = FakeScoringClaude(cache=cache, name="other")  # another identity: no reuse
    other_model.score(sources, targets)
    assert len(other_model.scored) == 6
    assert second.translate(["a", "b", "a"], beam=3) == ["a @ beam 3", "b @ beam 3", "a @ beam 3"]
    third = FakeScoringClaude(cache=cache)
    assert third.translate(["b", "a"], beam=3) == ["b @ beam 3", "a @ beam 3"]
    assert third.translated == []
    third.translate(["a"], beam=4)  # another beam is another request
    assert third.translated == ["a"]


def test_interrupted_run_keeps_finished_batches(tmp_path):
    """An exception (e.g. Ctrl-C) in the middle still commits what was scored."""
    cache = str(tmp_path / "scores.sqlite")

    with pytest.raises(KeyboardInterrupt):
        FakeScoringClaude(cache=cache, batch=3, interrupt_after=1).score(["s"] * 9, [f"t{i}" for i in range(9)])
    resumed = FakeScoringClaude(cache=cache, batch=3)
    resumed.score(["s"] * 9, [f"t{i}" for i in range(9)])
    assert len(resumed.scored) == 6


def test_killed_run_resumes_without_rescoring(tmp_path):
    """SIGKILL half-way; the re-run scores only what was not committed."""
    cache = tmp_path / "scores.sqlite"
    count = 200
    env = dict(os.environ, PYTHONPATH=str(REPO))
    process = subprocess.Popen(
        [sys.executable, "-c", f"from tests.performers.claude.fake_scorer import main; main({str(cache)!r}, {count})"],
        cwd=REPO, env=env,
    )
    try:
        deadline = time.monotonic() + 60
        done = 0
        while time.monotonic() < deadline and process.poll() is None:
            if cache.exists():
                done = ScoreCache(cache).count_scores()
                if done >= 10:
                    break
            time.sleep(0.05)
        assert process.poll() is None, "the scoring process ended before it could be killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    committed = ScoreCache(cache).count_scores()
    assert 10 <= committed < count
    resumed = FakeScoringClaude(cache=str(cache), batch=1)
    scores = resumed.score([f"s{i}" for i in range(count)], [f"t{i}" for i in range(count)])
    assert len(resumed.scored) == count - committed
    assert scores == [SequenceScore(*fake_score(f"s{i}", f"t{i}")) for i in range(count)]


@pytest.mark.parametrize(
    "source_tokens, limit, max_length, expected",
    [(10, 254, None, 32), (11, 254, None, 32), (12, 254, None, 40), (200, 254, None, 254), (10, 254, 7, 7), (0, 254, None, 16)],
)
def test_length_cap_is_relative_to_the_source(source_tokens, limit, max_length, expected):
    from performers.claude.scoring import length_cap

    assert length_cap(source_tokens, limit, max_length) == expected


def test_translation_order_splits_off_sources_too_long_for_the_model(caplog):
    from performers.claude.scoring import translation_order

    with caplog.at_level("WARNING"):
        assert translation_order([5, 300, 2], 256, "m") == ([2, 0], [1])
    assert "1 of 3 sources exceed the model's 256 positions" in caplog.text
    assert translation_order([5, 300], None, "m") == ([0, 1], [])


@pytest.mark.parametrize("chunk", [1, 3, 7, 1000])
def test_backends_get_bounded_chunks_with_each_source_in_one(monkeypatch, chunk):
    """Requests reach the backend ``CHUNK_REQUESTS`` at a time (memory stays bounded
    however many pairs are scored); a source's pairs are neighbours, results are the same."""
    import performers.claude.scoring as scoring

    sources = [f"s{i % 5}" for i in range(23)]
    targets = [f"t{i}" for i in range(23)]
    expected = FakeScoringClaude().score(sources, targets)
    monkeypatch.setattr(scoring, "CHUNK_REQUESTS", chunk)
    calls = []
    claude = FakeScoringClaude()
    original = claude._score_uncached
    monkeypatch.setattr(claude, "_score_uncached", lambda pairs: calls.append(list(pairs)) or original(pairs))
    assert claude.score(sources, targets) == expected
    assert all(len(call) <= chunk for call in calls) and sum(map(len, calls)) == 23
    order = [source for call in calls for source, _ in call]
    assert order == sorted(order)  # grouped by source
    assert claude.translate(sources, beam=2) == [f"{s} @ beam 2" for s in sources]


def test_progress_units_name_what_is_counted(monkeypatch):
    """The score bar counts candidate sentences (two per minimal pair), the translate bar
    sources: neither says "pair"."""
    import contextlib

    import arena.engine.progress as progress

    bars = []

    @contextlib.contextmanager
    def recording(total, desc, enabled=True, unit="it"):
        bars.append((desc, unit, total))
        yield progress._Silent()

    monkeypatch.setattr(progress, "progress_bar", recording)
    claude = FakeScoringClaude()
    claude.progress, claude.progress_threshold = True, 0
    claude.score(["s", "s"], ["a b", "a c"])  # one minimal pair: two sentences
    claude.translate(["s", "t"], beam=2)
    assert bars == [("score", "sentence", 2), ("translate (beam 2)", "sentence", 2)]
