"""The README's Python API example runs as written (from a directory beside ../shared)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_an_api_example():
    assert any("arena.run(" in block for block in python_blocks())


def test_readme_python_examples_run_as_written(tmp_path, data_dir, monkeypatch, capsys):
    import arena.evaluate  # noqa: F401  (the LingEval97 evaluation subpackage must not hide the API)

    work = tmp_path / "checkout"
    work.mkdir()
    (tmp_path / "shared").symlink_to(data_dir.parent)  # ../shared/data as beside a checkout
    monkeypatch.chdir(work)
    for block in python_blocks():
        exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    assert "john:distil-lingeval@1+data." in printed and "toy" in printed
    runs = list((work / "runs" / "api").iterdir())
    assert len(runs) == 1 and (runs[0] / "report.html").exists()


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", os.environ.get("HF_HUB_OFFLINE", "1"))
