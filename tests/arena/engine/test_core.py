"""The engine's blocks and its two front ends (``arena run``, ``arena tournament``)."""

from __future__ import annotations

from pathlib import Path

from arena.cli import main
from arena.engine import Block, run, transcripts
from arena.specs.config import load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import HERE
from tests.arena.engine.test_engine import contents, write_config


def test_on_block_sees_every_block_once_in_order_with_each_claudes_judgements(tmp_path, distil_dir):
    experiment = load_experiment(write_config(tmp_path, distil_dir, f"[oracle, {{name: '{HERE}:HashScorer', alias: hash}}]",
                                              limit=8))
    seen: list[tuple[str, dict[str, list]]] = []

    def on_block(block: Block, judgements: dict[str, list]) -> None:
        seen.append((block.name, judgements))

    result = run(experiment, CATALOG, tmp_path / "out", progress=False, on_block=on_block)
    assert [name for name, _ in seen] == [f"s{s}-j{j}-z{z}" for s in (1, 2, 3) for j in range(2) for z in range(3)]
    lines = list(transcripts.read_jsonl(result.run_dir / transcripts.JUDGEMENTS))
    for claude in ("oracle", "hash"):
        played = [j.to_json() for _, judgements in seen for j in judgements[claude]]
        assert played == [line for line in lines if line["claude"] == claude]
    assert all(j.correct for _, judgements in seen for j in judgements["oracle"])
    seen.clear()
    assert run(experiment, CATALOG, tmp_path / "out", progress=False, on_block=on_block).already_finished
    assert seen == []  # a finished run plays no block


def test_arena_run_and_arena_tournament_are_front_ends_of_one_engine(tmp_path, distil_dir, capsys):
    path = write_config(tmp_path, distil_dir, f"[random, {{name: '{HERE}:HashScorer', alias: hash}}]", limit=8)
    assert main(["run", str(path), "--out", str(tmp_path / "run"), "--no-progress"]) == 0
    assert main(["tournament", str(path), "--out", str(tmp_path / "tournament"), "--executor", "in-process",
                 "--no-plots", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Claudes by S" in out and "after deduplication" in out
    (ran,), (played,) = (list(Path(tmp_path / name).iterdir()) for name in ("run", "tournament"))
    assert ran.name == played.name
    assert contents(ran) == contents(played)
    assert (ran / transcripts.SCORES).read_bytes() == (played / transcripts.SCORES).read_bytes()
