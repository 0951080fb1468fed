"""``arena cues`` on every input it reads (a DistilLingEval set and a directory of sets, LingEval97
JSON, a run and a tournament directory), its ``--json``, and bad input (exit 2 naming what)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from tests.conftest import DATA, require_shared


def write_set(directory: Path, rows: list[tuple[str, str, str]]) -> Path:
    directory.mkdir(parents=True)
    for index, name in enumerate(("src.en", "tgt.correct.de", "tgt.incorrect.de")):
        (directory / name).write_text("".join(row[index] + "\n" for row in rows), encoding="utf-8")
    return directory


CLAUSES = [(f"He came {i} because it rained.", f"Er kam {i}, weil es regnete.", f"Er kam {i}.") for i in range(30)]
FAST = ["--cue", "length", "--cue", "edit-words"]


def test_one_set_writes_one_object(tmp_path, capsys):
    directory = write_set(tmp_path / "clause_omission.human", CLAUSES)
    out = tmp_path / "cues.json"
    assert main(["cues", "--format", "distil-lingeval", "--testset", str(directory), "--json", str(out), *FAST]) == 0
    printed = capsys.readouterr().out
    assert "clause_omission.human" in printed and "confounded" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["n"] == 30 and data["strongest"] in data["cues"] and data["confounded"] is True
    assert set(data["cues"]) == {"length", "edit-words"}
    assert data["cues"]["length"]["accuracy"] == 1.0 and len(data["cues"]["length"]["ci"]) == 2


def test_a_directory_of_sets_writes_a_list_and_unfittable_says_so(tmp_path, capsys):
    write_set(tmp_path / "sets" / "clause_omission.human", CLAUSES)
    write_set(tmp_path / "sets" / "tiny.mt", CLAUSES[:5])
    out = tmp_path / "cues.json"
    assert main(["cues", "--testset", str(tmp_path / "sets"), "--json", str(out), *FAST]) == 0
    assert "unfittable: n < 10" in capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [d["set"] for d in data] == ["clause_omission.human", "tiny.mt"]
    assert data[1]["cues"]["length"]["accuracy"] is None and data[1]["confounded"] is False


def test_lingeval97_json(tmp_path, capsys):
    sentences = [{"source": s, "reference": c, "errors": [{"type": "clause_omission", "contrastive": x}]}
                 for s, c, x in CLAUSES]
    path = tmp_path / "le97.json"
    path.write_text(json.dumps(sentences), encoding="utf-8")
    out = tmp_path / "cues.json"
    assert main(["cues", "--format", "lingeval97", "--testset", str(path), "--json", str(out), *FAST]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["phenomenon"] == "clause_omission" and data["confounded"] is True


CONFIG = """name: cues
johns:
  - {{name: distil-lingeval, alias: affix, params: {{dir: {distil}/polarity_affix_del.mt, limit: 40}}}}
zelligs: [{{name: replay}}]
claudes: [{{name: 'tests.arena.engine.helpers:HashScorer', alias: nmt}}, {{name: random}}]
seeds: [1]
bootstrap_samples: 20
"""


@pytest.mark.parametrize("verb", ["run", "tournament"])
def test_run_and_tournament_directories(tmp_path, capsys, verb):
    distil = require_shared(DATA / "distil-lingeval")
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG.format(distil=distil), encoding="utf-8")
    options = ["--executor", "in-process"] if verb == "tournament" else []
    assert main([verb, str(config), "--out", str(tmp_path / "runs"), "--no-progress", *options]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "### Surface cues" in report and "(confounded by length)" in report
    capsys.readouterr()
    out = tmp_path / "cues.json"
    assert main(["cues", str(run_dir), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "nmt S" in printed and "random S" not in printed  # compared with the model, not with chance
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["n"] == 40 and data["confounded"] and {"length", "edit-words", "target-lm"} == set(data["cues"])


@pytest.mark.parametrize("argv, message", [
    (["cues"], "give a RUN directory or --testset"),
    (["cues", "--testset", "/nonexistent/set"], "/nonexistent/set: no such file or directory"),
    (["cues", "--testset", "{tmp}", "--folds", "1"], "--folds must be at least 2"),
    (["cues", "--testset", "{tmp}", "--cue", "toy-en-de"], "not a surface Claude"),
    (["cues", "--testset", "{tmp}", "--cue", "lenght"], "lenght"),
    (["cues", "--format", "lingeval97", "--testset", "{tmp}/src.en"], "src.en"),
    (["cues", "--testset", "{tmp}", "--threshold", "2"], "--threshold"),
])
def test_bad_input_exits_2(tmp_path, capsys, argv, message):
    directory = write_set(tmp_path / "set", CLAUSES)
    argv = [a.replace("{tmp}", str(directory)) for a in argv]
    assert main(argv) == 2
    assert message in capsys.readouterr().err
