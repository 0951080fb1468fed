"""``arena corrupt`` on awkward input: line ends, byte order marks and bytes that are not
UTF-8, from stdin and from files (exit 2 naming the input and the line, no traceback,
never raw bytes passed through), and the bounded caches that keep its memory flat."""

from __future__ import annotations

import json

import pytest

from performers.german.memo import WORD_CACHE_SIZE
from tests.robustness.processes import arena

ZELLIG = ["corrupt", "--zellig", "placeholder-ding", "--no-progress"]


def _lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_stdin_line_ends_and_bom_in_one_process():
    data = (b"\xef\xbb\xbfDer Hund bellt.\r\n"     # BOM, CRLF
            b"Die Katze schl\xc3\xa4ft.\n"
            b"Das Haus ist alt.")                    # no final newline
    done = arena(ZELLIG, stdin=data)
    assert done.status == 0, done.err
    records = _lines(done.out)
    assert [r["line"] for r in records] == [1, 2, 3]
    assert [r["input"] for r in records] == ["Der Hund bellt.", "Die Katze schläft.", "Das Haus ist alt."]
    done = arena(ZELLIG, stdin=b"Der Hund bellt.\nDie Katze\rschl\xc3\xa4ft.\n")  # a lone CR: the text policy
    assert done.status == 2 and "<stdin>:2: the line holds a line break" in done.err, done.err


@pytest.mark.parametrize("data, line", [
    (b"Die Stra\xdfe ist lang.\n", 1),                       # latin-1 on stdin
    (b"Der Hund bellt.\nDer M\xfcller backt.\n", 2),
])
def test_stdin_that_is_not_utf8_exits_2_naming_the_line(data, line):
    done = arena(ZELLIG, stdin=data)
    assert done.status == 2 and "Traceback" not in done.err
    assert f"<stdin>:{line}: not valid UTF-8" in done.err and "iconv" in done.err
    assert "\ufffd" not in done.out and "\\udc" not in done.out  # nothing undecodable passed through


def test_a_source_file_that_is_not_utf8_is_named(tmp_path):
    german, english = tmp_path / "in.de", tmp_path / "src.en"
    german.write_text("Der Hund bellt.\nDie Katze schläft.\n", encoding="utf-8")
    english.write_bytes(b"The dog barks.\nThe caf\xe9 sleeps.\n")
    done = arena([*ZELLIG, "--input", str(german), "--source", str(english)])
    assert done.status == 2 and "Traceback" not in done.err and f"{english}:2: not valid UTF-8" in done.err


@pytest.mark.parametrize("flag, value", [("--batch", "0"), ("--workers", "-1"), ("--workers", "x")])
def test_block_and_worker_counts_have_ranges(capsys, flag, value):
    from arena.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main([*ZELLIG, flag, value])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and f"argument {flag}" in err and "Traceback" not in err


def test_corrupt_bounds_the_analysis_caches(tmp_path, monkeypatch):
    """Many distinct lines leave at most a few blocks' analyses and a bounded number of
    words cached (the memory benchmark: experiments/bench/corrupt_memory.py)."""
    from arena.cli import main
    from performers.german import analysis

    monkeypatch.setattr(analysis, "CACHE_SIZE", analysis.CACHE_SIZE)
    monkeypatch.setattr(analysis, "_LIMITS", None)
    path = tmp_path / "in.de"
    path.write_text("".join(f"Der Hund Nummer {n} bellt.\n" for n in range(40)), encoding="utf-8")
    try:
        assert main([*ZELLIG, "--input", str(path), "--batch", "4"]) == 0
        assert analysis.CACHE_SIZE == 1024 and analysis._LIMITS == (1024, 20_000)
        assert len(analysis.get_backend()._tagger._tag_word.memo) <= 20_000
    finally:
        analysis.get_backend().limit(200_000, WORD_CACHE_SIZE)
