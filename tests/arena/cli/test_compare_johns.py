"""``arena compare-johns``: S, accuracy and discrepancy per John, paired by source."""

from __future__ import annotations

import json

import pytest

from arena.cli import main

CLAUDE = "tests.performers.john.fakes:LengthClaude"


@pytest.fixture
def testsets(tmp_path):
    """Two DistilLingEval sets over the same sources: short corruptions (hard for the
    length Claude) and long ones (easy)."""
    sources = [f"Source sentence {n}." for n in range(30)]
    for name, incorrect in (("a.human", "{} x"), ("b.mt", "{}")):
        directory = tmp_path / name
        directory.mkdir()
        (directory / "src.en").write_text("\n".join(sources) + "\n", encoding="utf-8")
        correct = [f"Korrekter Satz {n} hier." for n in range(30)]
        (directory / "tgt.correct.de").write_text("\n".join(correct) + "\n", encoding="utf-8")
        wrong = [incorrect.format(c) if name == "a.human" else c[:-6] + "." for c in correct]
        (directory / "tgt.incorrect.de").write_text("\n".join(wrong) + "\n", encoding="utf-8")
    return tmp_path / "a.human", tmp_path / "b.mt"


def test_compare_two_test_sets(testsets, tmp_path, capsys):
    human, mt = testsets
    report_file = tmp_path / "report.json"
    code = main(["compare-johns", "--john", f"distil-lingeval:dir={human}", "--john", f"distil-lingeval:dir={mt}",
                 "--claude", CLAUDE, "--out", str(tmp_path / "runs"), "--no-progress", "--bootstrap-samples", "200",
                 "--json", str(report_file)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "paired bootstrap" in printed and "discr" in printed
    report = json.loads(report_file.read_text(encoding="utf-8"))
    first, second = report["johns"]
    # the length Claude judges the longer candidate corrupted: right on a.human, wrong on b.mt
    assert first["S"] == 1.0 and first["accuracy"] == 1.0
    assert second["S"] == 0.0 and second["accuracy"] == 0.0
    assert first["discrepancy"] > 0 and second["discrepancy"] > 0
    (pair,) = report["paired"]
    assert pair["shared_sources"] == 30 and pair["S"]["delta"] == 1.0 and pair["S"]["n"] == 30
    assert pair["discrepancy"]["delta"] > 0  # a.human's candidates are longer: further from the 1-best
    # a second call is served from the finished run
    assert main(["compare-johns", "--john", f"distil-lingeval:dir={human}", "--john", f"distil-lingeval:dir={mt}",
                 "--claude", CLAUDE, "--out", str(tmp_path / "runs"), "--no-progress",
                 "--bootstrap-samples", "200"]) == 0


def test_needs_two_johns(testsets, tmp_path, capsys):
    human, _ = testsets
    assert main(["compare-johns", "--john", f"distil-lingeval:dir={human}", "--claude", CLAUDE]) == 2
    assert "at least two --john" in capsys.readouterr().err
    assert main(["compare-johns", "--john", f"distil-lingeval:dir={human}", "--john", f"distil-lingeval:dir={human}",
                 "--claude", CLAUDE, "--out", str(tmp_path / "r")]) == 2
    assert "given twice" in capsys.readouterr().err
