"""The cost planner: its counts equal what a run does, nothing is built for a Claude, estimates
follow the calibration, and ``arena tournament --plan`` plays and writes nothing."""

from __future__ import annotations

import json

import pytest

from arena.cli import main
from arena.codec import dump
from arena.engine import calibration
from arena.engine.calibration import Calibration, DriverRates, claude_key
from arena.engine.cost import ModelWork, WorkPlan, count_work, estimate
from arena.errors import DataError
from arena.specs.config import load_experiment
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG
from tests.arena.engine.helpers import HERE, run
from tests.arena.engine.test_engine import write_config

CLAUDES = f"[random, {{name: '{HERE}:HashScorer', alias: hash}}, {{name: '{HERE}:HashScorer', alias: blind, sees: {{source: false}}}}]"


def test_counts_equal_the_work_of_the_run(tmp_path, distil_dir):
    experiment = load_experiment(write_config(tmp_path, distil_dir, CLAUDES, limit=15))
    work = count_work(experiment, CATALOG)
    played = run(experiment, CATALOG, tmp_path / "out", "in-process", progress=False)
    assert work.cells == played.cells == 2 * 3 * 3 * 3
    for model in work.models:
        if model.scoring:
            done = played.work[model.name]
            counted = (model.requests, model.unique, model.one_best_sources)
            assert counted == (done["requests"], done["unique"], done.get("one_best_sources", 0)), model.name
            assert model.unique < model.requests  # deduplication across seeds and Zelligs
    assert [m.scoring for m in work.models] == [False, True, True]
    assert work.models[2].one_best_sources == 0  # a fluency Claude decodes no 1-best
    rounds = (tmp_path / "out").glob("*/rounds.jsonl")
    assert work.rounds == sum(1 for path in rounds for _ in path.open(encoding="utf-8"))


def test_no_claude_is_built(tmp_path, distil_dir, monkeypatch):
    from arena.specs import registry

    real = registry.build

    def build(role, spec, *args, **kwargs):
        assert role != "claude", f"built Claude {spec.label}"
        return real(role, spec, *args, **kwargs)

    monkeypatch.setattr(registry, "build", build)
    work = count_work(load_experiment(write_config(tmp_path, distil_dir, CLAUDES, limit=5)), CATALOG)
    assert work.models[1].unique > 0


def _work(scoring: bool, **counts) -> WorkPlan:
    model = ModelWork("m", PerformerSpec("toy-en-de"), scoring, **counts)
    return WorkPlan(cells=4, rounds=100, judged=80, instances=50, plan_seconds=2.0, models=[model])


KEY = claude_key(PerformerSpec("toy-en-de"), CATALOG)
RATES = {"unit": "CPU", "load": 1.0, "score_per_word": 0.01, "decode_per_word": 0.1, "judge_per_round": 0.5}


@pytest.mark.parametrize(
    ("work", "claudes", "seconds", "missing"),
    [
        (_work(True, judged=80, target_words=300, one_best_words=20), {KEY: RATES}, 1 + 3 + 2, []),
        (_work(True, judged=80, target_words=300), {KEY: RATES}, 1 + 3, []),
        (_work(False, judged=80, target_words=300), {KEY: RATES}, 1 + 40, []),  # judges: words do not count
        (_work(True, judged=80, target_words=300), {KEY.split("(")[0] + "(threads=9)": RATES}, 4, []),  # loose
        (_work(True, judged=80, target_words=300), {"random@1()": RATES}, None, ["m"]),  # not calibrated
    ],
)
def test_estimate_from_the_calibration(work, claudes, seconds, missing):
    result = estimate(work, Calibration("today", {}, DriverRates(0.001, 0.5), claudes), CATALOG)
    assert result.missing == missing
    assert result.models.get("m") == (pytest.approx(seconds) if seconds is not None else None)
    assert result.driver == pytest.approx(80 * 0.001 + 4 * 0.5)
    assert result.total == pytest.approx(2.0 + result.driver + (seconds or 0))


@pytest.mark.parametrize(
    ("content", "match"),
    [(None, "no such calibration file"), ("{", "malformed JSON"), ('{"format": 7}', "calibration format 7"),
     ('{"format": 1, "date": "x"}', "not a calibration file")],
)
def test_a_named_calibration_file_must_be_usable(tmp_path, content, match):
    path = tmp_path / "calibration.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(DataError, match=match) as raised:
        calibration.load(path)
    assert raised.value.file == str(path)


def test_calibration_round_trip_and_absent_default(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path))
    assert calibration.load() is None
    written = Calibration("2026-11-25", {"cpus": 2}, DriverRates(0.001, 0.02), {KEY: RATES})
    calibration.save(written, calibration.default_path())
    read = calibration.load()
    assert (dump(read), read.path) == (dump(written), tmp_path / "calibration.json")


def test_tournament_plan_prints_and_writes_nothing(tmp_path, distil_dir, capsys, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    path = write_config(tmp_path, distil_dir, CLAUDES, limit=5)
    cal = tmp_path / "calibration.json"
    rates = {claude_key(s, CATALOG): {"unit": "CPU", "load": 0.5, "score_per_word": 0.001, "decode_per_word": 0.01,
                                      "judge_per_round": 0.0} for s in load_experiment(path).claudes}
    calibration.save(Calibration("2026-11-25", {"cpus": 2}, DriverRates(0.001, 0.02), rates), cal)
    assert main(["tournament", str(path), "--plan", "--out", str(tmp_path / "runs"), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "no estimate: no calibration file" in text and "cells: 54" in text
    assert main(["tournament", str(path), "--plan", "--json", "--calibration", str(cal), "--no-progress",
                 "--out", str(tmp_path / "runs")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cells"] == 54 and data["estimate"]["uncalibrated"] == [] and data["estimate"]["total_seconds"] > 0
    assert not (tmp_path / "runs").exists()
    assert main(["tournament", str(path), "--plan", "--calibration", str(tmp_path / "nope.json")]) == 2
    assert "no such calibration file" in capsys.readouterr().err
