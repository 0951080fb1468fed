"""Small finished runs for the tests of the typed results: a hash-scoring Claude and the
chance Claude against a detecting and a blind Zellig on DistilLingEval pairs (no model)."""

from __future__ import annotations

from pathlib import Path

from arena.cli import main

CONFIG = """name: typed
johns:
  - {{name: distil-lingeval, alias: ding-human, params: {{dir: {distil}/placeholder_ding.human, limit: 12}}}}
  - {{name: distil-lingeval, alias: ding-mt, params: {{dir: {distil}/placeholder_ding.mt, limit: 12}}}}
zelligs:
  - {{name: "tests.arena.engine.helpers:DetectingReplay", alias: ding}}
  - {{name: replay, alias: blind}}
claudes:
  - {{name: "tests.arena.engine.helpers:HashScorer", alias: nmt}}
  - {{name: random, alias: chance}}
seeds: [1, 2]
bootstrap_samples: 20
{extra}
"""

GAME = "schedule: {preset: supervised, rounds: 8, block_size: 6}\nbreakdowns: [john.reference_kind]"


def finished_run(directory: Path, distil_dir: Path, extra: str = "") -> Path:
    """``arena run`` of :data:`CONFIG` (plus ``extra`` YAML lines) under ``directory``."""
    config = directory / "typed.yaml"
    config.write_text(CONFIG.format(distil=distil_dir, extra=extra), encoding="utf-8")
    assert main(["run", str(config), "--out", str(directory / "runs"), "--no-progress"]) == 0
    (run_dir,) = (directory / "runs").iterdir()
    return run_dir
