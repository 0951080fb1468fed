"""The Python examples of docs/api.md and docs/own-data.md run as written from the repository root."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (REPO / "docs" / page).read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture
def checkout(tmp_path, data_dir, monkeypatch):
    """A directory that looks like the repository root: experiments/ and ../shared beside it."""
    work = tmp_path / "checkout"
    work.mkdir()
    (work / "experiments").symlink_to(REPO / "experiments")
    (tmp_path / "shared").symlink_to(data_dir.parent)
    monkeypatch.chdir(work)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return work


def test_api_page_examples_run(checkout, capsys):
    blocks = python_blocks("api.md")
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), {"__name__": "__docs__"})
    printed = capsys.readouterr().out
    assert "john:pairs@1+data." in printed and "blame" in printed and "correct_preferred" in printed
    (run_dir,) = (checkout / "runs" / "api-pairs").glob("pairs-*")
    assert (run_dir / "scores.json").exists()
    assert len(list((checkout / "runs" / "api-pairs" / "pairs").glob("*.jsonl"))) == 1
