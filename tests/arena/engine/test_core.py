"""The engine's blocks and its two front ends (``arena run``, ``arena tournament``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.cli import main
from arena.codec import dump, load
from arena.engine import Driver, Session, plan_experiment
from arena.record import transcripts
from arena.record.manifest import Manifest
from arena.record.order import blocks
from arena.record.rounds import JudgementRecord, Round
from arena.specs.config import Experiment, load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import HERE, run
from tests.arena.engine.test_engine import contents, write_config


class BlockByBlock:
    """A minimal :class:`Driver`: the static plan, played one block at a time through the
    engine's session, each block's judgements read back as an observer would."""

    def __init__(self, experiment: Experiment):
        self.experiment = experiment
        self.seen: list[tuple[str, dict[str, list]]] = []
        self.sessions: set[int] = set()

    def manifest(self) -> dict[str, Any]:
        return {}

    def play(self, session: Session, manifest: Manifest) -> list[Round]:
        session.store.write_manifest(manifest)
        rounds = plan_experiment(self.experiment, CATALOG, session.backend, progress=False)
        for block in blocks(self.experiment, rounds):
            session.play([block], one_best=False, quiet=True)
            self.seen.append((block.name, session.judgements(block)))
            self.sessions.add(id(session))
        session.store.write_plan([dump(r) for r in rounds], manifest)
        return rounds


def test_a_driver_plays_block_by_block_through_one_session_to_the_same_transcripts(tmp_path, distil_dir):
    experiment = load_experiment(write_config(tmp_path, distil_dir, f"[oracle, {{name: '{HERE}:HashScorer', alias: hash}}]",
                                              limit=8))
    driver = BlockByBlock(experiment)
    assert isinstance(driver, Driver)
    result = run(experiment, CATALOG, tmp_path / "driven", progress=False, driver=driver)
    assert [name for name, _ in driver.seen] == [f"s{s}-j{j}-z{z}" for s in (1, 2, 3) for j in range(2) for z in range(3)]
    assert len(driver.sessions) == 1  # one Session per run, however many blocks
    lines = list(transcripts.read_jsonl(result.run_dir / transcripts.JUDGEMENTS))
    for claude in ("oracle", "hash"):
        played = [j for _, judgements in driver.seen for j in judgements[claude]]
        assert played == [load(JudgementRecord, line) for line in lines if line["claude"] == claude]
    assert all(j.correct for _, judgements in driver.seen for j in judgements["oracle"])
    assert result.cells_before == 0  # cells this session played are not "finished before"
    plain = run(experiment, CATALOG, tmp_path / "plain", progress=False)
    assert contents(result.run_dir) == contents(plain.run_dir)
    # the same requests, summed over the blocks; deduplicated within each block only
    assert result.work["hash"]["requests"] == plain.work["hash"]["requests"]
    assert result.work["hash"]["unique"] > plain.work["hash"]["unique"]
    driver.seen.clear()
    again = run(experiment, CATALOG, tmp_path / "driven", progress=False, driver=driver)
    assert again.already_finished and driver.seen == []  # a finished run plays no block


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
