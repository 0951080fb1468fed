from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from arena.codec import dump
from arena.errors import ConfigError
from arena.specs.config import RayOptions, TimeBudget, experiment_from_dict, load_experiment
from arena.specs.spec import PerformerSpec, spec_from_mapping

EXPERIMENTS = Path(__file__).resolve().parents[3] / "experiments"

GOOD = """\
name: t
johns:
  - name: distil-lingeval
    params: {dir: somewhere}
zellig: replay
claudes: [oracle, {name: random, params: {seed: 2}}]
seeds: [1, 2]
"""


def write(tmp_path, text):
    path = tmp_path / "exp.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_load_good_config(tmp_path):
    experiment = load_experiment(write(tmp_path, GOOD))
    assert experiment.name == "t"
    assert [s.label for s in experiment.claudes] == ["oracle", "random:seed=2"]
    assert experiment.zelligs[0].name == "replay"
    assert experiment.seeds == (1, 2)


@pytest.mark.parametrize(
    "text, message",
    [
        (GOOD + "variants: 2\n", r"exp.yaml:8: unknown key 'variants'; allowed keys: .*variants_per_instance"),
        (GOOD + "time_budget: {zellig: 1}\n", r"exp.yaml:8: unknown key 'time_budget.zellig'; allowed keys: zellig_seconds"),
        (GOOD.replace("seeds: [1, 2]", "seeds: [1, 1]"), "lists a seed twice"),
        (GOOD.replace("seeds: [1, 2]", "seeds: one"), r"exp.yaml:7: 'seeds' must be an integer or a list of integers, not 'one'"),
        (GOOD + "seed: 3\n", "either 'seed' or 'seeds'"),
        (GOOD.replace("name: t\n", ""), "missing key 'name'"),
        (GOOD + "contrastive_ties: maybe\n", "contrastive_ties' must be one of"),
        (GOOD.replace("{name: random, params: {seed: 2}}", "{name: random, parms: {}}"),
         r"exp.yaml:6: unknown key 'claudes.1.parms'; allowed keys: name, params, alias"),
        (GOOD.replace("[oracle, {name: random, params: {seed: 2}}]", "[oracle, oracle]"), "lists 'oracle' twice"),
        ("name: [unclosed\n", r"exp.yaml:2:1: malformed YAML"),
        ("- a list\n", "an experiment is a YAML mapping"),
    ],
)
def test_bad_configs_name_file_line_and_key(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        load_experiment(write(tmp_path, text))


def test_wrong_encoding(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_bytes(GOOD.encode("utf-8") + "description: Börse\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"exp.yaml:8: not valid UTF-8"):
        load_experiment(path)


def test_overrides(tmp_path):
    experiment = load_experiment(
        write(tmp_path, GOOD),
        ["seeds=[4,5,6]", "claudes.1.params.seed=9", "time_budget.zellig_seconds=0.5", "max_instances=10"],
    )
    assert experiment.seeds == (4, 5, 6)
    assert experiment.claudes[1].params == {"seed": 9}
    assert experiment.time_budget.zellig_seconds == 0.5
    assert experiment.max_instances == 10
    with pytest.raises(ValueError, match="key=value"):
        load_experiment(write(tmp_path, GOOD), ["seeds"])


# -- the one validation: what it refuses and where, what it must not refuse -----------------------------

@pytest.mark.parametrize(
    "text, overrides, message",
    [
        (GOOD + "transfer: {}\n", (), r"exp.yaml:8: unknown key 'transfer'; .*\(hint: .*arena transfer CONFIG"),
        (GOOD.replace("seeds: [1, 2]", "seeds: []"), (), r"exp.yaml:7: 'seeds' must be an integer or a list of integers, not \[\]"),
        (GOOD + "time_budget: 5\n", (), r"exp.yaml:8: 'time_budget' must be a mapping with keys zellig_seconds"),
        (GOOD + "beam: 0\n", (), r"exp.yaml:8: 'beam' must be an integer ≥ 1, not 0"),
        (GOOD.replace("zellig: replay", "zellig: {name: replay, alias: ''}"), (),
         r"exp.yaml:5: 'zellig.0.alias' must be a non-empty string or null, not ''"),
        (GOOD.replace("params: {dir: somewhere}", "params: [somewhere]"), (),
         r"exp.yaml:4: 'johns.0.params' must be a mapping of constructor keyword arguments, not \['somewhere'\]"),
        (GOOD.replace("params: {dir: somewhere}", "params: {dir: somewhere}\n    sees: {source: false}"), (),
         r"exp.yaml:2: 'johns' may not list 'sees'"),
        (GOOD.replace("claudes: [oracle,", "claudes: [5,"), (), r"exp.yaml:6: 'claudes.0' must be a performer: a mapping"),
        (GOOD.replace("claudes: [oracle,", "claudes: [{params: {}},"), (), r"exp.yaml:6: missing key 'claudes.0.name'"),
        (GOOD, ("claudes.1.params=3",), r"exp.yaml \(--set claudes.1.params\): 'claudes.1.params' must be a mapping"),
        (GOOD, ("time_budget.zellig_seconds=-1",),
         r"exp.yaml \(--set time_budget.zellig_seconds\): 'time_budget.zellig_seconds' must be a number > 0 or null, not -1"),
    ],
)
def test_a_refusal_names_the_line_of_the_key_and_what_it_must_be(tmp_path, text, overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_experiment(write(tmp_path, text), list(overrides))


@pytest.mark.parametrize(
    "extra, check",
    [  # must not fire
        ("time_budget: null\nray: null\n", lambda e: e.time_budget == TimeBudget() and e.ray == RayOptions()),
        ("time_budget: {zellig_seconds: 1}\n", lambda e: e.time_budget == TimeBudget(zellig_seconds=1)),
        ("schedule: null\nmax_instances: null\n", lambda e: e.schedule is None and e.max_instances is None),
        ("breakdowns: [dimension, john.origin]\n", lambda e: e.breakdowns == ("dimension", "john.origin")),
    ],
)
def test_keys_that_say_the_default_or_a_value_are_taken(tmp_path, extra, check):
    assert check(load_experiment(write(tmp_path, GOOD + extra)))


def test_a_performer_entry_keeps_what_it_says():
    """``sees`` keeps only what differs from the default; replicas keyed ``1`` and ``"1"`` are one seed."""
    spec = spec_from_mapping({"name": "random", "sees": {"source": True, "metadata": True},
                              "replicas": {1: {"seed": 1, "a": 0}, "1": {"seed": 2}}}, "here")
    assert spec == PerformerSpec("random", {}, None, {}, {1: {"seed": 2, "a": 0}}, {"metadata": True})
    with pytest.raises(ConfigError, match=r"^here: unknown key 'parms'; allowed keys: name, params, alias"):
        spec_from_mapping({"name": "random", "parms": {}}, "here")


def _experiment_configs() -> list[Path]:
    """Every YAML under experiments/ but the few that are no experiment config (a cluster recipe,
    a script's own settings)."""
    scripts = {"cluster/kuberay-rayjob.yaml", "cluster/ray-up-aws.yaml", "johns/human_vs_mt.yaml",
               "johns/mt-reference.yaml", "m2c/en_de.yaml"}
    return sorted(p for p in EXPERIMENTS.rglob("*.yaml") if p.relative_to(EXPERIMENTS).as_posix() not in scripts)


@pytest.mark.parametrize("path", _experiment_configs(), ids=lambda p: p.relative_to(EXPERIMENTS).as_posix())
def test_every_shipped_config_loads_and_its_dump_loads_back_to_it(path):
    """The dumped experiment (what the config hash and the run directory's name are made of, and
    what a run's manifest records) validates back to the same experiment, as a run's reader takes
    it (:func:`arena.record.verify.experiment_of`: without the schedule, recorded resolved); a
    transfer config as ``arena transfer`` expands it."""
    from arena.specs.transfer import is_transfer, load_transfer
    from performers.catalog import CATALOG

    experiment = load_transfer(path, CATALOG)[0] if is_transfer(path) else load_experiment(path)
    recorded = {key: value for key, value in json.loads(json.dumps(dump(experiment))).items() if key != "schedule"}
    assert experiment_from_dict(recorded, experiment.source) == replace(experiment, schedule=None)
