"""The validation loop of docs/false-positives.md runs as written (the terminal labeller answers from
a script), and the page names every refusal the CLI makes."""

from __future__ import annotations

import glob
import io
import json
import shlex

from arena.cli import main
from tests.test_docs import bash_commands, checkout  # noqa: F401  # the fixture

PAGE = "false-positives.md"


def test_the_validation_loop_runs_as_written(checkout, monkeypatch, capsys):  # noqa: F811
    commands = bash_commands(PAGE)
    assert len(commands) == 4 and all(c.startswith("arena ") for c in commands)
    for command in commands:
        argv = [match for word in shlex.split(command)[1:] for match in (sorted(glob.glob(word)) or [word])]
        if "--name" in argv:
            monkeypatch.setattr("sys.stdin", io.StringIO("n\n" * 20))
        assert main(["-q", *argv]) == 0, command
    (run_dir,) = (checkout / "runs" / "validate").glob("quickstart-*")
    labels = (run_dir / "validation" / "labels.jsonl").read_text(encoding="utf-8").splitlines()
    assert labels and all(json.loads(line)["labeller"] == "ann" for line in labels)
    report = json.loads((run_dir / "report" / "false_positives.json").read_text(encoding="utf-8"))
    (row,) = report["rows"]
    assert row["generative_corrected"]["method"] == "validation sample (double sampling)"
    assert row["generative_corrected"]["labelled"]["unflagged"] == 5
    assert "labels.jsonl" in capsys.readouterr().out
