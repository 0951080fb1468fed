"""Running ``arena`` as a user would: a subprocess with the worktree's code, its exit
status and output, optionally interrupted with SIGINT (Ctrl-C) once it is working."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())"]


@dataclass
class Finished:
    status: int
    out: str
    err: str
    seconds: float  # from the signal (or the start) to the exit


def environment(**extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), ARENA_PROGRESS="0", OMP_NUM_THREADS="1",
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", RAY_USAGE_STATS_ENABLED="0")
    env.update(extra)
    return env


def arena(argv: Sequence[str], stdin: bytes | None = None, cwd: Path = REPO, timeout: float = 300,
          preexec: Callable[[], None] | None = None, **env: str) -> Finished:
    """Run ``arena ARGV`` to its end."""
    started = time.monotonic()
    done = subprocess.run([*COMMAND, *argv], input=stdin, capture_output=True, cwd=cwd,
                          env=environment(**env), timeout=timeout, preexec_fn=preexec)
    return Finished(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"),
                    time.monotonic() - started)


def interrupted(argv: Sequence[str], ready: Callable[[], bool], cwd: Path = REPO, stdout: Path | None = None,
                start_timeout: float = 240, exit_timeout: float = 30, **env: str) -> Finished:
    """Start ``arena ARGV``, wait until ``ready()`` (it is doing its long work), send
    SIGINT as a terminal's Ctrl-C would (to the whole process group) and wait for the exit.
    ``stdout``: a file to write the output to (``ready`` may watch it)."""
    sink = open(stdout, "wb") if stdout is not None else subprocess.PIPE
    process = subprocess.Popen([*COMMAND, *argv], cwd=cwd, env=environment(**env), stdin=subprocess.DEVNULL,
                               stdout=sink, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + start_timeout
        while not ready():
            if process.poll() is not None:
                _, err = process.communicate()
                raise AssertionError(f"arena {' '.join(argv)} ended (status {process.returncode}) before it was "
                                     f"interrupted:\n{err.decode()[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"arena {' '.join(argv)} never became ready")
            time.sleep(0.2)
        signalled = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=exit_timeout)
        return Finished(process.returncode, (out or b"").decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                        time.monotonic() - signalled)
    finally:
        if stdout is not None:
            sink.close()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
