"""Item 3: transcripts are verified, not trusted.  Every verb that reads a run refuses a
damaged one with exit 2 naming file and line and leaves ``scores.json`` as it was;
``arena run`` on the same directory repairs what can be replayed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.robustness.helpers import invoke, refused, write_experiment, write_testset

JUDGEMENTS = "judgements.jsonl"


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> tuple[Path, Path]:
    """(experiment, finished run directory) of a fault-free run, played once."""
    from arena.cli import main

    root = tmp_path_factory.mktemp("clean")
    experiment = write_experiment(root / "exp.yaml", write_testset(root / "placeholder_ding.human"))
    assert main(["run", str(experiment), "--out", str(root / "runs"), "--no-progress", "--no-report"]) == 0
    (run_dir,) = (root / "runs").iterdir()
    return experiment, run_dir


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _rewrite(name: str, change: Callable[[list[str]], list[str]]) -> Callable[[Path], None]:
    def damage(run_dir: Path) -> None:
        path = run_dir / name
        path.write_text("".join(change(_lines(path))), encoding="utf-8")

    return damage


def _edit_judgement(line: int, **fields) -> Callable[[list[str]], list[str]]:
    def change(lines: list[str]) -> list[str]:
        record = json.loads(lines[line - 1])
        record.update(fields)
        lines[line - 1] = json.dumps(record, ensure_ascii=False) + "\n"
        return lines

    return change


# damage -> (file, line) the message must name; the clean run has 16 judgements:
# 4 rounds x 2 seeds x 2 Claudes
DAMAGES = {
    "duplicated-line": (_rewrite(JUDGEMENTS, lambda lines: lines + [lines[1]]), f"{JUDGEMENTS}:17"),
    "emptied": (_rewrite(JUDGEMENTS, lambda lines: []), f"{JUDGEMENTS}:1"),
    "gap": (_rewrite(JUDGEMENTS, lambda lines: lines[:5] + lines[6:]), f"{JUDGEMENTS}:6"),
    "cut-line": (_rewrite(JUDGEMENTS, lambda lines: lines[:-1] + [lines[-1][:30]]), f"{JUDGEMENTS}:16"),
    "unknown-round": (_rewrite(JUDGEMENTS, _edit_judgement(3, round="1|x|y|z|0")), f"{JUDGEMENTS}:3"),
    "foreign-claude": (_rewrite(JUDGEMENTS, _edit_judgement(4, claude="intruder")), f"{JUDGEMENTS}:4"),
    "edited-choice": (_rewrite(JUDGEMENTS, _edit_judgement(2, correct=False, choice=0)), JUDGEMENTS),
    "rounds-edited": (_rewrite("rounds.jsonl", lambda lines: lines[:-1]), "rounds.jsonl:8"),
    "foreign-seed": (
        _rewrite(JUDGEMENTS, lambda lines: lines),  # placeholder replaced below: a round of seed 3
        "rounds.jsonl",
    ),
    "manifest-garbage": (lambda run_dir: (run_dir / "manifest.json").write_text("{\"experiment\": ", encoding="utf-8"),
                         "manifest.json:1"),
}


def _foreign_seed(run_dir: Path) -> None:
    """A round of seed 3 (the run plays 1 and 2), with the plan's digest updated to match,
    so only the seed check can find it."""
    import hashlib

    path = run_dir / "rounds.jsonl"
    lines = _lines(path)
    record = json.loads(lines[0])
    record["seed"] = 3
    lines[0] = json.dumps(record, ensure_ascii=False) + "\n"
    text = "".join(lines)
    path.write_text(text, encoding="utf-8")
    manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    manifest["plan"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    (run_dir / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


DAMAGES["foreign-seed"] = (_foreign_seed, "rounds.jsonl:1")

READERS = {
    "score": lambda run, tmp: ["score", run],
    "leaderboard": lambda run, tmp: ["leaderboard", run],
    "report": lambda run, tmp: ["report", run],
    "export-csv": lambda run, tmp: ["export", run, "--format", "csv", "--out", tmp / "export"],
    "export-distil": lambda run, tmp: ["export", run, "--format", "distil-lingeval", "--out", tmp / "distil"],
    "show": lambda run, tmp: ["show", run],
    "false-positives": lambda run, tmp: ["false-positives", run],
}


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_run_is_refused_by_every_reader_and_scores_stay(damage, reader, clean, tmp_path, capsys):
    _, source = clean
    run_dir = tmp_path / source.name
    shutil.copytree(source, run_dir)
    spoil, where = DAMAGES[damage]
    spoil(run_dir)
    scores = (run_dir / "scores.json").read_bytes()
    refused(READERS[reader](run_dir, tmp_path), capsys, f"{run_dir}/{where}")
    assert (run_dir / "scores.json").read_bytes() == scores
    assert not (tmp_path / "export").exists() and not (tmp_path / "distil").exists()


@pytest.mark.parametrize("reader", list(READERS))
def test_an_intact_run_is_read(reader, clean, tmp_path, capsys):
    """Must not fire: the verification passes a run as it was written."""
    _, source = clean
    run_dir = tmp_path / source.name
    shutil.copytree(source, run_dir)
    status, stdout, stderr = invoke(READERS[reader](run_dir, tmp_path), capsys)
    assert status == 0 and "Traceback" not in stderr, stderr


@pytest.mark.parametrize("damage", ["duplicated-line", "emptied", "gap", "cut-line", "foreign-claude", "edited-choice"])
def test_arena_run_repairs_damaged_judgements(damage, clean, tmp_path, capsys):
    experiment, source = clean
    out = tmp_path / "runs"
    run_dir = out / source.name
    shutil.copytree(source, run_dir)
    DAMAGES[damage][0](run_dir)
    status, stdout, stderr = invoke(["run", experiment, "--out", out, "--no-progress", "--no-report"], capsys)
    assert status == 0 and "Traceback" not in stderr, stderr
    for name in ("rounds.jsonl", JUDGEMENTS, "scores.json"):
        assert (run_dir / name).read_bytes() == (source / name).read_bytes(), name
    assert invoke(["score", run_dir], capsys)[0] == 0


def test_arena_run_refuses_a_plan_it_cannot_replay(clean, tmp_path, capsys):
    experiment, source = clean
    out = tmp_path / "runs"
    run_dir = out / source.name
    shutil.copytree(source, run_dir)
    DAMAGES["rounds-edited"][0](run_dir)
    scores = (run_dir / "scores.json").read_bytes()
    refused(["run", experiment, "--out", out, "--no-progress"], capsys, f"{run_dir}/rounds.jsonl", "delete")
    assert (run_dir / "scores.json").read_bytes() == scores


def test_the_manifest_records_what_the_run_wrote(clean):
    import hashlib

    _, run_dir = clean
    written = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))["written"]
    data = (run_dir / JUDGEMENTS).read_bytes()
    assert written[JUDGEMENTS] == {"lines": 16, "sha256": hashlib.sha256(data).hexdigest()}
