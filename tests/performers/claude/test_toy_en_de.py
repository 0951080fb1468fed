"""``toy-en-de``: the shipped model, its cache behaviour and the discrepancy workflow."""

from __future__ import annotations

import json
import statistics
import struct

import pytest

from arena.records import Pair
from arena.specs.conformance import assert_conforms, check_claude
from performers.claude.toy_en_de import MODEL_DIR, ToyEnDeClaude
from tests.performers.built import built

SHIPPED = ("config.json", "generation_config.json", "model.safetensors", "source.spm", "target.spm",
           "tokenizer_config.json", "vocab.json", "card.md")


def safetensors_dtypes(path) -> set[str]:
    with open(path, "rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
    return {entry["dtype"] for name, entry in header.items() if name != "__metadata__"}


def test_shipped_files():
    for name in SHIPPED:
        assert (MODEL_DIR / name).is_file(), name
    weights = MODEL_DIR / "model.safetensors"
    assert weights.stat().st_size < 20_000_000
    assert safetensors_dtypes(weights) == {"F16"}


def test_loads_as_float32_on_cpu(toy):
    import torch

    assert {p.dtype for p in toy.backend.model.parameters()} == {torch.float32}
    assert toy.backend.device == "cpu"
    assert toy.convention == "mean"


def test_conforms(toy, triples):
    pairs = [Pair(f"p{i}", s, (c, x)) for i, (s, c, x) in enumerate(triples[:8])]
    assert_conforms(check_claude(toy, pairs), "toy-en-de")


def test_prefers_correct_translations(distil_dir):
    """A weak model, but clearly better than chance on the placeholder test set
    (the model card reports 89% on its first 300 pairs)."""
    from arena.formats.distil_lingeval import read_distil_lingeval

    pairs = read_distil_lingeval(distil_dir / "placeholder_ding.mt").pairs[:60]
    claude = ToyEnDeClaude(cache=False, progress=False)
    judgements = claude.judge([Pair(str(i), p.source, (p.correct, p.incorrect)) for i, p in enumerate(pairs)])
    accuracy = sum(j.corrupted == 1 for j in judgements) / len(judgements)
    assert accuracy >= 0.75


def test_second_run_is_served_from_cache(tmp_path, triples, monkeypatch):
    cache = str(tmp_path / "cache")
    sources = [s for s, _, _ in triples[:6]]
    targets = [c for _, c, _ in triples[:6]]
    first = ToyEnDeClaude(cache=cache, progress=False)
    scores = first.score(sources, targets)
    translations = first.translate(sources[:3], beam=2)
    second = ToyEnDeClaude(cache=cache, progress=False)

    def fail(*args, **kwargs):
        raise AssertionError("the model was asked again")

    monkeypatch.setattr(second.backend, "token_logprobs", fail)
    monkeypatch.setattr(second.backend, "translate", fail)
    monkeypatch.setattr(second._ct2_decoder(), "beam_search", fail)
    assert second.score(sources, targets) == scores
    assert second.translate(sources[:3], beam=2) == translations
    float16 = ToyEnDeClaude(cache=cache, progress=False, dtype="bf16")  # another dtype is another cache key
    assert float16.identity()["dtype"] == "bfloat16"
    assert float16._cache_model() != second._cache_model()
    assert "device" not in second.identity()  # the CPU's key as before the device was a part of it


@pytest.mark.parametrize("device, identity", [
    ("cpu", {}), ("cuda", {"device": "cuda"}), ("cuda:1", {"device": "cuda"}), ("mps", {"device": "mps"}),
])
def test_a_score_is_cached_for_its_kind_of_device(device, identity):
    """A GPU's log-probabilities differ from the CPU's in the last digits: a score computed on one kind
    of device is never served to a Claude on another (the CPU's entries keep their key)."""
    from performers.claude.engine_settings import device_identity

    assert device_identity(device) == identity


def test_discrepancy_workflow(toy, triples):
    """translate(distinct sources) then score(sources, 1-bests): the model's own beam
    output is, on average, more probable than the human reference."""
    sources = [s for s, _, _ in triples[:8]]
    one_best = toy.translate(sources, beam=5)
    assert len(one_best) == len(sources) and all(isinstance(t, str) and t for t in one_best)
    own = toy.score(sources, one_best)
    reference = toy.score(sources, [c for _, c, _ in triples[:8]])
    assert sum(s.mean for s in own) > sum(s.mean for s in reference)


def test_one_best_decoder_is_ctranslate2_when_the_model_converts(toy):
    assert toy.translation_settings()["decoder"].startswith("ctranslate2-")
    assert toy.translation_settings()["decoder"].endswith("/float32")
    generate = ToyEnDeClaude(cache=False, progress=False, decoder="generate")
    assert "decoder" not in generate.translation_settings()  # another cache key
    with pytest.raises(ValueError, match="parameter 'decoder' must be one of auto, ctranslate2, generate"):
        built(ToyEnDeClaude, cache=False, progress=False, decoder="fairseq")


def test_ctranslate2_one_best_agrees_with_generate(toy, triples):
    """Same weights, two beam searches: most 1-bests are identical and the rest score
    about as well under the model (measured on 300 quickstart sources in
    experiments/README-claude.md)."""
    sources = list(dict.fromkeys(s for s, _, _ in triples))[:24]
    ct2 = toy.translate(sources, beam=5)
    generate = ToyEnDeClaude(cache=False, progress=False, decoder="generate").translate(sources, beam=5)
    assert sum(a == b for a, b in zip(ct2, generate)) >= 0.75 * len(sources)
    gap = statistics.mean(s.mean for s in toy.score(sources, generate)) - statistics.mean(
        s.mean for s in toy.score(sources, ct2))
    assert abs(gap) < 0.05


@pytest.mark.parametrize("decoder", ["auto", "ctranslate2"])
def test_a_failed_conversion_is_an_error_not_another_decoder(monkeypatch, decoder):
    """The signature names CTranslate2 for a model whose architecture converts: a conversion
    that fails all the same must not decode with generate under that signature."""
    import performers.claude.ct2 as ct2

    class Unconvertible:
        def __init__(self, *args, **kwargs):
            raise ValueError("cannot convert 'x' to CTranslate2: unsupported architecture")

    monkeypatch.setattr(ct2, "CTranslate2Claude", Unconvertible)
    claude = ToyEnDeClaude(cache=False, progress=False, decoder=decoder)
    with pytest.raises(ValueError, match="decodes with CTranslate2, but cannot convert"):
        claude.translate(["Hello."], beam=2)


def test_generate_decodes_where_the_architecture_does_not_convert(monkeypatch):
    from performers.claude import decoding

    monkeypatch.setattr(decoding, "ct2_converts", lambda model, revision=None: False)
    claude = ToyEnDeClaude(cache=False, progress=False)
    assert "decoder" not in claude.translation_settings()
    asked: list[str] = []
    monkeypatch.setattr(claude.backend, "translate", lambda sources, beam, max_length: iter(
        [[(i, f"generate {beam}") for i, _ in enumerate(asked.extend(sources) or sources)]]))
    assert claude.translate(["Hello."], beam=2) == ["generate 2"]
    assert asked == ["Hello."]

def test_no_loading_bars_when_progress_is_off(monkeypatch, capfd):
    """A notebook's score_pairs with progress off prints no Transformers "Loading weights" bar,
    and Transformers' own setting is as it was afterwards."""
    from transformers.utils import logging as hf_logging

    monkeypatch.delenv("ARENA_PROGRESS", raising=False)
    hf_logging.enable_progress_bar()
    capfd.readouterr()
    ToyEnDeClaude(cache=False, progress=False)
    assert "Loading weights" not in capfd.readouterr().err
    assert hf_logging.is_progress_bar_enabled()
