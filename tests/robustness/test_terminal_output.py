"""Terminal-safe output: text from data never reaches stdout or stderr raw.

A sentence, label or path holding ESC (a title-setting OSC, a screen clear), BEL, a carriage
return, a backspace or a bidi override could retitle or clear a terminal, hide a line or
reorder what a reader sees.  Every verb that prints text from data renders it through
:func:`arena.text_policy.visible` (``␛``, ``␇``, ``␍``, ``␈``, ``<U+202E>``); JSON output keeps
its meaning (``\\u001b``); error messages keep their one line.  Each case runs a verb over
data holding every hostile character and asserts that none of them is printed.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from arena.present.tables import render
from arena.record import transcripts
from arena.text_policy import json_visible, visible, visible_lines
from tests.robustness.helpers import invoke, write_experiment, write_testset

HOSTILE = "\x1b]0;owned\x07\x1b[2J\r\x08\u202e"  # retitle + BEL, clear screen, CR, backspace, RTL override
RAW = ("\x1b", "\x07", "\r", "\x08", "\u202e", "\x9b")


def assert_terminal_safe(*texts: str) -> None:
    for text in texts:
        for character in RAW:
            assert character not in text, f"raw U+{ord(character):04X} printed: {text[:400]!r}"


def assert_no_hostile_sequence(text: str) -> None:
    """For a stream that also carries progress bars (their own CRs): no piece of the payload raw."""
    for piece in ("\x1b]0;owned", "owned\x07", "\x1b[2J", "\r\x08", "\x08", "\u202e"):
        assert piece not in text, f"raw {piece!r} printed: {text[:400]!r}"


@pytest.fixture
def hostile_run(tmp_path: Path, capsys) -> tuple[Path, Path]:
    """A finished run (config, run directory) whose transcripts were rewritten to hold
    the hostile characters in sources, references, candidates and phenomenon labels: a run
    someone else made, shown here."""
    config = write_experiment(tmp_path / "exp.yaml", write_testset(tmp_path / "placeholder_ding.human"))
    status, _, err = invoke(["run", config, "--out", tmp_path / "runs", "--no-progress"], capsys)
    assert status == 0, err
    (run_dir,) = (tmp_path / "runs").iterdir()
    escaped = json.dumps(HOSTILE)[1:-1]
    for name in ("rounds.jsonl", "judgements.jsonl"):
        path = run_dir / name
        text = path.read_text(encoding="utf-8")
        for word in ("Ding", "Zeit", "The thing"):  # words of sentences, never of ids
            text = text.replace(word, word + escaped)
        text = text.replace('"placeholder_ding"', f'"placeholder_ding{escaped}"')  # the phenomenon label
        path.write_text(text, encoding="utf-8")
    manifest_path = run_dir / "manifest.json"  # the digests follow, as if the run had been made so
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["plan"]["sha256"] = transcripts.file_sha256(run_dir / "rounds.jsonl")
    manifest["written"]["judgements.jsonl"]["sha256"] = transcripts.file_sha256(run_dir / "judgements.jsonl")
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    return config, run_dir


def test_show_prints_hostile_sentences_visibly(hostile_run, capsys):
    _, run_dir = hostile_run
    status, out, err = invoke(["show", run_dir, "--limit", "0", "--no-color"], capsys)
    assert status == 0, err
    assert visible(HOSTILE) in out and "Ding" in out
    assert_terminal_safe(out, err)
    status, out, err = invoke(["show", run_dir, "--phenomenon", "nope" + HOSTILE], capsys)  # an error quoting data
    assert status == 2 and "placeholder_ding" in err
    assert_terminal_safe(out, err)


def test_score_of_a_hostile_run_is_terminal_safe(hostile_run, capsys):
    _, run_dir = hostile_run
    status, out, err = invoke(["score", run_dir], capsys)
    assert status == 0 and "random" in out, err
    assert_terminal_safe(out, err)
    status, out, err = invoke(["score", run_dir, "--json"], capsys)
    assert status == 0, err
    assert_terminal_safe(out, err)
    assert json.loads(out)["cells"]  # still JSON


def test_play_shows_hostile_rounds_visibly(hostile_run, capsys, monkeypatch):
    config, run_dir = hostile_run
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\n1\n"))
    status, out, err = invoke(["play", config, "--as", "claude", "--name", "ann", "--out", run_dir.parent,
                               "--rounds", "4", "--no-progress"], capsys)
    assert status == 0, err
    assert "Ding" + visible(HOSTILE) in out
    assert_terminal_safe(out, err)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 8))
    status, out, err = invoke(["play", config, "--as", "zellig", "--name", "bob", "--out", run_dir.parent,
                               "--rounds", "2", "--no-progress"], capsys)
    assert status == 0, err
    assert "Ding" + visible(HOSTILE) in out
    assert_terminal_safe(out, err)


@pytest.mark.parametrize("text, ordinary", [
    (HOSTILE, False), ("x\x85y\x9b", False), ("\ud800", False), ("\x00\x7f", False),
    ("Die Börse „stürzt“.\tEr kam.", True), ("ü€😀", True),  # must not fire: left as they are
])
def test_json_visible_is_the_same_json_and_visible_lines_keeps_the_lines(text, ordinary):
    document = json.dumps({"line": 1, "input": text, "variants": [text]}, ensure_ascii=False) + "\n"
    safe = json_visible(document + document)
    assert_terminal_safe(safe)
    assert [json.loads(line) for line in safe.splitlines()] == [json.loads(document)] * 2
    lines = visible_lines(f"{text}\n{text}\n")
    assert_terminal_safe(lines)
    assert lines == f"{visible(text)}\n{visible(text)}\n"
    assert (safe == document + document and lines == f"{text}\n{text}\n") is ordinary


def test_console_tables_show_hostile_labels_visibly():
    table = render(["claude", "S"], [["toy" + HOSTILE, 0.5], ["random", None]])
    assert_terminal_safe(table)
    assert "toy" + visible(HOSTILE) in table and table.count("\n") == 3  # the rows stay rows


@pytest.mark.parametrize("line", [f"Die Börse{HOSTILE} stürzt.", "\x1b[2J", "Er\rkam.", "Er\x08kam.", "\u202eEr kam."])
def test_corrupt_refuses_hostile_stdin_naming_the_line(line, capsys, monkeypatch):
    stdin = f"Die Prager Börse stürzt.\n{line}\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    status, out, err = invoke(["corrupt", "--zellig", "placeholder-ding", "--no-progress"], capsys)
    assert status == 2 and "<stdin>:2:" in err and err.count("\n") == 1, err
    assert_terminal_safe(out, err)


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_corrupt_output_of_clean_lines_is_unchanged(fmt, capsys, monkeypatch):
    stdin = "Die Prager Börse stürzt.\n\nEr kam.\n"  # must not fire: ordinary German, a blank line
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    status, out, _ = invoke(["corrupt", "--zellig", "placeholder-ding", "--format", fmt, "--no-progress"], capsys)
    assert status == 0 and "Prager" in out and "\\u" not in out and "␊" not in out


def test_score_pairs_prints_hostile_pairs_visibly(tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    rows = [{"source": "The thing" + HOSTILE, "correct": "Das Ding" + HOSTILE, "incorrect": "Das Dings" + HOSTILE}]
    pairs.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    status, out, err = invoke(["score-pairs", "--pairs", pairs, "--claude", "toy-en-de", "--out", "-"], capsys)
    assert status in (0, 2) and "column" not in err, err  # printed visibly, or refused by the text policy on files
    assert status == 2 or "␛]0;owned␇" in out  # (the TSV writer turns the CR into a space)
    assert_terminal_safe(out)
    assert_no_hostile_sequence(err)  # loading the model may draw a progress bar there


def test_evaluate_prints_a_hostile_test_set_name_visibly(tmp_path, capsys):
    testset = write_testset(tmp_path / f"set{HOSTILE}")
    scores = tmp_path / "scores.txt"
    scores.write_text("".join(f"{-1.0 - i % 2}\n" for i in range(8)), encoding="utf-8")
    for extra in ([], ["--json"]):
        status, out, err = invoke(["evaluate", "--format", "distil-lingeval", "--testset", testset,
                                   "--scores", scores, *extra], capsys)
        assert status in (0, 2), err
        assert_terminal_safe(out, err)
        if extra and status == 0:
            assert json.loads(out)["testset"] == str(testset)  # the same JSON, escaped


@pytest.mark.parametrize("argv", [
    ["show", f"/nonexistent/run{HOSTILE}"],
    ["validate", f"/nonexistent/exp{HOSTILE}.yaml"],
    ["score-pairs", "--pairs", f"/nonexistent/p{HOSTILE}.tsv", "--claude", "random", "--out", "-"],
    ["corrupt", "--zellig", "placeholder-ding", "--input", f"/nonexistent/in{HOSTILE}"],
    ["corrupt", "--zellig", f"no-such-zellig{HOSTILE}"],
])
def test_error_messages_quote_paths_visibly_on_one_line(argv, capsys):
    status, out, err = invoke(argv, capsys)
    assert status == 2 and err.count("\n") == 1 and "error: " in err, err
    assert_terminal_safe(out, err)


def test_argparse_messages_quote_the_command_line_visibly(capsys):
    status, out, err = invoke(["show", "run", "--limit", HOSTILE], capsys)
    assert status == 2 and "--limit" in err and "usage:" in err  # argparse's own lines stay lines
    assert_terminal_safe(out, err)
