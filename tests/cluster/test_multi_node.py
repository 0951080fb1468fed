"""A local Ray cluster of three nodes on one machine (``ray.cluster_utils.Cluster``), under the
``cluster`` marker (``python -m pytest -m cluster``; ``.ci/run`` runs it).

Custom resources stand in for GPUs: node *a* offers ``alpha`` and ``accel``, node *b* offers
``beta`` and ``accel``, the head neither.  The tests show that Claude actors land on the nodes their
``resources`` name, that Zellig tasks spread over the nodes, that a driver killed mid-tournament
resumes against the running cluster, and that a worker node removed mid-tournament (its processes
killed) loses nothing and duplicates nothing: every run ends byte-identical to the same config played
in one process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from arena.record import transcripts as tr
from arena.record.store import CELLS
from arena.specs.config import RayOptions, load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import run
from tests.cluster.helpers import HERE

pytestmark = pytest.mark.cluster
pytest.importorskip("ray")

REPO = Path(__file__).resolve().parents[2]
STORE = 80 * 2**20
ZELLIGS = "[replay, {name: replay, alias: again}]"  # 2 seeds x 2 Johns x 2 Zelligs: 8 cells per Claude
OPTIONS = RayOptions(object_store_memory=STORE, max_restarts=3, max_task_retries=3, chunk_size=4)
# a node whose raylet is killed is declared dead after ~1.5 s instead of ~30 s
SYSTEM = {
    "health_check_initial_delay_ms": 0,
    "health_check_period_ms": 500,
    "health_check_failure_threshold": 3,
    "kill_idle_workers_interval_ms": 0,
}


@pytest.fixture(scope="module")
def cluster():
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    local = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "object_store_memory": STORE, "include_dashboard": False,
                        "_system_config": SYSTEM},
    )
    nodes = {
        "a": local.add_node(num_cpus=1, object_store_memory=STORE, resources={"alpha": 1, "accel": 1}),
        "b": local.add_node(num_cpus=1, object_store_memory=STORE, resources={"beta": 1, "accel": 1}),
    }
    local.wait_for_nodes()
    ray.init(address=local.address, logging_level="WARNING")
    yield local, {name: node.node_id for name, node in nodes.items()}, nodes
    ray.shutdown()
    local.shutdown()


def write_config(tmp_path: Path, distil_dir: Path, claudes: str, zelligs: str = ZELLIGS, limit: int = 12) -> Path:
    path = tmp_path / "cluster.yaml"
    path.write_text(
        f"""name: cluster
johns:
  - {{name: distil-lingeval, alias: ding-human, params: {{dir: {distil_dir / 'placeholder_ding.human'}, limit: {limit}}}}}
  - {{name: distil-lingeval, alias: clause-mt, params: {{dir: {distil_dir / 'clause_omission.mt'}, limit: {limit}}}}}
