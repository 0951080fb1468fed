"""The import layering of arena/ and performers/ (DESIGN.md "Layout"; issue 37).

The contracts live in ``pyproject.toml`` (``[tool.importlinter]``) and ``lint-imports``
checks them, function-local imports included; ``.ci/run`` runs it. These tests check
that the contracts are there, that they hold on the tree, and that they fire on an
upward import planted in a copy of the tree (and not on a downward one).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# the `lint-imports` command, run by this interpreter
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
CONTRACTS = ("stages", "performers-below-the-top", "sdk", "framework-below-performers")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", LINT_IMPORTS, "--no-cache"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_contracts_are_declared():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    assert config["root_packages"] == ["arena", "performers"]
    contracts = {c["id"]: c for c in config["contracts"]}
    assert set(CONTRACTS) <= set(contracts)
    layers = contracts["stages"]["layers"]
    assert layers[:2] == ["cli", "api"] and layers[-1].startswith("records")
    assert contracts["stages"]["exhaustive"] is True


def test_the_tree_keeps_the_contracts():
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "static", "templates", "data")
    for package in ("arena", "performers"):
        shutil.copytree(REPO / package, root / package, ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    return root


# (module file, planted import, text lint-imports must report or None when it must pass)
PLANTED = [
    ("arena/records.py", "def f():\n    import arena.engine.core\n", "arena.records is not allowed to import arena.engine"),
    ("arena/stats/aggregate.py", "import arena.present.tables\n", "arena.stats is not allowed to import arena.present"),
    ("arena/engine/plan.py", "def f():\n    from arena.game import play\n", "arena.engine is not allowed to import arena.game"),
    ("arena/stats/aggregate.py", "import performers.catalog\n", "arena.stats.aggregate -> performers.catalog"),
    ("performers/zellig/spans.py", "from arena.engine.match import corrupt_one\n",
     "performers.zellig.spans -> arena.engine.match"),
    ("performers/john/select.py", "def f():\n    from arena.specs import typecheck\n", "performers.john.select -> arena.specs.typecheck"),
    ("performers/john/select.py", "import arena.cli\n", "performers.john.select -> arena.cli"),
    ("arena/present/tables.py", "import arena.stats.aggregate\n", None),
    ("performers/john/select.py", "from arena.sdk import corrupt_one\n", None),
    ("arena/cli/run.py", "import performers.catalog\n", None),
]


@pytest.mark.parametrize(("module", "planted", "expected"), PLANTED,
                         ids=[f"{m}: {p.strip().splitlines()[-1].strip()}" for m, p, _ in PLANTED])
def test_the_contracts_fire_on_upward_imports_only(tree, module, planted, expected):
    path = tree / module
    original = path.read_text(encoding="utf-8")
    path.write_text(original + "\n" + planted, encoding="utf-8")
    try:
        result = lint_imports(tree)
    finally:
        path.write_text(original, encoding="utf-8")
    if expected is None:
        assert result.returncode == 0, result.stdout + result.stderr
    else:
        assert result.returncode != 0 and expected in result.stdout, result.stdout + result.stderr
