"""Tournaments on a local Ray (one Ray start for the module, a small object store):
byte-identical to in process, `executor: ray` by name, errors, and the kill test."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from arena.record.store import CELLS
from arena.specs.config import RayOptions, load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import HERE, run
from tests.arena.engine.test_engine import contents, write_config

pytest.importorskip("ray")

OPTIONS = RayOptions(num_cpus=2, object_store_memory=80 * 2**20, max_restarts=3, max_task_retries=3, chunk_size=16)


@pytest.fixture(scope="module")
def ray_executor():
    from arena.engine.ray_backend import RayBackend

    executor = RayBackend(CATALOG, OPTIONS)
    yield executor
    executor.close()


CLAUDES = f"[oracle, random, {{name: '{HERE}:HashScorer', alias: hash}}]"


def test_ray_tournament_is_byte_identical_to_in_process(tmp_path, distil_dir, ray_executor):
    # 2 Johns × 3 Zelligs × 3 Claudes × 3 seeds
    experiment = load_experiment(write_config(tmp_path, distil_dir, CLAUDES))
    local = run(experiment, CATALOG, tmp_path / "local", "in-process", progress=False)
    on_ray = run(experiment, CATALOG, tmp_path / "ray", ray_executor, progress=False)
    assert on_ray.backend == "ray" and on_ray.cells == 54
    assert contents(on_ray.run_dir) == contents(local.run_dir)
    assert on_ray.work == local.work  # the same deduplicated requests
    assert (on_ray.run_dir / "scores.json").read_bytes() == (local.run_dir / "scores.json").read_bytes()


def test_arena_run_with_executor_ray_joins_the_running_ray(tmp_path, distil_dir, ray_executor):
    experiment = load_experiment(write_config(tmp_path, distil_dir, CLAUDES, limit=10), ["executor=ray"])
    local = run(experiment, CATALOG, tmp_path / "local", "in-process", progress=False)
    on_ray = run(experiment, CATALOG, tmp_path / "ray", experiment.executor, progress=False)
    assert on_ray.backend == "ray"
    assert contents(on_ray.run_dir) == contents(local.run_dir)


def test_errors_in_tasks_reach_the_driver(tmp_path, distil_dir, ray_executor):
    experiment = load_experiment(write_config(tmp_path, distil_dir, "[random]", limit=5), [f"zelligs.1={HERE}:BrokenZellig"])
    with pytest.raises(ValueError, match="do not reproduce its text"):
        run(experiment, CATALOG, tmp_path / "out", ray_executor, progress=False)


@pytest.mark.parametrize("claude", ["SlowClaude", "SlowScorer"])  # judged cell by cell / scored in chunks
def test_killing_a_claude_actor_mid_tournament_changes_nothing(tmp_path, distil_dir, ray_executor, claude):
    pid_file = tmp_path / "pids.txt"
    slow = f"[{{name: '{HERE}:{claude}', alias: slow, params: {{delay: 0.25, pid_file: '{pid_file}'}}}}, oracle]"
    path = write_config(tmp_path, distil_dir, slow, "discrepancy: false\n", limit=10)
    overrides = ["ray.chunk_size=4"]
    reference = run(
        load_experiment(path, [*overrides, "claudes.0.params.delay=0", "claudes.0.params.pid_file=''"]), CATALOG,
        tmp_path / "reference", "in-process", progress=False,
    )
    outcome: dict = {}

    def play() -> None:
        try:
            outcome["result"] = run(load_experiment(path, overrides), CATALOG, tmp_path / "ray",
                                               ray_executor, progress=False)
        except BaseException as error:  # noqa: BLE001 - reported below
            outcome["error"] = error

    thread = threading.Thread(target=play)
    thread.start()
    deadline = time.monotonic() + 120
    cells: list[Path] = []
    while time.monotonic() < deadline and len(cells) < 3:
        time.sleep(0.05)
        cells = list(tmp_path.glob(f"ray/*/{CELLS}/s*-c0.jsonl"))
    assert len(cells) >= 3, "the slow Claude finished no cells"
    victim = int(pid_file.read_text().split()[0])
    os.kill(victim, signal.SIGKILL)
    done_at_kill = len(list(tmp_path.glob(f"ray/*/{CELLS}/s*-c0.jsonl")))
    thread.join(timeout=180)
    assert not thread.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert done_at_kill < 18  # the kill came in the middle of the slow Claude's work
    pids = [int(p) for p in pid_file.read_text().split()]
    assert len(pids) == 2 and pids[1] != victim  # Ray restarted the actor in a new process
    assert contents(outcome["result"].run_dir) == contents(reference.run_dir)
