from __future__ import annotations

import pytest

from arena.specs.config import load_experiment

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
        (GOOD.replace("seeds: [1, 2]", "seeds: one"), r"exp.yaml:7: 'seeds' must be an integer or a list of distinct integers, not 'one'"),
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
