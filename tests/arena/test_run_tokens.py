"""Token views of a finished run: ``arena show --tokens`` and ``arena report --tokens``."""

from __future__ import annotations

import json

import pytest

import arena
from arena.cli import main
from arena.run_tokens import TOKENS_FILE, load_tokens

PAIRS = [  # the toy model gets the first wrong (it prefers the sentence without "nicht")
    {"id": "neg", "source": "The shop is not open today.", "correct": "Der Laden ist heute nicht geöffnet.",
     "incorrect": "Der Laden ist heute geöffnet."},
    {"id": "agr", "source": "The children are playing.", "correct": "Die Kinder spielen.",
     "incorrect": "Die Kinder spielt."},
]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("tokens")
    return arena.run_pairs(PAIRS, claude=["toy-en-de", "random"], out=out, report=False,
                           options={"discrepancy": False}).run_dir


def test_show_tokens_prints_the_blamed_token_and_stores_views(run_dir, capsys):
    assert main(["-q", "show", str(run_dir), "--wrong", "--claude", "toy-en-de", "--tokens", "--no-color"]) == 0
    printed = capsys.readouterr().out
    assert "blame:     'nicht' vs '∅'" in printed and "<" in printed
    views = load_tokens(run_dir)
    assert set(views) == {("toy-en-de", next(iter(views))[1])} and "neg" in next(iter(views))[1]


def test_random_claude_gets_no_token_view(run_dir, capsys):
    assert main(["-q", "show", str(run_dir), "--claude", "random", "--tokens", "--no-color"]) == 0
    assert "blame:" not in capsys.readouterr().out  # must not fire: random has no token scores
    assert all(claude == "toy-en-de" for claude, _ in load_tokens(run_dir))


def test_report_tokens_puts_the_blame_beside_misjudged_pairs(run_dir):
    (run_dir / TOKENS_FILE).unlink(missing_ok=True)
    assert main(["-q", "report", str(run_dir), "--no-plots"]) == 0
    assert "the model blames" not in (run_dir / "report.md").read_text(encoding="utf-8")  # only when asked
    assert main(["-q", "report", str(run_dir), "--no-plots", "--tokens"]) == 0
    markdown = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "the model blames (log-prob correct − corrupted, token by token): 'nicht' vs '∅'" in markdown
    assert "the model blames" in (run_dir / "report.html").read_text(encoding="utf-8")
    record = json.loads((run_dir / TOKENS_FILE).read_text(encoding="utf-8").splitlines()[0])
    assert record["rows"][record["blame"]]["correct"] == "nicht"
