"""A person's replay config (``ZelligSession.export``) names its test set relative to itself and
is read from its own directory (``relative_paths: config``), whatever the working directory; old
configs (paths from the working directory, or absolute) read as before."""

from __future__ import annotations

import os

import pytest
import yaml

from arena.codec import dump
from arena.people.session import ZelligSession
from arena.specs.config import experiment_from_dict, load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import run as run_engine
from tests.arena.people.helpers import planned, write_config


def test_exported_replay_runs_from_another_working_directory(tmp_path, distil_dir, monkeypatch):
    played, run_dir, rounds = planned(write_config(tmp_path, distil_dir), tmp_path / "runs")
    ann = ZelligSession(run_dir, "ann", rounds)
    target = ann.targets[0]
    ann.corrupt(target, target.instance.reference + " Ding.", "placeholder_ding", 1.0)
    monkeypatch.chdir(tmp_path)
    replay = ann.export(dump(played))
    stored = yaml.safe_load(replay.read_text(encoding="utf-8"))
    assert stored["johns"][0]["params"]["path"] == "testset.json"  # beside the config, not from the cwd
    assert stored["relative_paths"] == "config"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    experiment = load_experiment(os.path.relpath(replay, elsewhere))
    assert experiment.johns[0].params["path"] == str(replay.parent.resolve() / "testset.json")
    (elsewhere / "replay.yaml").write_text(yaml.safe_dump(stored), encoding="utf-8")  # a copy elsewhere: not beside
    assert load_experiment("replay.yaml").johns[0].params["path"] == "testset.json"
    result = run_engine(experiment, CATALOG, elsewhere / "replayed", progress=False)
    assert (result.run_dir / "rounds.jsonl").read_text(encoding="utf-8").count(" Ding.") >= 1


CONFIG = {"name": "x", "zelligs": ["replay"], "claudes": ["random"]}


@pytest.mark.parametrize("relative_paths,path,expected", [
    ("config", "testset.json", "{dir}/testset.json"),        # beside the config: from its directory
    ("config", "sub/testset.json", "{dir}/sub/testset.json"),
    ("config", "{dir}/testset.json", "{dir}/testset.json"),  # absolute (an old file): kept
    ("config", "missing.json", "missing.json"),               # must not fire: nothing there beside it
    ("config", "Helsinki-NLP/opus-mt-en-de", "Helsinki-NLP/opus-mt-en-de"),  # a hub name stays
    (None, "testset.json", "testset.json"),                   # must not fire: the working directory's
    ("working-directory", "testset.json", "testset.json"),
])
def test_relative_paths_are_read_from_the_config_only_when_it_says_so(tmp_path, relative_paths, path, expected):
    (tmp_path / "sub").mkdir()
    for name in ("testset.json", "sub/testset.json"):
        (tmp_path / name).write_text("[]", encoding="utf-8")
    data = {**CONFIG, "johns": [{"name": "lingeval97", "params": {"path": path.format(dir=tmp_path.resolve())}}]}
    if relative_paths:
        data["relative_paths"] = relative_paths
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    experiment = experiment_from_dict(data, str(config))
    assert experiment.johns[0].params["path"] == expected.format(dir=tmp_path.resolve())
    assert "relative_paths" not in dump(experiment)  # resolved already: configs keep their hash


def test_relative_paths_takes_only_its_two_values(tmp_path):
    with pytest.raises(Exception, match="relative_paths"):
        experiment_from_dict({**CONFIG, "johns": ["random"], "relative_paths": "run"}, str(tmp_path / "c.yaml"))
