"""A balanced John in a game: each block is balanced by itself; the pairs it leaves out are recorded,
never judged, never counted toward the schedule and never shown to an observer."""

from __future__ import annotations

import json

from arena.cli import main
from tests.conftest import DATA, require_shared

CONFIG = """name: balanced-game
johns:
  - {{name: distil-lingeval, alias: ding, params: {{dir: {distil}/placeholder_ding.human, limit: 300}}, balance: {{cue: length}}}}
zelligs: [replay]
claudes: [{{name: length}}]
schedule: {{preset: supervised, rounds: 10, block_size: 100}}
discrepancy: false
generative_rate: false
bootstrap_samples: 20
"""


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_balanced_out_rounds_are_neither_judged_nor_observed(tmp_path):
    distil = require_shared(DATA / "distil-lingeval")
    config = tmp_path / "g.yaml"
    config.write_text(CONFIG.format(distil=distil), encoding="utf-8")
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    rounds = _lines(run_dir / "rounds.jsonl")
    left_out = {r["round"] for r in rounds if r["status"] == "balanced_out"}
    kept = {r["round"] for r in rounds if r["status"] == "ok"}
    assert left_out and kept
    assert all(r["block"] is not None for r in rounds)  # played as a game
    judged = {j["round"] for j in _lines(run_dir / "judgements.jsonl")}
    observed = {o["round"] for line in _lines(run_dir / "observations.jsonl") for o in line["outcomes"]}
    assert judged <= kept and not judged & left_out
    assert observed and not observed & left_out
