"""A John's ``balance:`` in a config: what is accepted, what is refused (naming file, line and key),
and how it shows in the label, the JSON of the spec and the signature."""

from __future__ import annotations

import pytest

from arena.codec import dump
from arena.errors import ConfigError
from arena.specs.config import load_experiment
from arena.specs.registry import signature
from arena.specs.spec import PerformerSpec, spec_from_mapping
from performers.catalog import CATALOG

BASE = """name: b
johns:
  - name: newstest
    {balance}
zelligs: [{zellig}]
claudes: [random]
"""


def write(tmp_path, balance: str = "", zellig: str = "replay"):
    path = tmp_path / "b.yaml"
    path.write_text(BASE.format(balance=balance, zellig=zellig), encoding="utf-8")
    return path


@pytest.mark.parametrize("balance, message", [
    ("balance: {cue: edit-words}", "'johns.0.balance.cue' must be one of length .*, not 'edit-words'"),
    ("balance: {cue: target-lm}", "'johns.0.balance.cue' must be one of length .*target-lm is a scoring Claude"),
    ("balance: {}", "missing key 'johns.0.balance.cue'; it must be one of length"),
    ("balance: length", "'johns.0.balance' must be a mapping"),
    ("balance: {cue: length, per: set}", "unknown key 'johns.0.balance.per'; allowed keys: cue"),
])
def test_bad_balance_is_refused(tmp_path, balance, message):
    with pytest.raises(ConfigError, match=message) as raised:
        load_experiment(write(tmp_path, balance))
    assert "b.yaml:4: " in str(raised.value)  # the line of the balance key


@pytest.mark.parametrize("zellig", [
    "{name: replay, balance: {cue: length}}",
])
def test_only_a_john_balances(tmp_path, zellig):
    with pytest.raises(ConfigError, match="zelligs' may not list 'balance'"):
        load_experiment(write(tmp_path, zellig=zellig))


def test_balanced_john_label_json_and_signature(tmp_path):
    experiment = load_experiment(write(tmp_path, "balance: {cue: length}"))
    (john,) = experiment.johns
    assert john.balance == {"cue": "length"}
    assert john.label == "newstest+balance:length"
    assert dump(john)["balance"] == {"cue": "length"}
    assert signature("john", john, CATALOG).endswith("[balance:length]")


@pytest.mark.parametrize("data", [
    {"name": "newstest"},
    {"name": "newstest", "alias": "plain"},
])
def test_no_balance_changes_nothing(data):
    spec = spec_from_mapping(data, "test")
    assert spec.balance == {} and "balance" not in dump(spec) and "+balance" not in spec.label
    assert spec == PerformerSpec(**{key: value for key, value in data.items()})
