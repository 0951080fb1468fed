"""The model Claudes' shared settings: declared once in :class:`ModelSettings`, each Claude's
constructor put together from them and its own parameters (:func:`takes_settings`)."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from arena.specs.typecheck import type_hints
from performers.catalog import CATALOG
from performers.claude.model_settings import SHARED, ModelSettings, takes_settings
from performers.claude.params import ModelName

# catalog name → (own parameters, shared defaults it overrides)
MODEL_CLAUDES = {
    "hf-seq2seq": ({"model"}, {}),
    "toy-en-de": ({"model"}, {}),
    "fairseq": ({"checkpoint", "checkpoint_file", "bpe_codes", "source_lang", "target_lang", "trusted"}, {}),
    "ensemble": ({"models", "weights"}, {}),
    "causal-lm": ({"model", "prefix", "separator", "add_bos", "add_eos"}, {"convention": "sum"}),
    "ctranslate2": ({"model", "compute_type", "batch_tokens", "exact", "max_positions"}, {}),
    "toy-en-de-ct2": ({"compute_type", "batch_tokens"}, {}),
}


def claude_class(name: str) -> type:
    from arena.specs.registry import import_path

    return import_path(CATALOG.table("claude")[name])


@pytest.mark.parametrize("name", sorted(MODEL_CLAUDES))
def test_shared_parameters_come_from_the_settings(name):
    own, overrides = MODEL_CLAUDES[name]
    cls = claude_class(name)
    hints = type_hints(cls)
    settings_hints = type_hints(ModelSettings)
    shared = [p for p in inspect.signature(cls).parameters.values() if p.name not in own]
    assert {"convention", "cache", "progress", "device", "threads"} <= {p.name for p in shared}
    for parameter in shared:
        assert parameter.annotation == SHARED[parameter.name].type
        assert parameter.default == overrides.get(parameter.name, SHARED[parameter.name].default)
        assert hints[parameter.name] == settings_hints[parameter.name]


def test_settings_reach_the_claude_and_its_own_parameters_stay_its_own():
    seen = {}

    class Probe:
        @takes_settings("model", "device", "source_lang", "convention", defaults={"convention": "sum"})
        def __init__(self, settings: ModelSettings, model: ModelName, source_lang: str = "de") -> None:
            seen.update(settings=settings, model=model, source_lang=source_lang)

    Probe("m", "cuda")  # positional, in the declared order
    assert seen == {"settings": ModelSettings(device="cuda", convention="sum"), "model": "m", "source_lang": "de"}
    Probe(model="m", source_lang="en")
    assert seen["source_lang"] == "en" and seen["settings"].source_lang is None
    with pytest.raises(TypeError):
        Probe(model="m", dtype="bf16")  # a setting this Claude does not take
    assert list(inspect.signature(Probe).parameters) == ["model", "device", "source_lang", "convention"]


@pytest.mark.parametrize("order", [("model", "colour"), ("device",)])  # not a setting; own `model` unnamed
def test_a_declaration_that_does_not_fit_is_refused(order):
    with pytest.raises(TypeError):
        takes_settings(*order)(lambda self, settings, model: None)


def test_every_settings_field_is_taken_by_some_claude():
    taken = {p for name in MODEL_CLAUDES for p in inspect.signature(claude_class(name)).parameters}
    assert {field.name for field in dataclasses.fields(ModelSettings)} <= taken
