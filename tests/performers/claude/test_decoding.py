"""The decoder is part of a Claude's signature (performers/claude/decoding.py): the same Claude
with each available decoder gives different signatures or the same 1-bests."""

from __future__ import annotations

import itertools

import pytest

from arena.specs.registry import signature
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG
from performers.claude import decoding
from performers.claude.toy_en_de import MODEL_DIR, ToyEnDeClaude

from .conftest import distil_sample

# every decoder the toy Claude can be given, and the CTranslate2 Claude of the same model
DECODERS = [("toy-en-de", {"decoder": "auto"}), ("toy-en-de", {"decoder": "ctranslate2"}),
            ("toy-en-de", {"decoder": "generate"}), ("toy-en-de-ct2", {"compute_type": "float32"})]


def one_bests(name: str, params: dict, sources: list[str]) -> list[str]:
    from performers.claude.toy_en_de_ct2 import ToyEnDeCT2Claude

    cls = ToyEnDeClaude if name == "toy-en-de" else ToyEnDeCT2Claude
    return cls(cache=False, progress=False, threads=1, **params).translate(sources, beam=5)


def test_one_signature_one_set_of_one_bests():
    sources = list(dict.fromkeys(source for source, _, _ in distil_sample(per_set=6)))
    runs = []
    for name, params in DECODERS:
        text = signature("claude", PerformerSpec(name, params), CATALOG, beam=5)
        signed = text.split("+decoder.", 1)[1]
        runs.append((signed, one_bests(name, params, sources)))
    for (first, a), (second, b) in itertools.combinations(runs, 2):
        assert first != second or a == b, (first, second)
    # auto and ctranslate2 are one decoder (same signed decoder, same 1-bests); generate is another
    assert runs[0][0] == runs[1][0] and runs[0][1] == runs[1][1]
    assert runs[2][0].startswith("generate-") and runs[0][0].startswith("ctranslate2-")


@pytest.mark.parametrize(("params", "beam", "signed"), [
    ({}, 5, "+decoder.ctranslate2-{ct2}/float32/beam5/lp1"),
    ({"decoder": "generate"}, 4, "+decoder.generate-{transformers}/float32/beam4/lp1"),
    ({"dtype": "bf16"}, 5, "+decoder.ctranslate2-{ct2}/bfloat16/beam5/lp1"),
    ({"device": "cuda:1"}, 5, "+decoder.generate-{transformers}/float32/beam5/lp1"),  # CTranslate2: cpu or cuda
    ({}, None, None),  # no 1-best decoding in the run: no decoder in the signature (must not fire)
])
def test_the_signature_names_the_decoder(params, beam, signed):
    text = signature("claude", PerformerSpec("toy-en-de", params), CATALOG, beam=beam)
    if signed is None:
        assert "+decoder." not in text
    else:
        assert text.endswith(signed.format(ct2=decoding.version("ctranslate2"),
                                           transformers=decoding.version("transformers")))


def test_claudes_that_do_not_decode_sign_no_decoder():
    assert signature("claude", PerformerSpec("random", {}), CATALOG, beam=5) == "random@1()"


def test_the_length_penalty_of_the_generation_config_is_signed(tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text('{"model_type": "marian"}', encoding="utf-8")
    (model / "generation_config.json").write_text('{"length_penalty": 0.6}', encoding="utf-8")
    assert decoding.length_penalty(str(model)) == 0.6
    assert decoding.length_penalty(str(MODEL_DIR)) == 1.0  # sets none: Transformers' default
    assert decoding.ct2_converts(str(model))
    for model_type in ("fsmt", "mbart"):  # FSMT has no converter, mBART's fails with Transformers 5
        (model / "config.json").write_text(f'{{"model_type": "{model_type}"}}', encoding="utf-8")
        assert not decoding.ct2_converts(str(model)), model_type


def test_the_convertible_types_are_the_converters():
    from ctranslate2.converters.transformers import _MODEL_LOADERS
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

    for model_type in decoding.CT2_MODEL_TYPES:
        assert CONFIG_MAPPING_NAMES[model_type] in _MODEL_LOADERS, model_type
    assert CONFIG_MAPPING_NAMES["fsmt"] not in _MODEL_LOADERS
