"""Integrity of a run directory: one writer at a time, resume checked against the plan,
run names that cannot leave --out (a failed run leaving nothing: tests/arena/engine/test_match.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.cli import main
from arena.record import transcripts
from arena.record.store import LOCK, RunBusy, RunStore
from arena.specs.config import load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import HERE, run

REPO = Path(__file__).resolve().parents[3]
FILES = (transcripts.ROUNDS, transcripts.JUDGEMENTS)


def write_config(tmp_path: Path, distil_dir: Path, delay: float = 0.0, limit: int = 10) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(
        f"""name: locked
john: {{name: distil-lingeval, alias: ding, params: {{dir: {distil_dir / 'placeholder_ding.human'}, limit: {limit}}}}}
zelligs: [replay]
claudes: [oracle, {{name: '{HERE}:SlowClaude', alias: slow, params: {{delay: {delay}}}}}]
seeds: [1, 2, 3]
bootstrap_samples: 20
""",
        encoding="utf-8",
    )
    return path


def arena(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO), "ARENA_PROGRESS": "0", "RAY_AUTH_MODE": "disabled"}
    command = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())", *args]
    return subprocess.Popen(command, cwd=REPO, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for_holder(out: Path, process: subprocess.Popen, seconds: float = 120) -> Path:
    """The run directory once ``process`` holds its lock (its pid is in the lock file)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for lock in out.glob(f"*/{LOCK}"):
            text = lock.read_text(encoding="utf-8")
            if text and json.loads(text)["pid"] == process.pid:
                return lock.parent
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError("the first run never took the lock")


def contents(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in FILES}


def test_a_second_writer_is_refused_and_the_first_run_is_undisturbed(tmp_path, distil_dir):
    slow = write_config(tmp_path, distil_dir, delay=1.5)
    reference = run(load_experiment(slow, ["claudes.1.params.delay=0"]), CATALOG, tmp_path / "ref", progress=False)
    out = tmp_path / "out"
    first = arena("run", str(slow), "--out", str(out), "--no-progress")
    run_dir = wait_for_holder(out, first)
    second = arena("run", str(slow), "--out", str(out), "--no-progress")
    _, error = second.communicate(timeout=120)
    assert second.returncode == 2, error
    assert "another arena process is writing this run" in error and f"pid {first.pid} on " in error, error
    assert "Traceback" not in error
    output, error = first.communicate(timeout=300)
    assert first.returncode == 0, error
    assert contents(run_dir) == contents(reference.run_dir)
    lines = (run_dir / transcripts.JUDGEMENTS).read_text(encoding="utf-8").splitlines()
    keys = [(json.loads(x)["round"], json.loads(x)["claude"]) for x in lines]
    assert len(keys) == len(set(keys))  # one judgement per (round, Claude)
    assert (run_dir / LOCK).read_text(encoding="utf-8") == ""  # released


def test_a_killed_writer_leaves_no_stale_lock(tmp_path, distil_dir):
    slow = write_config(tmp_path, distil_dir, delay=1.5)
    out = tmp_path / "out"
    first = arena("run", str(slow), "--out", str(out), "--no-progress")
    run_dir = wait_for_holder(out, first)
    deadline = time.monotonic() + 120
    while not list(run_dir.glob("cells/s*-c0.jsonl")) and time.monotonic() < deadline:
        time.sleep(0.05)  # until it has played a cell
    os.kill(first.pid, signal.SIGKILL)
    first.communicate(timeout=60)
    reference = run(load_experiment(slow, ["claudes.1.params.delay=0"]), CATALOG, tmp_path / "ref", progress=False)
    resumed = run(load_experiment(slow), CATALOG, out, progress=False)
    assert resumed.resumed and resumed.cells_before >= 1
    assert contents(resumed.run_dir) == contents(reference.run_dir)


def test_the_lock_names_its_holder(tmp_path):
    store = RunStore(tmp_path / "run")
    with store.locked():
        with pytest.raises(RunBusy, match=rf"pid {os.getpid()} on .*, started 20"):
            with RunStore(tmp_path / "run").locked():
                pass


@pytest.fixture
def finished(tmp_path, distil_dir):
    experiment = load_experiment(write_config(tmp_path, distil_dir))
    result = run(experiment, CATALOG, tmp_path / "out", progress=False)
    return experiment, result.run_dir, contents(result.run_dir)


def cut(path: Path, keep: float = 0.5) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[: int(len(lines) * keep)]), encoding="utf-8")


@pytest.mark.parametrize("unfinished", [False, True])
def test_a_truncated_rounds_file_is_refused_on_resume(finished, tmp_path, unfinished):
    experiment, run_dir, _ = finished
    if unfinished:
        (run_dir / transcripts.SCORES).unlink()
    cut(run_dir / transcripts.ROUNDS)  # a seed missing
    with pytest.raises(ValueError, match=r"rounds.jsonl: does not match the plan .* delete .* to start the run over"):
        run(experiment, CATALOG, tmp_path / "out", progress=False)
    assert not (run_dir / transcripts.SCORES).exists() or not unfinished


def test_a_truncated_judgements_file_is_refused_by_readers_and_repaired_by_run(finished, tmp_path, capsys):
    experiment, run_dir, before = finished
    scores = (run_dir / transcripts.SCORES).read_bytes()
    cut(run_dir / transcripts.JUDGEMENTS)
    assert main(["score", str(run_dir)]) == 2  # readers refuse it, naming file and line
    err = capsys.readouterr().err
    assert f"{run_dir / transcripts.JUDGEMENTS}:" in err and "re-run 'arena run'" in err, err
    assert (run_dir / transcripts.SCORES).read_bytes() == scores  # untouched
    again = run(experiment, CATALOG, tmp_path / "out", progress=False)  # repairs it
    assert again.resumed and again.cells_before == again.cells  # rebuilt from cells/, nothing replayed
    assert contents(run_dir) == before


def test_an_unfinished_run_with_a_partial_judgements_file_is_reassembled(finished, tmp_path):
    experiment, run_dir, before = finished
    (run_dir / transcripts.SCORES).unlink()
    cut(run_dir / transcripts.JUDGEMENTS)
    assert contents(run(experiment, CATALOG, tmp_path / "out", progress=False).run_dir) == before


@pytest.mark.parametrize(
    "name, refused",
    [
        ("../../x", True),
        ("a/b", True),
        ("..", True),
        (".hidden", True),
        ("-x", True),
        ("a\\\\b", True),
        ("my-run_1.2+k", False),  # must not fire
    ],
)
def test_run_names_cannot_leave_out(tmp_path, distil_dir, capsys, name, refused):
    path = write_config(tmp_path, distil_dir, limit=3)
    out = tmp_path / "deep" / "out"
    code = main(["run", str(path), "--out", str(out), "--set", f"name={name}", "--no-progress"])
    error = capsys.readouterr().err
    if refused:
        assert code == 2 and "must be a plain name" in error and "Traceback" not in error
        assert not (tmp_path / "deep").exists() and not (tmp_path / "x").exists()
        assert main(["validate", str(path), "--set", f"name={name}"]) == 2
    else:
        assert code == 0, error
        assert [p.parent for p in out.glob("*/scores.json")] == [next(out.iterdir())]
