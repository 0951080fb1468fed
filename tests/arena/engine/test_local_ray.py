"""The embedded local Ray never joins a Ray that is already running on the machine.

``ray.init()`` without an address joins the cluster that ``ray start --head`` left on
the machine, which then refuses ``num_cpus`` ("must not be provided") and would run our
work on someone else's cluster.  The test starts such a head (in a private Ray temp
directory, so that it is invisible to anything else on the machine) and checks that
:func:`arena.engine.ray_backend.start_ray` starts an instance of its own.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

_CHILD = """
import ray
from arena.specs.config import RayOptions
from arena.engine.ray_backend import start_ray

assert start_ray(RayOptions(num_cpus=1, object_store_memory=80 * 2**20)) is True
print(ray.get_runtime_context().gcs_address)
print(ray.get(ray.remote(lambda: 7).remote()))
ray.shutdown()
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _processes_naming(marker: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and entry.name != str(os.getpid()):
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    pids.append(int(entry.name))
            except OSError:  # gone meanwhile
                continue
    return pids


def _stop(marker: str) -> None:
    """Stop the processes of the head started here (their command lines name its temp
    directory), by process id; never `ray stop`, which would stop every Ray on the machine."""
    for signal_number in (signal.SIGTERM, signal.SIGKILL):
        for pid in _processes_naming(marker):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal_number)
        for _ in range(50):
            if not _processes_naming(marker):
                return
            time.sleep(0.2)


@pytest.mark.slow
def test_local_ray_starts_its_own_next_to_a_running_head():
    ray_cli = shutil.which("ray") or str(Path(sys.executable).parent / "ray")
    # short: Ray's socket paths live under the temp directory and may not exceed 107 bytes
    temp = tempfile.mkdtemp(prefix="rayh", dir="/tmp")
    port = _free_port()
    env = {**os.environ, "RAY_TMPDIR": temp, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0",
           "PYTHONPATH": str(REPO)}
    env.pop("RAY_ADDRESS", None)
    try:
        head = subprocess.run(
            [ray_cli, "start", "--head", f"--port={port}", "--num-cpus=1", "--object-store-memory=80000000",
             "--include-dashboard=false", "--disable-usage-stats"],
            env=env, capture_output=True, text=True, timeout=180,
        )
        assert head.returncode == 0, head.stderr[-2000:]
        child = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=300)
        assert child.returncode == 0, child.stderr[-3000:]
        gcs_address, answer = child.stdout.split()[-2:]
        assert answer == "7"
        assert not gcs_address.endswith(f":{port}"), "joined the running head instead of starting its own"
    finally:
        _stop(temp)
        shutil.rmtree(temp, ignore_errors=True)
