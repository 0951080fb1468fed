"""DistilLingEval directories and their 2N-line score files."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.formats.distil_lingeval import (
    ContrastivePair,
    read_distil_lingeval,
    read_scores,
    write_distil_lingeval,
)
from tests.conftest import DATA, require_shared, shared_params

SHARED = DATA / "distil-lingeval"


def make_set(directory: Path, src: str, correct: str, incorrect: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "src.en").write_text(src, encoding="utf-8")
    (directory / "tgt.correct.de").write_text(correct, encoding="utf-8")
    (directory / "tgt.incorrect.de").write_text(incorrect, encoding="utf-8")
    return directory


def test_read_small_set(tmp_path):
    directory = make_set(
        tmp_path / "placeholder_ding.human",
        "The house.\nThe tree.\n",
        "Das Haus.\nDer Baum.\n",
        "Das Ding.\nDas Ding.\n",
    )
    testset = read_distil_lingeval(directory)
    assert testset.name == "placeholder_ding.human"
    assert len(testset) == 2
    assert testset.pairs[1] == ContrastivePair("The tree.", "Der Baum.", "Das Ding.")
    assert testset.empty_lines == ()


def test_crlf_and_missing_final_newline(tmp_path):
    directory = make_set(tmp_path / "s", "A.\r\nB.", "A.\r\nB.\n", "X.\nY.\n")
    assert [pair.source for pair in read_distil_lingeval(directory).pairs] == ["A.", "B."]


def test_mismatched_line_counts(tmp_path):
    directory = make_set(tmp_path / "s", "a\nb\nc\n", "a\nb\n", "a\nb\nc\n")
    with pytest.raises(ValueError, match=r"tgt.correct.de: ends after line 2, but src.en has line 3 \(line counts: "
                       r"src.en 3, tgt.correct.de 2, tgt.incorrect.de 3\)"):
        read_distil_lingeval(directory)


def test_empty_line_is_an_error_naming_file_and_line(tmp_path):
    directory = make_set(tmp_path / "s", "a\nb\nc\n", "a\nb\nc\n", "a\n \nc\n")
    with pytest.raises(ValueError, match=r"s/tgt.incorrect.de:2: empty line"):
        read_distil_lingeval(directory)
    testset = read_distil_lingeval(directory, allow_empty=True)
    assert len(testset) == 3
    assert testset.empty_lines == ("tgt.incorrect.de:2",)


def test_wrong_encoding_names_file_and_line(tmp_path):
    directory = make_set(tmp_path / "s", "a\nb\n", "a\nb\n", "a\nb\n")
    (directory / "tgt.correct.de").write_bytes("Haus\nBäume\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"s/tgt.correct.de:2: not valid UTF-8 \(byte 0xe4"):
        read_distil_lingeval(directory)


def test_missing_file_and_directory(tmp_path):
    directory = make_set(tmp_path / "s", "a\n", "a\n", "a\n")
    (directory / "tgt.incorrect.de").unlink()
    with pytest.raises(ValueError, match=r"s/tgt.incorrect.de: file not found"):
        read_distil_lingeval(directory)
    with pytest.raises(ValueError, match="not a directory"):
        read_distil_lingeval(tmp_path / "nowhere")


def test_write_round_trip(tmp_path):
    pairs = [ContrastivePair("The house.", "Das Haus.", "Das Ding."), ContrastivePair("Süß.", "Süß.", "Sauer.")]
    write_distil_lingeval(tmp_path / "out", pairs)
    assert (tmp_path / "out" / "tgt.correct.de").read_text(encoding="utf-8") == "Das Haus.\nSüß.\n"
    assert list(read_distil_lingeval(tmp_path / "out").pairs) == pairs


@pytest.mark.parametrize("bad", ["", "zwei\nZeilen", "form\x0cfeed"])
def test_write_refuses_unwritable_texts(tmp_path, bad):
    pairs = [ContrastivePair("ok", "ok", "ok"), ContrastivePair("ok", "ok", bad)]
    with pytest.raises(ValueError, match="pair 1: incorrect"):
        write_distil_lingeval(tmp_path / "out", pairs)
    assert not (tmp_path / "out" / "src.en").exists()


def test_scores_split_correct_first(tmp_path):
    path = tmp_path / "scores"
    path.write_text("-1\n-2\n-3\n-0.5\n-2\n-9\n", encoding="utf-8")
    assert read_scores(path, 3) == ([-1.0, -2.0, -3.0], [-0.5, -2.0, -9.0])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1\n2\n3\n", r"too few scores: 3 lines, expected 4 \(2N lines: the N scores of tgt.correct.de first"),
        ("1\n2\n3\n4\n5\n", r"too many scores: 5 lines, expected 4"),
        ("1\n\n3\n4\n", r"scores:2: empty line"),
        ("1\n2\nx\n4\n", r"scores:3: not a number: 'x'"),
    ],
)
def test_bad_scores(tmp_path, content, message):
    path = tmp_path / "scores"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_scores(path, 2)


def shared_sets():
    names = sorted(path.name for path in SHARED.iterdir() if (path / "src.en").exists()) if SHARED.is_dir() else []
    return shared_params(names)


@pytest.mark.parametrize("name", shared_sets())
def test_real_sets_read_with_line_counts_of_the_files(name):
    require_shared(SHARED)
    directory = SHARED / name
    expected = sum(1 for _ in open(directory / "src.en", encoding="utf-8"))
    testset = read_distil_lingeval(directory, allow_empty=True)
    assert len(testset) == expected
    if name == "hypercorrect_genitive.human":  # the published sample has one empty source line
        assert testset.empty_lines == ("src.en:1361",)
    else:
        assert testset.empty_lines == ()


def test_find_sets_keeps_complete_sets_and_filters_by_name_or_type(tmp_path):
    from arena.formats.distil_lingeval import FILES, find_sets

    for name in ("placeholder_ding.human", "placeholder_ding.mt", "clause_omission.human", "incomplete.human"):
        (tmp_path / name).mkdir()
        for file in FILES if name != "incomplete.human" else FILES[:2]:
            (tmp_path / name / file).write_text("x\n", encoding="utf-8")
    names = [p.name for p in find_sets(tmp_path)]
    assert names == ["clause_omission.human", "placeholder_ding.human", "placeholder_ding.mt"]
    assert [p.name for p in find_sets(tmp_path, ["placeholder_ding"])] == ["placeholder_ding.human", "placeholder_ding.mt"]
    assert [p.name for p in find_sets(tmp_path, ["clause_omission.human"])] == ["clause_omission.human"]
