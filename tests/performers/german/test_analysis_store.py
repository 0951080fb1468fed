"""The German analysis on disk: what comes back equals what was computed, another process (or a
cleared one) reads instead of analysing, a new backend version or ``ARENA_ANALYSIS_CACHE=off`` never
reads old rows, and an unusable file only switches the store off."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from performers.german import analysis, analysis_store
from performers.german.analysis_store import AnalysisStore, decode, encode

REPO = Path(__file__).resolve().parents[3]
TEXTS = [
    "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
    "Er sagte: „Das ist unklar.“ Dann ging er.",  # two sentences, German quotes
    "",  # nothing to analyse
    "   ",
    "Straße, Öl und Maß – 3,5 % mehr (bis 2016)!",
    "Siehe https://example.org/x?y=1 und z.B. S. 12.",
]


@pytest.fixture
def store_at(tmp_path, monkeypatch):
    """A fresh store under tmp_path; memory caches emptied before and after."""
    path = tmp_path / "analysis.sqlite"
    monkeypatch.setenv("ARENA_ANALYSIS_CACHE", str(path))
    analysis_store.close_all()
    analysis.clear_cache()
    yield path
    analysis_store.close_all()
    analysis.clear_cache()


@pytest.mark.parametrize("text", TEXTS)
def test_rows_decode_to_the_computed_analysis(text):
    computed = analysis.get_backend().analyze(text)
    assert decode(text, encode(computed), computed.backend) == computed


def _backend_must_not_run(monkeypatch):
    def refuse(text):
        raise AssertionError(f"analysed {text!r} again")

    monkeypatch.setattr(analysis.get_backend(), "analyze", refuse)


def test_a_cleared_process_reads_analyses_and_morphemes_from_disk(store_at, monkeypatch):
    computed = [analysis.analyze(text) for text in TEXTS]
    morphs = analysis.morphemes("unerwartet")
    analysis_store.close_all()  # flushed to disk
    analysis.clear_cache(backends=True)
    _backend_must_not_run(monkeypatch)
    monkeypatch.setattr(analysis.get_backend(), "morphemes", lambda word: pytest.fail("morphemes recomputed"))
    assert [analysis.analyze(text) for text in TEXTS] == computed
    assert analysis.analyze_many(TEXTS[:3]) == computed[:3]
    assert analysis.morphemes("unerwartet") == morphs and morphs


def test_another_process_reads_what_this_one_wrote(store_at):
    analysis.analyze_many(TEXTS)
    analysis_store.close_all()
    child = """
import sys
from performers.german import analysis, analysis_store
analysis.get_backend().analyze = lambda text: sys.exit(f"analysed {text!r}")
analysis.analyze_many(sys.argv[1:])
store = analysis_store.store_for("somajo-hanta", analysis.get_backend())
print(store.hits, store.misses)
"""
    done = subprocess.run([sys.executable, "-c", child, *TEXTS], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(set(TEXTS))), "0"]


@pytest.mark.parametrize(
    ("identity", "reads"),
    [("somajo-hanta|v1|1", True), ("somajo-hanta|v2|1", False), ("other|v1|1", False), ("somajo-hanta|v1|2", False)],
)
def test_rows_are_read_back_only_under_the_same_identity(tmp_path, identity, reads):
    text = TEXTS[0]
    writer = AnalysisStore(tmp_path / "a.sqlite", "somajo-hanta|v1|1", "somajo-hanta")
    writer.put(text, analysis.get_backend().analyze(text))
    writer.close()
    reader = AnalysisStore(tmp_path / "a.sqlite", identity, "somajo-hanta")
    assert (reader.get(text) is not None) is reads
    reader.close()


@pytest.mark.parametrize("setting", ["off", "0", "false"])
def test_switched_off_no_file_is_made(tmp_path, monkeypatch, setting):
    monkeypatch.setenv("ARENA_ANALYSIS_CACHE", setting)
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path))
    analysis_store.close_all()
    analysis.clear_cache()
    assert analysis.analyze("Der Hund bellt.").tokens[1].text == "Hund"
    analysis_store.close_all()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("setting", "expected"),
    [("", "cache/german-analysis.sqlite"), ("{tmp}/x.sqlite", "x.sqlite"), ("{tmp}/dir", "dir/german-analysis.sqlite")],
)
def test_where_the_store_lives(tmp_path, monkeypatch, setting, expected):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ARENA_ANALYSIS_CACHE", setting.format(tmp=tmp_path))
    assert analysis_store.store_path() == tmp_path / expected


def test_an_unusable_file_switches_the_store_off_with_one_warning(store_at, caplog):
    store_at.write_bytes(b"this is not an SQLite database" * 100)
    with caplog.at_level(logging.WARNING, logger="performers.german.analysis_store"):
        first = analysis.analyze("Der Hund bellt.")
        second = analysis.analyze("Die Katze schläft.")
    assert first.tokens[1].lemma == "Hund" and second.tokens[1].text == "Katze"
    warnings = [r for r in caplog.records if "switched off" in r.getMessage()]
    assert len(warnings) == 1 and str(store_at) in warnings[0].getMessage()
