from __future__ import annotations

import pytest

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