zelligs: {zelligs}
claudes: {claudes}
seeds: [1, 2]
bootstrap_samples: 20
discrepancy: false
ray: {{chunk_size: 4, object_store_memory: {STORE}}}
""",
        encoding="utf-8",
    )
    return path


def transcripts_of(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in (tr.ROUNDS, tr.JUDGEMENTS)}


def assert_once(run_dir: Path, claudes: int) -> None:
    """Every judged round has exactly one judgement per Claude."""
    judged = sum(1 for line in tr.read_jsonl(run_dir / tr.ROUNDS) if line["status"] != "not_applicable")
    keys = Counter((j["round"], j["claude"]) for j in tr.read_jsonl(run_dir / tr.JUDGEMENTS))
    assert set(keys.values()) == {1} and len(keys) == judged * claudes


def nodes_in(log: Path) -> list[str]:
    return [line.split()[0] for line in log.read_text(encoding="utf-8").split("\n") if line]


def in_process(path: Path, out: Path, overrides: list[str]) -> Path:
    return run(load_experiment(path, overrides), CATALOG, out, "in-process", progress=False).run_dir


def test_actors_land_where_their_resources_are_and_zellig_tasks_spread(tmp_path, distil_dir, cluster):
    from arena.engine.ray_backend import RayBackend

    local, node_ids, _ = cluster
    logs = {name: tmp_path / f"{name}.log" for name in ("alpha", "beta", "zellig")}
    claudes = (
        f"[{{name: '{HERE}:PlacedClaude', alias: on-alpha, params: {{log: '{logs['alpha']}'}}, "
        f"resources: {{num_cpus: 0, resources: {{alpha: 1}}}}}}, "
        f"{{name: '{HERE}:PlacedClaude', alias: on-beta, params: {{seed: 1, log: '{logs['beta']}'}}, "
        f"resources: {{num_cpus: 0, resources: {{beta: 1}}}}}}]"
    )
    zelligs = f"[{{name: '{HERE}:PlacedReplay', params: {{delay: 0.05, log: '{logs['zellig']}'}}}}]"
    path = write_config(tmp_path, distil_dir, claudes, zelligs)
    backend = RayBackend(CATALOG, OPTIONS, address=local.address)
    try:
        result = run(load_experiment(path), CATALOG, tmp_path / "cluster", backend, progress=False)
    finally:
        backend.close()
    assert set(nodes_in(logs["alpha"])) == {node_ids["a"]}
    assert set(nodes_in(logs["beta"])) == {node_ids["b"]}
    assert len(set(nodes_in(logs["zellig"]))) >= 2, "the Zellig's tasks all ran on one node"
    for log in logs.values():
        log.unlink()
    reference = in_process(path, tmp_path / "one", [])
    assert transcripts_of(result.run_dir) == transcripts_of(reference)
    assert_once(result.run_dir, 2)


def _driver(path: Path, out: Path, address: str) -> subprocess.Popen:
    command = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())",
               "tournament", str(path), "--address", address, "--out", str(out), "--no-plots", "--no-progress"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _wait_for_cells(pattern: str, root: Path, count: int, timeout: float = 90) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = len(list(root.glob(pattern)))
        if found >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} cells ({pattern}) in {timeout} s")


def test_a_killed_driver_resumes_against_the_running_cluster(tmp_path, distil_dir, cluster):
    local, _, _ = cluster
    claudes = (f"[{{name: '{HERE}:PlacedClaude', alias: slow, params: {{delay: 0.3}}, "
               "resources: {num_cpus: 0, resources: {accel: 1}}}, random]")
    path = write_config(tmp_path, distil_dir, claudes)
    out = tmp_path / "cluster"
    first = _driver(path, out, local.address)
    try:
        _wait_for_cells(f"*/{CELLS}/s*-c0.jsonl", out, 2)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    before = len(list(out.glob(f"*/{CELLS}/s*-c0.jsonl")))
    assert before < 8 and not list(out.glob(f"*/{tr.SCORES}")), "the driver was killed after the tournament"
    second = _driver(path, out, local.address)
    output, _ = second.communicate(timeout=150)
    assert second.returncode == 0, output
    assert "resumed:" in output and "finished before" in output
    run_dir = next(out.iterdir())
    reference = in_process(path, tmp_path / "one", ["claudes.0.params.delay=0"])
    assert transcripts_of(run_dir) == transcripts_of(reference)
    assert_once(run_dir, 2)


def test_a_worker_node_removed_mid_tournament_loses_and_duplicates_nothing(tmp_path, distil_dir, cluster):
    """Last in this module: the cluster has one worker node fewer afterwards."""
    from arena.engine.ray_backend import RayBackend

    local, node_ids, nodes = cluster
    log = tmp_path / "slow.log"
    claudes = (f"[{{name: '{HERE}:PlacedClaude', alias: slow, params: {{delay: 0.3, log: '{log}'}}, "
               "resources: {num_cpus: 0, resources: {accel: 1}}}, random]")
    path = write_config(tmp_path, distil_dir, claudes)
    reference = in_process(path, tmp_path / "one", ["claudes.0.params.delay=0", "claudes.0.params.log=''"])
    backend = RayBackend(CATALOG, OPTIONS, address=local.address)
    outcome: dict = {}

    def play() -> None:
        try:
            outcome["result"] = run(load_experiment(path), CATALOG, tmp_path / "cluster", backend, progress=False)
        except BaseException as error:  # noqa: BLE001 - reported below
            outcome["error"] = error

    thread = threading.Thread(target=play)
    thread.start()
    try:
        _wait_for_cells(f"*/{CELLS}/s*-c0.jsonl", tmp_path / "cluster", 2)
        first_node = nodes_in(log)[0]
        victim = next(name for name, node_id in node_ids.items() if node_id == first_node)
        local.remove_node(nodes[victim], allow_graceful=False)  # its raylet and workers are killed
        done_at_removal = len(list(tmp_path.glob(f"cluster/*/{CELLS}/s*-c0.jsonl")))
        thread.join(timeout=150)
    finally:
        backend.close()
    assert not thread.is_alive() and "error" not in outcome, outcome.get("error")
    assert done_at_removal < 8, "the node was removed after the slow Claude's work"
    placed = nodes_in(log)
    assert len(placed) == 2 and placed[1] != first_node  # the actor was rebuilt on the other node
    run_dir = outcome["result"].run_dir
    assert transcripts_of(run_dir) == transcripts_of(reference)
    assert_once(run_dir, 2)
