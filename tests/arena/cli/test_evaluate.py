"""``arena evaluate``: the reference tools' reports from score files, and its errors."""

from __future__ import annotations

import io
import json
import sys

import pytest

from arena.cli import main
from arena.codec import dump
from tests.arena.evaluate.test_lingeval97 import FD, LATEX, REPORT, SCORES, SENTENCES, VERBOSE


@pytest.fixture
def lingeval(tmp_path):
    test = tmp_path / "test.json"
    test.write_text(json.dumps([dump(s) for s in SENTENCES], ensure_ascii=False), encoding="utf-8")
    scores = tmp_path / "scores"
    scores.write_text("".join(f"{score}\n" for score in SCORES), encoding="utf-8")
    return test, scores


def test_lingeval97_report(lingeval, capsys):
    test, scores = lingeval
    assert main(["evaluate", "--format", "lingeval97", "-r", str(test), "--scores", str(scores)]) == 0
    captured = capsys.readouterr()
    assert captured.out == REPORT
    assert "1 contrastive translations of unselected types were not counted: placeholder_ding (1)" in captured.err


def test_lingeval97_options(lingeval, capsys):
    test, scores = lingeval
    argv = ["evaluate", "--format", "lingeval97", "-r", str(test), "-s", str(scores), "-v", "--fd", "--latex"]
    assert main(argv) == 0
    assert capsys.readouterr().out == VERBOSE + REPORT + FD + LATEX


def test_lingeval97_scores_from_stdin(lingeval, capsys, monkeypatch):
    test, scores = lingeval
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(scores.read_bytes())))
    assert main(["evaluate", "--format", "lingeval97", "-r", str(test)]) == 0
    assert capsys.readouterr().out == REPORT


def test_lingeval97_categories_and_outputs(lingeval, tmp_path, capsys):
    test, scores = lingeval
    outputs = tmp_path / "system.t"  # origins are t.1 .. t.4: looked up by origin
    outputs.write_text("o1\no2\no3\no4\n", encoding="utf-8")
    argv = ["evaluate", "--format", "lingeval97", "-r", str(test), "-s", str(scores), "--maximize",
            "--categories", "np_agreement", "-v", "--outputs", str(outputs)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"error: np_agreement\nsource: s0\ncorrect (score 1.0): r0\nerror (score 2.0): c0.0\n"
                          f"output ({outputs}): o1\n\n")
    assert "\ntotal : 1 3 0.333333333333\n" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1\n" * 11, "too few scores: 11 lines, expected 12"),
        ("1\n" * 13, "too many scores: 13 lines, expected 12"),
        ("1\n" * 5 + "eins\n" + "1\n" * 6, "scores:6: not a number: 'eins'"),
    ],
)
def test_lingeval97_bad_scores_exit_2(lingeval, capsys, content, message):
    test, scores = lingeval
    scores.write_text(content, encoding="utf-8")
    assert main(["evaluate", "--format", "lingeval97", "-r", str(test), "-s", str(scores)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err


def test_lingeval97_malformed_json_exit_2(tmp_path, capsys):
    test = tmp_path / "test.json"
    test.write_text('[{"source": "s", "reference": "r", "errors": [{"type": "compound"}]}]', encoding="utf-8")
    assert main(["evaluate", "--format", "lingeval97", "-r", str(test), "-s", str(test)]) == 2
    assert "test.json: item 0, errors[0]: missing key 'contrastive'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--format", "lingeval97"], "needs -r/--reference"),
        (["--format", "lingeval97", "-r", "x.json", "--testset", "d"], "--testset is for --format distil-lingeval"),
        (["--format", "lingeval97", "-r", "x.json", "--outputs", "o"], "add -v"),
        (["--format", "distil-lingeval"], "needs --testset DIR"),
        (["--format", "distil-lingeval", "--testset", "d", "--maximize"], "--maximize is a LingEval97 option"),
        (["--format", "distil-lingeval", "--testset", "d", "-v"], "-v is a LingEval97 option"),
    ],
)
def test_usage_errors_exit_2(capsys, argv, message):
    assert main(["evaluate", *argv]) == 2
    assert message in capsys.readouterr().err


