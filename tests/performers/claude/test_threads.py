"""Thread counts from the CPUs a process may use, and passive OpenMP waiting."""

from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from performers.claude import threads
from tests.conftest import REPO


@pytest.fixture
def no_omp_env(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr("joblib.cpu_count", lambda: 8)


@pytest.mark.parametrize(
    ("omp", "ray_cpus", "expected"),
    [
        (None, None, 8),  # affinity / cgroup quota only (joblib's cpu_count)
        ("2", None, 2),  # OMP_NUM_THREADS caps
        ("16", None, 8),  # ... but never above the CPUs the process may use
        ("", None, 8),  # empty or malformed: ignored
        ("two", None, 8),
        (None, 1, 1),  # Ray's assigned CPUs cap
        (None, 3, 3),
        ("2", 3, 2),
    ],
)
def test_default_threads_is_the_smallest_limit(no_omp_env, monkeypatch, omp, ray_cpus, expected):
    if omp is not None:
        monkeypatch.setenv("OMP_NUM_THREADS", omp)
    monkeypatch.setattr(threads, "ray_cpus", lambda: ray_cpus)
    assert threads.default_threads() == expected


def fake_ray(mode: str, cpus: float | None):
    context = SimpleNamespace(worker=SimpleNamespace(mode=mode),
                              get_assigned_resources=lambda: {} if cpus is None else {"CPU": cpus})
    return SimpleNamespace(is_initialized=lambda: True, get_runtime_context=lambda: context,
                           WORKER_MODE="worker")


@pytest.mark.parametrize(
    ("ray", "expected"),
    [
        (None, None),  # Ray not imported: never imported here
        (SimpleNamespace(is_initialized=lambda: False), None),
        (fake_ray("driver", 4.0), None),  # the driver has no assignment of its own
        (fake_ray("worker", None), None),  # an actor without CPUs
        (fake_ray("worker", 2.0), 2),
        (fake_ray("worker", 0.25), 1),
    ],
)
def test_ray_cpus(monkeypatch, ray, expected):
    monkeypatch.delitem(sys.modules, "ray", raising=False)
    if ray is not None:
        monkeypatch.setitem(sys.modules, "ray", ray)
    assert threads.ray_cpus() == expected


@pytest.mark.parametrize(("given", "expected"), [(1, 1), (3, 3), (None, "default"), (0, "default")])
def test_resolve_threads(no_omp_env, given, expected):
    assert threads.resolve_threads(given) == (8 if expected == "default" else expected)


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_resolve_threads_rejects(bad):
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        threads.resolve_threads(bad)


@pytest.mark.parametrize(("preset", "expected"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE"), ("PASSIVE", "PASSIVE")])
def test_prepare_sets_passive_waiting_unless_chosen(monkeypatch, preset, expected):
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    if preset is not None:
        monkeypatch.setenv("OMP_WAIT_POLICY", preset)
    threads.prepare()
    assert os.environ["OMP_WAIT_POLICY"] == expected


def test_a_fresh_process_follows_its_affinity_and_loads_torch_with_passive_waiting():
    """In a process pinned to one CPU, torch gets one thread and its OpenMP runtime
    starts with OMP_WAIT_POLICY=PASSIVE (set before torch is imported)."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("no CPU affinity on this platform")
    code = (
        "import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
        "from performers.claude.threads import set_torch_threads; n = set_torch_threads(None); "
        "import torch; print(n, torch.get_num_threads(), os.environ['OMP_WAIT_POLICY'])"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY")}
    env["PYTHONPATH"] = str(REPO)
    output = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert output.stdout.split() == ["1", "1", "PASSIVE"]


@pytest.mark.slow
def test_a_ray_task_gets_the_cpus_ray_assigned_it():
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("a Ray instance of another test is running")
    from joblib import cpu_count

    ray.init(num_cpus=2, object_store_memory=80 * 2**20, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"OMP_NUM_THREADS": ""}})  # the thread count comes from Ray alone
    try:
        task = ray.remote(threads.default_threads)
        one, two = ray.get([task.options(num_cpus=1).remote(), task.options(num_cpus=2).remote()])
    finally:
        ray.shutdown()
    assert (one, two) == (1, min(2, cpu_count()))
