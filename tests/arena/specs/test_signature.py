"""The run signature (arena/specs/signature.py): every field that changes an experiment
changes the signature; the same experiment and data give the same one."""

from __future__ import annotations

import copy

import pytest

from arena.specs.registry import signature as performer_signature
from arena.specs.signature import data_digests, run_signature
from arena.specs.spec import parse_spec
from performers.catalog import CATALOG


def _round(john: str, instance: str, source: str = "A house.", reference: str = "Ein Haus.") -> dict:
    return {"john": john, "instance": {"id": instance, "source": source, "reference": reference, "meta": {}}}


BASE_MANIFEST = {
    "experiment": {
        "name": "sig",
        "description": "",
        "johns": [{"name": "distil-lingeval", "params": {"dir": "x/placeholder_ding.human"}, "alias": "ding"}],
        "zelligs": [{"name": "replay", "params": {}}],
        "claudes": [{"name": "toy-en-de", "params": {}, "alias": "toy"}, {"name": "random", "params": {}}],
        "seeds": [1],
        "variants_per_instance": 1,
        "max_instances": None,
        "contrastive_ties": "wrong",
        "discrepancy": True,
        "beam": 5,
        "generative_rate": True,
        "bootstrap_samples": 1000,
        "breakdowns": [],
        "executor": "in-process",
        "time_budget": {"zellig_seconds": None, "claude_seconds_per_pair": None},
        "ray": {"address": None},
    },
    "signatures": {
        "johns": {"ding": "distil-lingeval@1(dir=x/placeholder_ding.human)"},
        "zelligs": {"replay": "replay@1()"},
        "claudes": {"toy": "toy-en-de@1()+model.8d679640", "random": "random@1()"},
    },
    "versions": {"arena": "0.1.0"},
}
BASE_ROUNDS = [_round("ding", "a.1"), _round("ding", "a.2", "Two.", "Zwei.")]


def _set(path: str, value):
    def change(manifest, rounds):
        node = manifest
        keys = path.split(".")
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        last = keys[-1]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


def _data(manifest, rounds):
    rounds[1]["instance"]["reference"] = "Zwo."


def _more_data(manifest, rounds):
    rounds.append(_round("ding", "a.3"))


# each case changes one thing an experiment is made of
VARIATIONS = {
    "john data": _data,
    "john data size": _more_data,
    "john version": _set("signatures.johns.ding", "distil-lingeval@2(dir=x/placeholder_ding.human)"),
    "john params": _set("experiment.johns.0.params", {"dir": "x/placeholder_ding.mt"}),
    "zellig version": _set("signatures.zelligs.replay", "replay@2()"),
    "zellig params": _set("experiment.zelligs.0.params", {"detector": "placeholder-ding"}),
    "claude model digest": _set("signatures.claudes.toy", "toy-en-de@1()+model.00000000"),
    "claude decoder": _set("signatures.claudes.toy", "toy-en-de@1()+model.8d679640+decoder.generate-5.24.0/float32/beam5/lp1"),
    "claude version": _set("signatures.claudes.random", "random@2()"),
    "claude params": _set("experiment.claudes.1.params", {"seed": 3}),
    "k": _set("experiment.variants_per_instance", 2),
    "seeds": _set("experiment.seeds", [1, 2]),
    "ties": _set("experiment.contrastive_ties", "half"),
    "schedule": _set("experiment.schedule", "supervised"),
    "visibility": _set("experiment.claudes.0.sees", {"source": False}),
    "metadata visibility": _set("experiment.claudes.0.sees", {"metadata": True}),
    "arena version": _set("versions.arena", "0.2.0"),
    "beam": _set("experiment.beam", 4),
    "bootstrap samples": _set("experiment.bootstrap_samples", 200),
    "max instances": _set("experiment.max_instances", 10),
    "time budget": _set("experiment.time_budget.zellig_seconds", 1.0),
}
# what does not change a number must not change the signature
SAME = {
    "name": _set("experiment.name", "other"),
    "description": _set("experiment.description", "words"),
    "executor": _set("experiment.executor", "ray"),
    "ray options": _set("experiment.ray", {"address": "ray://head:10001"}),
}


def _signature(change=None) -> str:
    manifest, rounds = copy.deepcopy(BASE_MANIFEST), copy.deepcopy(BASE_ROUNDS)
    if change is not None:
        change(manifest, rounds)
    return run_signature(manifest, rounds)


def test_fields_are_readable():
    text = _signature()
    fields = dict(field.split(":", 1) for field in text.split("|"))
    assert fields["john"] == f"ding=distil-lingeval@1+data.{data_digests(BASE_ROUNDS)['ding']}"
    assert fields["zellig"] == "replay@1"
    assert fields["claude"] == "toy=toy-en-de@1+model.8d679640,random@1"
    assert (fields["k"], fields["seeds"], fields["ties"]) == ("1", "1", "wrong")
    assert (fields["schedule"], fields["visibility"], fields["arena"]) == ("none", "adequacy", "0.1.0")
    assert len(fields["cfg"]) == 10


