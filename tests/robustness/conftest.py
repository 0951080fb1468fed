"""Fixtures of the robustness battery: a small test set and an experiment over it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.robustness.helpers import write_experiment, write_testset


@pytest.fixture
def testset(tmp_path: Path) -> Path:
    return write_testset(tmp_path / "placeholder_ding.human")


@pytest.fixture
def experiment(tmp_path: Path, testset: Path) -> Path:
    return write_experiment(tmp_path / "exp.yaml", testset)
