"""Sessions of people on the engine's runs: planning beside a running engine, free
points, answers checked, and the summary against the run's Claudes."""

from __future__ import annotations

import pytest

from arena.engine import prepare, run_dir_for
from arena.people.session import ClaudeSession, summary
from arena.record.rounds import RESOLVED_FREE, RESOLVED_LATE, STATUS_NOT_APPLICABLE, STATUS_ZELLIG_TIMEOUT, Round
from arena.record.store import RunBusy, RunStore
from arena.records import Instance, Variant
from arena.specs.config import load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import run as run_engine
from tests.arena.people.helpers import planned, write_config


def test_people_read_a_planned_run_while_the_engine_holds_its_lock(tmp_path, distil_dir):
    config = write_config(tmp_path, distil_dir)
    experiment, run_dir, rounds = planned(config, tmp_path / "runs")
    with RunStore(run_dir).locked():  # an `arena run` playing the Claudes
        again_dir, again = prepare(load_experiment(config), CATALOG, tmp_path / "runs", progress=False)
    assert again_dir == run_dir and [r.id for r in again] == [r.id for r in rounds]
    other = tmp_path / "other.yaml"
    other.write_text(config.read_text().replace("limit: 4", "limit: 3"), encoding="utf-8")
    unplanned = load_experiment(other)
    with RunStore(run_dir_for(unplanned, tmp_path / "runs")).locked():  # planning needs the lock
        with pytest.raises(RunBusy, match="another arena process is writing this run"):
            prepare(unplanned, CATALOG, tmp_path / "runs", progress=False)


def test_free_points_are_recorded_without_being_shown_and_answers_are_checked(tmp_path):
    instance = Instance("i1", "The cat.", "Die Katze.")
    variant = Variant("i1", "Das Katze.", "np_agreement")
    timeout = Round("1|j|z|i0|0", 1, "j", "z", Instance("i0", "A.", "B."), None, ("B.", "B."), 0,
                          STATUS_ZELLIG_TIMEOUT)
    played = Round("1|j|z|i1|0", 1, "j", "z", instance, variant, ("Das Katze.", "Die Katze."), 0)
    skipped = Round("1|j|z|i2|-", 1, "j", "z", Instance("i2", "C.", "D."), None, None, None,
                          STATUS_NOT_APPLICABLE)
    session = ClaudeSession(tmp_path, "ann", [timeout, played, skipped], seconds_per_pair=5)
    assert session.next_round() == played
    assert session.done()[timeout.id]["resolved_by"] == RESOLVED_FREE
    assert session.progress() == (1, 2)
    for bad in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="not a candidate index"):
            session.answer(played.id, bad, 1.0)
    with pytest.raises(KeyError, match="unknown round"):
        session.answer(skipped.id, 0, 1.0)
    record, written = session.answer(played.id, 0, 6.0)  # past the budget
    assert written and record["resolved_by"] == RESOLVED_LATE and record["seconds"] == 6.0
    assert session.answer(played.id, 1, 1.0) == (record, False)
    assert session.next_round() is None


def test_the_summary_compares_a_person_with_the_runs_claudes_on_the_same_rounds(tmp_path, distil_dir):
    config = write_config(tmp_path, distil_dir, claudes="[{name: oracle, alias: oracle}, random]")
    experiment, run_dir, rounds = planned(config, tmp_path / "runs")
    session = ClaudeSession(run_dir, "ann", rounds, None)
    for r in rounds[:3]:
        session.answer(r.id, 1 - r.corrupted, 1.0)  # always wrong
    run_engine(experiment, CATALOG, tmp_path / "runs", progress=False)
    data = summary(run_dir, "ann")
    assert data["rounds"] == 3 and data["S"] == 0.0 and data["resolved_by"] == {"claude": 3}
    assert data["phenomena"] == {"placeholder_ding": {"rounds": 3, "S": 0.0}}
    comparison = {c["claude"]: c for c in data["comparison"]}
    assert set(comparison) == {"oracle", "random"}
    assert comparison["oracle"]["rounds"] == 3 and comparison["oracle"]["S"] == 1.0
