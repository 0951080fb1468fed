"""Tests that need ../shared fail under CI when it is missing, and skip elsewhere."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NEEDS_DATA = [
    "tests/arena/formats/test_distil_lingeval.py::test_real_sets_read_with_line_counts_of_the_files",
    "tests/performers/m2c/test_compat.py::test_registered_functions_reproduce_m2c_value_tables",
]


@pytest.mark.parametrize(("ci", "status"), [("true", 1), ("", 0)], ids=["ci-fails", "local-skips"])
def test_missing_shared_data(tmp_path, ci, status):
    env = {**os.environ, "ARENA_SHARED": str(tmp_path / "no-shared"), "CI": ci, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider", *NEEDS_DATA],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    summary = result.stdout.strip().splitlines()[-1]
    assert result.returncode == status, result.stdout[-3000:]
    assert "shared data not found" in result.stdout, result.stdout[-3000:]
    assert ("skipped" in summary) == (not ci) and ("passed" not in summary), summary