@pytest.mark.parametrize("case", sorted(VARIATIONS))
def test_every_field_changes_the_signature(case):
    assert _signature(VARIATIONS[case]) != _signature()


def test_all_variations_differ_from_each_other():
    signatures = {case: _signature(change) for case, change in VARIATIONS.items()}
    assert len(set(signatures.values())) == len(signatures)


@pytest.mark.parametrize("case", sorted(SAME))
def test_naming_and_placement_keep_the_signature(case):
    assert _signature(SAME[case]) == _signature()


def test_visibility_per_claude():
    text = _signature(_set("experiment.claudes.0.sees", {"source": False, "metadata": True}))
    assert "visibility:toy=fluency+metadata,random=adequacy" in text


def test_model_digest_follows_the_model_files(tmp_path):
    for name, text in (("a", '{"d_model": 8}'), ("b", '{"d_model": 16}')):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text(text)
    first = performer_signature("claude", parse_spec(f"hf-seq2seq:model={tmp_path / 'a'},cache=false"), CATALOG)
    second = performer_signature("claude", parse_spec(f"hf-seq2seq:model={tmp_path / 'b'},cache=false"), CATALOG)
    again = performer_signature("claude", parse_spec(f"hf-seq2seq:model={tmp_path / 'a'},cache=false"), CATALOG)
    assert "+model." in first and first.split("+model.")[1] != second.split("+model.")[1]
    assert first == again
    # a hub model (not cached here, no network needed) is named by name and revision
    hub = performer_signature("claude", parse_spec("hf-seq2seq:model=org/model"), CATALOG)
    other = performer_signature("claude", parse_spec("hf-seq2seq:model=org/model,revision=v2"), CATALOG)
    assert hub.split("+model.")[1] != other.split("+model.")[1]
    # performers without a model have no model digest
    assert performer_signature("claude", parse_spec("random:seed=3"), CATALOG) == "random@1(seed=3)"


SIGNATURE_TEXTS = [  # (text, name, version, model, decoder, run-signature part)
    ("random@1(seed=2)", "random", "1", None, None, "random@1"),
    ("toy-en-de@1()+model.8d679640+decoder.generate-5.24.0/float32/beam5/lp1", "toy-en-de", "1", "8d679640",
     "generate-5.24.0/float32/beam5/lp1", "toy-en-de@1+model.8d679640+decoder.generate-5.24.0/float32/beam5/lp1"),
    ("ens@1(models=[a,b])+model.ab12cd34+decoder.incremental-2.13.0+cpu/float32/beam4[sees:fluency]", "ens", "1",
     "ab12cd34", "incremental-2.13.0+cpu/float32/beam4", "ens@1+model.ab12cd34+decoder.incremental-2.13.0+cpu/float32/beam4[sees:fluency]"),
    # a param that looks like a suffix is a param; without a model the run signature names name@version only
    ("x.y:Claude@2(a=b+model.c,d=(e)[sees:fluency+metadata]", "x.y:Claude", "2", None, None, "x.y:Claude@2"),
    ("distil-lingeval@1(dir=d)[balance:length]", "distil-lingeval", "1", None, None, "distil-lingeval@1"),
]


@pytest.mark.parametrize("text, name, version, model, decoder, in_run", SIGNATURE_TEXTS)
def test_a_signature_reads_back_to_the_same_text(text, name, version, model, decoder, in_run):
    from arena.specs.signature import Signature

    signature = Signature.parse(text)
    assert str(signature) == text
    assert (signature.name, signature.version, signature.model) == (name, version, model)
    assert (None if signature.decoder is None else str(signature.decoder)) == decoder
    assert signature.in_run_signature() == in_run


@pytest.mark.parametrize("text", ["random", "random@1(seed=2", "t@1()+decoder.generate/float32"])
def test_text_that_is_no_signature_is_refused(text):
    from arena.specs.signature import Signature

    with pytest.raises(ValueError, match="is not a"):
        Signature.parse(text)


def test_the_decoder_has_typed_fields():
    from arena.specs.signature import Decoder

    decoder = Decoder.parse("ctranslate2-4.8.5/int8/beam5/lp0.6")
    assert (decoder.backend, decoder.version, decoder.compute, decoder.beam, decoder.length_penalty) == (
        "ctranslate2", "4.8.5", "int8", 5, 0.6)
    assert str(decoder) == "ctranslate2-4.8.5/int8/beam5/lp0.6"
