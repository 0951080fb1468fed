"""``arena template``: all, sampled, counted, JSON and pair output; usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = str(REPO / "experiments" / "m2c" / "en_de.yaml")


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_all_items_of_one_fixture_template(capsys, data_dir):
    status, lines, _ = run(capsys, "template", "--spec", str(data_dir / "m2c" / "m2c_de.json"),
                           "--template", "comparative1", "--all")
    assert status == 0 and len(lines) == len(set(lines)) == 315
    assert "C: Günter ist glücklicher als Heike. Q: Wer ist trauriger? A: Heike." in lines


def test_sampled_items_are_seeded(capsys, data_dir):
    spec = str(data_dir / "m2c" / "m2c_en.json")
    _, first, _ = run(capsys, "template", "--spec", spec, "-n", "3", "--seed", "4")
    _, again, _ = run(capsys, "template", "--spec", spec, "-n", "3", "--seed", "4")
    assert first == again and len(first) == 3 * 9  # every template of the file


def test_count_and_json_and_pairs(capsys):
    status, lines, _ = run(capsys, "template", "--spec", EXAMPLE, "--count")
    assert status == 0 and lines == ["subject_verb\t98", "preposition_case\t1344", "adjective\t1372"]
    _, lines, _ = run(capsys, "template", "--spec", EXAMPLE, "--template", "subject_verb", "-n", "2", "--seed", "1",
                      "--json")
    records = [json.loads(line) for line in lines]
    assert len(records) == 2 and {"source", "reference", "draw", "features", "template"} <= set(records[0])
    _, lines, _ = run(capsys, "template", "--spec", EXAMPLE, "--template", "subject_verb", "--all")
    assert len(lines) == 98 and all(line.count("\t") == 1 for line in lines)


@pytest.mark.parametrize(
    "argv,message",
    [
        (["-n", "3"], "needs --seed"),
        (["--all", "--seed", "2"], "--seed only goes with -n"),
        (["-n", "0", "--seed", "1"], "-n must be at least 1"),
        (["--all", "--template", "nope"], "no template 'nope'"),
    ],
)
def test_usage_errors_exit_2(capsys, argv, message):
    status, _, err = run(capsys, "template", "--spec", EXAMPLE, *argv)
    assert status == 2 and message in err
