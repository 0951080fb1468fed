from __future__ import annotations

from typing import Annotated, Literal

import pytest
from annotated_types import Ge, MinLen

from arena.errors import ConfigError
from arena.specs.registry import Catalog, build, check_params, resolve, signature
from arena.specs.spec import PerformerSpec, parse_spec

CATALOG = Catalog(
    johns={},
    zelligs={"replay": "performers.zellig.replay:ReplayZellig"},
    claudes={"random": "performers.claude.random:RandomClaude", "oracle": "performers.claude.oracle:OracleClaude"},
)


@pytest.mark.parametrize(
    "text, name, params",
    [
        ("toy-en-de", "toy-en-de", {}),
        ("random:seed=3", "random", {"seed": 3}),
        ("hf-seq2seq:model=Helsinki-NLP/opus-mt-en-de,device=cuda", "hf-seq2seq",
         {"model": "Helsinki-NLP/opus-mt-en-de", "device": "cuda"}),
        ("newstest:years=[2009,2010],dir=../x", "newstest", {"years": [2009, 2010], "dir": "../x"}),
        ("mylab.claudes:MyClaude:beam=4", "mylab.claudes:MyClaude", {"beam": 4}),
        ("mylab.claudes:MyClaude", "mylab.claudes:MyClaude", {}),
        ("x:flag=true,name='a,b'", "x", {"flag": True, "name": "a,b"}),
    ],
)
def test_parse_spec(text, name, params):
    spec = parse_spec(text)
    assert (spec.name, dict(spec.params)) == (name, params)


@pytest.mark.parametrize("text, message", [("random:seed", "key=value"), ("random:a=1,a=2", "twice"), ("", "empty")])
def test_parse_spec_errors(text, message):
    with pytest.raises(ValueError, match=message):
        parse_spec(text)


def test_spec_from_yaml_file(tmp_path):
    path = tmp_path / "claude.yaml"
    path.write_text("name: random\nparams: {seed: 7}\n")
    assert parse_spec(str(path)) == PerformerSpec("random", {"seed": 7})
    path.write_text("name: random\nparam: {seed: 7}\n")
    with pytest.raises(ValueError, match="unknown key.*param.*allowed keys: name, params"):
        parse_spec(str(path))


def test_resolve_unknown_name_suggests():
    with pytest.raises(ValueError, match="unknown Claude 'randon'.*Did you mean random"):
        resolve("claude", "randon", CATALOG)


def test_check_params_names_unknown_and_allowed():
    cls = resolve("claude", "random", CATALOG)
    with pytest.raises(ValueError, match="no parameter.*sed.*allowed: seed"):
        check_params(cls, {"sed": 1})
    check_params(cls, {"seed": 1})


def test_module_class_path_bypasses_catalog():
    claude = build("claude", PerformerSpec("performers.claude.random:RandomClaude", {"seed": 2}), CATALOG)
    assert claude.seed == 2


def test_signature():
    assert signature("claude", PerformerSpec("random", {"seed": 2}), CATALOG) == "random@1(seed=2)"


PositiveIntParam = Annotated[int, Ge(1)]
ModeParam = Literal["a", "b"]
NameParam = Annotated[str, MinLen(1)]


class Declared:
    """A performer whose params say everything in their annotations (no checks in the constructor)."""

    def __init__(self, n: PositiveIntParam = 1, mode: ModeParam = "a", names: list[NameParam] | None = None,
                 rate: float = 0.5, thing: Opaque | None = None):
        self.n = n

    def judge(self, pairs):
        return []


class Opaque:  # a class of the user's: an instance of it is what the annotation admits
    def __init__(self, *args) -> None: ...


@pytest.mark.parametrize("params, message", [
    ({"n": 0}, "Declared parameter 'n' must be an integer ≥ 1, not 0"),
    ({"n": True}, "Declared parameter 'n' must be an integer ≥ 1, not True"),
    ({"mode": "c"}, "Declared parameter 'mode' must be one of a, b, not 'c'"),
    ({"names": ["x", ""]}, "Declared parameter 'names' must be a list of a non-empty string or null, not ['x', '']"),
    ({"rate": float("nan")}, "Declared parameter 'rate' must be a finite number, not nan"),
    ({"mode": "c", "n": 0}, "parameter 'mode'"),  # the first refused in the order the config gives them
    ({"thing": "anything"}, "Declared parameter 'thing' must be Opaque or null, not 'anything'"),
    ({"m": 1, "x": 2}, "Declared has no parameter(s) m, x; allowed: n, mode, names, rate, thing"),
])
def test_params_are_refused_by_their_annotations(params, message):
    with pytest.raises(ConfigError) as caught:
        check_params(Declared, params)
    assert message in str(caught.value)


@pytest.mark.parametrize("params", [{}, {"n": 3, "mode": "b", "names": ["x"], "rate": 2}, {"rate": 0}, {"names": None},
                                    {"thing": Opaque()}])
def test_declared_params_pass(params):
    check_params(Declared, params)  # an int where a float is declared, null where it is allowed: accepted