def test_distil_lingeval_small_set(tmp_path, capsys):
    directory = tmp_path / "polarity.human"
    directory.mkdir()
    (directory / "src.en").write_text("a\nb\nc\n", encoding="utf-8")
    (directory / "tgt.correct.de").write_text("A\nB\nC\n", encoding="utf-8")
    (directory / "tgt.incorrect.de").write_text("X\nY\nZ\n", encoding="utf-8")
    scores = tmp_path / "scores"
    scores.write_text("-1\n-2\n-3\n-2\n-2\n-1\n", encoding="utf-8")  # correct, tie (correct), wrong
    assert main(["evaluate", "--format", "distil-lingeval", "--testset", str(directory), "--scores", str(scores),
                 "--plain"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Accuracy: 66.7\n"
    assert "1 of 3 pairs have equal scores; counted as correct" in captured.err
    scores.write_text("-1\n-2\n-3\n-2\n-2\n", encoding="utf-8")
    assert main(["evaluate", "--format", "distil-lingeval", "--testset", str(directory), "--scores", str(scores)]) == 2
    assert "too few scores: 5 lines, expected 6 (2N lines" in capsys.readouterr().err


def test_distil_lingeval_real_set_with_an_empty_line(distil_dir, tmp_path, capsys):
    directory = distil_dir / "hypercorrect_genitive.human"
    with open(directory / "src.en", encoding="utf-8") as file:
        size = len(file.read().splitlines())
    scores = tmp_path / "scores"
    # correct scores -1 everywhere; incorrect -2 on every 4th line, else -0.5: a quarter correct
    incorrect = [-2.0 if i % 4 == 0 else -0.5 for i in range(size)]
    scores.write_text("".join(f"{s}\n" for s in [-1.0] * size + incorrect), encoding="utf-8")
    assert main(["evaluate", "--format", "distil-lingeval", "--testset", str(directory), "-s", str(scores)]) == 0
    captured = capsys.readouterr()
    expected = sum(1 for s in incorrect if -1.0 >= s) / size
    assert captured.out.endswith(f"\nAccuracy: {100 * expected:.1f}\n")  # the table, then the tool's line
    assert captured.out.startswith("category") and f"hypercorrect_genitive.human  {size:>6}" in captured.out
    assert "1 empty line(s) kept as items, as DistilLingEval does: src.en:1361" in captured.err


def test_distil_lingeval_table_and_json(tmp_path, capsys):
    import json

    directory = tmp_path / "polarity.human"
    directory.mkdir()
    for name, text in (("src.en", "a\nb\nc\n"), ("tgt.correct.de", "A\nB\nC\n"), ("tgt.incorrect.de", "X\nY\nZ\n")):
        (directory / name).write_text(text, encoding="utf-8")
    scores = tmp_path / "scores"
    scores.write_text("-1\n-2\n-3\n-2\n-2\n-1\n", encoding="utf-8")
    base = ["evaluate", "--format", "distil-lingeval", "--testset", str(directory), "--scores", str(scores)]
    assert main(base) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["category", "n", "correct", "accuracy", "95%", "CI", "ties"]
    assert table[1].split()[:4] == ["polarity.human", "3", "2", "66.7"] and "(n < 30)" in table[1]
    assert table[-1] == "Accuracy: 66.7"
    assert main([*base, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (row,) = data["categories"]
    assert (row["n"], row["correct"], row["ties"], data["ties"]) == (3, 2, 1, "correct")
    assert row["ci95"][0] < 2 / 3 < row["ci95"][1]
    with pytest.raises(SystemExit) as caught:  # one output form at a time (argparse refuses both)
        main([*base, "--json", "--plain"])
    assert caught.value.code == 2


def test_lingeval97_json_per_category(tmp_path, capsys):
    import json

    reference = tmp_path / "test.json"
    reference.write_text(json.dumps([
        {"source": "s", "reference": "r", "origin": "x.1",
         "errors": [{"type": "np_agreement", "contrastive": "c1"}, {"type": "polarity", "contrastive": "c2"}]},
    ]), encoding="utf-8")
    scores = tmp_path / "scores"
    scores.write_text("1\n2\n0.5\n", encoding="utf-8")  # lower is better: np right, polarity wrong
    assert main(["evaluate", "--format", "lingeval97", "-r", str(reference), "-s", str(scores), "--json",
                 "--categories", "np_agreement", "polarity"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_name = {row["category"]: row for row in data["categories"]}
    assert by_name["np_agreement"]["correct"] == 1 and by_name["polarity"]["correct"] == 0
    assert by_name["total"]["n"] == 2 and data["ties"] == "wrong"
