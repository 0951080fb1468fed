"""A static run planned into rounds.jsonl as the corruptions come in, its blocks read back from the
file, large cells judged in parts: the same transcripts as the plan held in memory."""

from __future__ import annotations

import pytest

from arena.codec import dump
from arena.engine import plan_experiment, plan_stream, session
from arena.errors import DataError
from arena.record import store, transcripts
from arena.record.order import blocks
from arena.specs.config import load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import HERE, run
from tests.arena.engine.test_engine import contents, write_config

CLAUDES = f"[random, oracle, {{name: '{HERE}:HashScorer', alias: hash}}]"


def balanced_config(tmp_path, distil_dir):
    config = tmp_path / "balanced.yaml"
    config.write_text(
        f"name: balanced\njohns:\n  - {{name: distil-lingeval, params: {{dir: {distil_dir}/placeholder_ding.human, "
        "limit: 30}, balance: {cue: length}}\nzelligs: [replay]\nclaudes: [random]\nseeds: [1, 2]\n",
        encoding="utf-8")
    return config


@pytest.mark.parametrize("balanced", [False, True])
def test_stored_blocks_are_the_blocks_of_the_plan_in_memory(tmp_path, distil_dir, balanced):
    config = balanced_config(tmp_path, distil_dir) if balanced else write_config(tmp_path, distil_dir, CLAUDES, limit=7)
    experiment = load_experiment(config)
    result = run(experiment, CATALOG, tmp_path / "out", progress=False)
    from arena.engine.backends import InProcessBackend

    backend = InProcessBackend(CATALOG)
    in_memory = blocks(experiment, plan_experiment(experiment, CATALOG, backend, progress=False))
    stored = plan_stream.stored_blocks(experiment, result.run_dir / transcripts.ROUNDS)
    counts = {(b.seed, r.john, r.zellig): len(b.rounds) for b in in_memory for r in b.rounds}
    counted = plan_stream.stored_blocks(experiment, result.run_dir / transcripts.ROUNDS, counts)  # as planned
    assert [(b.name, b.seed, b.rounds.offset, len(b.rounds)) for b in counted] == \
        [(b.name, b.seed, b.rounds.offset, len(b.rounds)) for b in stored]
    assert [(b.name, b.seed) for b in stored] == [(b.name, b.seed) for b in in_memory]
    assert [list(b.rounds) for b in stored] == [list(b.rounds) for b in in_memory]
    assert [len(b.rounds) for b in stored] == [len(b.rounds) for b in in_memory]
    statuses = {r.status for b in stored for r in b.rounds}
    if balanced:
        assert "balanced_out" in statuses  # the John's balance applied over each whole stream
    else:
        assert any(not list(b.judged) for b in stored)  # a block without judged rounds (ding-only on clause_omission)
    assert b"".join(transcripts.dumps_line(dump(r)).encode() for b in in_memory for r in b.rounds) == \
        (result.run_dir / transcripts.ROUNDS).read_bytes()


@pytest.mark.parametrize("part, window", [(3, 1), (4, 2), (1000, 4)])  # 1000: no cell is cut into parts
def test_cells_judged_in_parts_equal_cells_judged_whole(tmp_path, distil_dir, monkeypatch, part, window):
    experiment = load_experiment(write_config(tmp_path, distil_dir, CLAUDES, limit=9))
    whole = run(experiment, CATALOG, tmp_path / "whole", progress=False)
    monkeypatch.setattr(session, "JUDGE_ROUNDS", part)
    monkeypatch.setattr(session, "WINDOW", window)
    parted = run(experiment, CATALOG, tmp_path / "parted", progress=False)
    assert contents(parted.run_dir) == contents(whole.run_dir)
    assert not list((parted.run_dir / store.CELLS).glob(".*part*"))  # the parts are joined and removed


def test_a_run_interrupted_between_parts_resumes_to_the_same_transcripts(tmp_path, distil_dir, monkeypatch):
    experiment = load_experiment(write_config(tmp_path, distil_dir, f"[{HERE}:InterruptibleClaude]", limit=9))
    whole = run(experiment, CATALOG, tmp_path / "whole", progress=False)
    monkeypatch.setattr(session, "JUDGE_ROUNDS", 4)
    monkeypatch.setenv("ARENA_TEST_INTERRUPT_AT", "5")  # Ctrl-C during the 5th judging call
    from tests.arena.engine.helpers import InterruptibleClaude

    InterruptibleClaude.calls = 0
    with pytest.raises(KeyboardInterrupt):
        run(experiment, CATALOG, tmp_path / "parted", progress=False)
    monkeypatch.delenv("ARENA_TEST_INTERRUPT_AT")
    resumed = run(experiment, CATALOG, tmp_path / "parted", progress=False)
    assert resumed.resumed and contents(resumed.run_dir) == contents(whole.run_dir)


@pytest.mark.parametrize("limit, duplicated", [(5, False), (5, True)])
def test_duplicate_instance_ids_are_refused_from_the_spool(tmp_path, distil_dir, limit, duplicated):
    directory = tmp_path / "data" / "placeholder_ding.human"
    directory.mkdir(parents=True)
    for name in ("src.en", "tgt.correct.de", "tgt.incorrect.de"):
        lines = (distil_dir / "placeholder_ding.human" / name).read_text(encoding="utf-8").splitlines()[:limit]
        directory.joinpath(name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    john = f"{{name: '{HERE}:DuplicatingJohn', params: {{dir: '{directory}', duplicate: {str(duplicated).lower()}}}}}"
    config = tmp_path / "c.yaml"
    config.write_text(f"name: d\njohns: [{john}]\nzelligs: [replay]\nclaudes: [random]\nseeds: [1]\n", encoding="utf-8")
    experiment = load_experiment(config)
    if duplicated:
        with pytest.raises(DataError, match="duplicate instance id"):
            run(experiment, CATALOG, tmp_path / "out", progress=False)
        assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())  # nothing half-made remains
    else:
        assert run(experiment, CATALOG, tmp_path / "out", progress=False).scores.cells


def test_a_spool_left_by_a_killed_planner_is_removed(tmp_path, distil_dir):
    from arena.engine.manifest import run_dir_for

    experiment = load_experiment(write_config(tmp_path, distil_dir, "[random]", limit=3))
    stale = run_dir_for(experiment, tmp_path / "out") / ".plan-killed"
    (stale / "j0-z0.jsonl").parent.mkdir(parents=True)
    (stale / "j0-z0.jsonl").write_text("{}\n", encoding="utf-8")
    result = run(experiment, CATALOG, tmp_path / "out", progress=False)
    assert result.run_dir == stale.parent and not list(result.run_dir.glob(".plan-*"))
