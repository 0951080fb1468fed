"""Shared fixtures: where the read-only data of ../shared lives, small instances."""

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


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    return DATA


@pytest.fixture(scope="session")
def distil_dir(data_dir: Path) -> Path:
    return data_dir / "distil-lingeval"
