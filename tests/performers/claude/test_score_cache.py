"""The SQLite score cache: round trips, keys, locations, file digests, concurrent
writers, corrupt files."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from performers.claude.fingerprint import file_digest, source_identity
from performers.claude.score_cache import CacheError, ScoreCache, cache_path, default_cache_dir

REPO = Path(__file__).resolve().parents[3]


def test_scores_round_trip_per_model(tmp_path):
    cache = ScoreCache(tmp_path / "c.sqlite")
    first = cache.model_id({"model": "a", "dtype": "float32"})
    second = cache.model_id({"dtype": "float32", "model": "b"})
    assert first != second
    assert cache.model_id({"dtype": "float32", "model": "a"}) == first  # key order does not matter
    rows = [(("src", "tgt"), -3.25, 4), (("src", "tgt2"), -math.inf, 2), (("s", "t"), math.nan, 1)]
    cache.put_scores(first, rows)
    found = cache.get_scores(first, [("src", "tgt"), ("unknown", "pair"), ("src", "tgt2"), ("s", "t")])
    assert found[0] == (-3.25, 4)
    assert 1 not in found
    assert found[2] == (-math.inf, 2)
    assert math.isnan(found[3][0]) and found[3][1] == 1
    assert cache.get_scores(second, [("src", "tgt")]) == {}
    assert cache.count_scores(first) == 3


def test_pair_key_separates_source_and_target(tmp_path):
    cache = ScoreCache(tmp_path / "c.sqlite")
    model = cache.model_id({"m": 1})
    cache.put_scores(model, [(("ab", "c"), -1.0, 1)])
    assert cache.get_scores(model, [("a", "bc")]) == {}


def test_translations_keyed_by_settings(tmp_path):
    cache = ScoreCache(tmp_path / "c.sqlite")
    model = cache.model_id({"m": 1})
    cache.put_translations(model, {"beam": 5}, [("Hello.", "Hallo.")])
    assert cache.get_translations(model, {"beam": 5}, ["x", "Hello."]) == {1: "Hallo."}
    assert cache.get_translations(model, {"beam": 4}, ["Hello."]) == {}


def test_many_keys_are_looked_up_in_chunks(tmp_path):
    cache = ScoreCache(tmp_path / "c.sqlite")
    model = cache.model_id({"m": 1})
    pairs = [(f"s{i}", f"t{i}") for i in range(1234)]
    cache.put_scores(model, [(pair, -float(i), i + 1) for i, pair in enumerate(pairs)])
    found = cache.get_scores(model, pairs)
    assert len(found) == 1234 and found[1000] == (-1000.0, 1001)


@pytest.mark.parametrize(
    "setting, expected",
    [
        ("dir", "dir/scores.sqlite"),
        ("dir/my.sqlite", "dir/my.sqlite"),
        ("dir/x.db", "dir/x.db"),
    ],
)
def test_cache_path(setting, expected, tmp_path):
    assert cache_path(str(tmp_path / setting)) == tmp_path / expected


def test_default_location_follows_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "here"))
    assert default_cache_dir() == tmp_path / "here"
    assert cache_path(True) == tmp_path / "here" / "scores.sqlite"
    monkeypatch.delenv("ARENA_CACHE_DIR")
    assert default_cache_dir() == Path.home() / ".cache" / "arena"
    with pytest.raises(ValueError, match="cache must be"):
        cache_path(3)


def test_file_digest_is_memoised_and_follows_changes(tmp_path):
    cache = ScoreCache(tmp_path / "c.sqlite")
    weights = tmp_path / "model" / "model.safetensors"
    weights.parent.mkdir()
    weights.write_bytes(b"abc")
    digest = file_digest(weights, cache)
    assert digest == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # sha256("abc")
    stat = weights.stat()
    assert cache.get_digest(str(weights.resolve()), stat.st_size, stat.st_mtime_ns) == digest
    weights.write_bytes(b"abcd")
    assert file_digest(weights, cache) != digest
    identity = source_identity(str(weights.parent), None, ("*.safetensors",), cache)
    assert identity == {"files": {"model.safetensors": file_digest(weights)}}
    assert source_identity("org/model", None, ("*.safetensors",)) == {"name": "org/model", "revision": "main"}


_WRITER = """
import sys
from performers.claude.score_cache import ScoreCache

path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
cache = ScoreCache(path)
model = cache.model_id({"model": "shared"})
for start in range(0, count, 10):  # many small transactions, interleaved with the other writer
    cache.put_scores(model, [((f"{name} {i}", "t"), -float(i), i + 1) for i in range(start, start + 10)])
print(cache.count_scores(model))
"""


def test_two_processes_write_one_cache_at_once(tmp_path):
    """WAL and the busy timeout let two writers share the file: nothing is lost, no
    'database is locked' error."""
    path = tmp_path / "scores.sqlite"
    ScoreCache(path).close()  # the schema exists before the race starts
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), name, "400"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for name in ("a", "b")
    ]
    results = [writer.communicate(timeout=300) for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0], results
    cache = ScoreCache(path)
    model = cache.model_id({"model": "shared"})
    assert cache.count_scores(model) == 800
    found = cache.get_scores(model, [("a 399", "t"), ("b 0", "t")])
    assert found == {0: (-399.0, 400), 1: (0.0, 1)}
    cache.close()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a database at all " * 100, "is corrupt"),
        (b"SQLite format 3\x00" + b"\xff" * 200, "is corrupt"),
    ],
    ids=["text", "bad-header"],
)
def test_corrupt_file_is_named_and_safe_to_delete(tmp_path, content, message):
    path = tmp_path / "scores.sqlite"
    path.write_bytes(content)
    with pytest.raises(CacheError, match=message) as error:
        ScoreCache(path)
    assert str(path) in str(error.value) and "safe to delete" in str(error.value)
    path.unlink()  # as the message says: deleting it is safe, and the cache works again
    ScoreCache(path).close()


def test_empty_file_is_a_fresh_cache(tmp_path):
    """Must not fire: an empty file (e.g. touched) is a valid, empty SQLite database."""
    path = tmp_path / "scores.sqlite"
    path.touch()
    cache = ScoreCache(path)
    assert cache.count_scores() == 0
    cache.close()
