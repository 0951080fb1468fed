"""No finished run without rounds: a run whose Johns give no instance, whose Zellig applies to
none, or whose John's ``balance:`` keeps no pair exits 2 naming the John, the Zellig or the
filter and how many were dropped, and writes no ``scores.json``; ``allow_empty: true`` records
it. What must not fire: a run with one judged round."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.codec import dump
from tests.robustness.helpers import invoke, refused

SOURCES = ["He came because it rained.", "She left because it snowed.", "We stayed because it was late."]
CORRECT = ["Er kam, weil es regnete.", "Sie ging, weil es schneite.", "Wir blieben, weil es spät war."]
INCORRECT = ["Er kam.", "Sie ging.", "Wir blieben."]


def write_set(tmp_path: Path, rows: int) -> Path:
    directory = tmp_path / "set.human"
    directory.mkdir(exist_ok=True)
    for name, lines in (("src.en", SOURCES), ("tgt.correct.de", CORRECT), ("tgt.incorrect.de", INCORRECT)):
        (directory / name).write_text("".join(f"{line}\n" for line in lines[:rows]), encoding="utf-8")
    return directory


def config(tmp_path: Path, rows: int, zellig: str, john_extra: str = "", extra: str = "") -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"name: empty\njohns:\n  - name: distil-lingeval\n    params: {{dir: {write_set(tmp_path, rows)}}}\n"
                    f"{john_extra}zelligs: [{zellig}]\nclaudes: [oracle]\nseeds: [1]\nbootstrap_samples: 10\n{extra}",
                    encoding="utf-8")
    return path


CASES = {
    "no-instance": (0, "replay", "", "John distil-lingeval:dir=", "gave no instance"),
    "zellig-applies-to-none": (3, "placeholder-ding", "", "Zellig placeholder-ding applied to none of John",
                               "3 instances (3 dropped)"),
    "balance-keeps-none": (3, "replay", "    balance: {cue: length}\n", "balance: length left out all 3 pairs",
                           "Zellig replay"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_run_without_judged_rounds_exits_2_and_is_not_finished(tmp_path, capsys, case):
    rows, zellig, john_extra, *fragments = CASES[case]
    path = config(tmp_path, rows, zellig, john_extra)
    snapshots = []
    for _ in range(2):  # and again: the refused run is not taken as finished, and its files stay as they were
        refused(["-q", "run", path, "--out", tmp_path / "runs"], capsys, str(path), "no round was judged",
                "allow_empty", *fragments)
        snapshots.append({p.relative_to(tmp_path): p.read_bytes() for p in (tmp_path / "runs").rglob("*")
                          if p.is_file() and p.name != ".lock"})
    assert not list((tmp_path / "runs").glob("*/scores.json"))
    assert snapshots[0] == snapshots[1] and snapshots[0]


@pytest.mark.parametrize("case", list(CASES))
def test_allow_empty_records_the_run(tmp_path, capsys, case):
    rows, zellig, john_extra, *_ = CASES[case]
    path = config(tmp_path, rows, zellig, john_extra, extra="allow_empty: true\n")
    status, _, stderr = invoke(["-q", "run", path, "--out", tmp_path / "runs", "--no-report"], capsys)
    assert status == 0, stderr
    assert len(list((tmp_path / "runs").glob("*/scores.json"))) == 1


def test_must_not_fire_with_judged_rounds(tmp_path, capsys):
    status, _, stderr = invoke(["-q", "run", config(tmp_path, 3, "replay"), "--out", tmp_path / "runs",
                                "--no-report"], capsys)
    assert status == 0, stderr


def test_allow_empty_false_keeps_the_config_hash(tmp_path):
    from arena.engine.manifest import config_hash
    from arena.specs.config import load_experiment

    plain = load_experiment(config(tmp_path, 3, "replay"))
    (tmp_path / "exp.yaml").write_text((tmp_path / "exp.yaml").read_text() + "allow_empty: false\n")
    assert config_hash(load_experiment(tmp_path / "exp.yaml")) == config_hash(plain)
    assert "allow_empty" not in dump(plain)


def test_an_empty_test_set_build_exits_2_unless_allowed(tmp_path, capsys):
    argv = ["build-testset", "--john", f"distil-lingeval:dir={write_set(tmp_path, 3)}", "--zellig",
            "placeholder-ding", "--no-progress"]
    refused([*argv, "--out", tmp_path / "a"], capsys, "nothing selected from 3 instances", "report.json",
            "--allow-empty")
    status, out, stderr = invoke([*argv, "--out", tmp_path / "b", "--allow-empty"], capsys)
    assert status == 0 and "nothing selected" in out, stderr
