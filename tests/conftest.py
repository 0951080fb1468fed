"""Shared fixtures: where the read-only data of ../shared lives, small instances.

A test that needs ``../shared`` calls :func:`require_shared` (or takes the ``data_dir``
fixture): when the data are missing it is skipped on a developer's machine but FAILS
when the environment variable ``CI`` is set, so that CI never passes by skipping.
Tests parametrized over shared files use :func:`shared_params`.

The error contract is enforced on the whole suite: ``ARENA_CRASH_DIR`` points at a fresh
directory, and a test after which a bug report (the CLI's exit-70 path,
:func:`arena.errors.bug_report`) appeared there fails with its traceback.  A test that
provokes the bug path on purpose points ``ARENA_CRASH_DIR`` elsewhere (``monkeypatch``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ARENA_SHARED", REPO.parent / "shared"))
DATA = SHARED / "data"

os.environ.setdefault("ARENA_PROGRESS", "0")
# model-backed Claudes default to the CPUs the process may use, capped by OMP_NUM_THREADS
# (performers/claude/threads.py); on a shared machine small test models run fastest on one
os.environ.setdefault("OMP_NUM_THREADS", "1")
# score caches, CTranslate2 conversions and lexicon caches of a test run live in a
# fresh directory, so tests neither read nor pollute the user's ~/.cache/arena
if "ARENA_CACHE_DIR" not in os.environ:
    import tempfile

    os.environ["ARENA_CACHE_DIR"] = tempfile.mkdtemp(prefix="arena-test-cache-")
# bug reports of this test run (subprocesses inherit it); see no_bug_reports below
if "ARENA_CRASH_DIR" not in os.environ:
    import tempfile

    os.environ["ARENA_CRASH_DIR"] = tempfile.mkdtemp(prefix="arena-test-crashes-")
CRASHES = Path(os.environ["ARENA_CRASH_DIR"])


@pytest.fixture(autouse=True)
def no_bug_reports():
    """Fail a test after which the CLI took the exit-70 (bug) path: user input must never
    reach it, so every bad-input case of the suite is also a check of the error contract."""
    before = set(CRASHES.glob("arena-crash-*")) if CRASHES.is_dir() else set()
    yield
    after = set(CRASHES.glob("arena-crash-*")) if CRASHES.is_dir() else set()
    new = sorted(after - before)
    if new:
        traceback = new[-1].read_text(encoding="utf-8", errors="replace")
        for path in new:
            path.unlink()
        pytest.fail(f"the CLI reported a bug (exit 70) in this test:\n{traceback}", pytrace=False)


def require_shared(path: Path) -> Path:
    """``path`` (under ../shared), which the calling test needs: missing, the test fails
    under CI (env ``CI`` set) and is skipped elsewhere."""
    if path.exists():
        return path
    message = f"shared data not found at {path} (set ARENA_SHARED to the directory holding data/ and models/)"
    if os.environ.get("CI"):
        pytest.fail(message + "; CI needs it", pytrace=False)
    pytest.skip(message)


def shared_params(values: list) -> list:
    """Parameters read from ../shared, or one ``shared-data-missing`` case (value ``None``)
    when there are none; the test then calls :func:`require_shared`, which fails under CI."""
    return values or [pytest.param(None, id="shared-data-missing")]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return require_shared(DATA)


@pytest.fixture(scope="session")
def distil_dir(data_dir: Path) -> Path:
    return data_dir / "distil-lingeval"
