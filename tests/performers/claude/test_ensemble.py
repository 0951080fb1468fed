"""``ensemble``: probability averaging over members, and its beam search."""

from __future__ import annotations

import math

import pytest

from performers.claude.ensemble import EnsembleClaude
from performers.claude.hf_seq2seq import HFSeq2SeqClaude
from tests.performers.built import built

PAIRS = (["Hello.", "Two dogs are running.", "Hello."], ["Hallo.", "Zwei Hunde laufen.", "Hallo Welt."])


@pytest.fixture(scope="module")
def two_models(tiny, tmp_path_factory):
    """A tiny Marian model and a perturbed copy (same vocabulary, other weights)."""
    import torch
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    first = tiny("marian")
    second = tmp_path_factory.mktemp("marian-b")
    model = AutoModelForSeq2SeqLM.from_pretrained(first)
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.add_(torch.randn(parameter.shape, generator=generator) * 0.05)
    model.save_pretrained(second)
    AutoTokenizer.from_pretrained(first).save_pretrained(second)
    return str(first), str(second)


def test_scores_average_token_probabilities(two_models):
    weights = [0.25, 0.75]
    ensemble = EnsembleClaude(models=list(two_models), weights=[1, 3], cache=False, progress=False)
    assert ensemble.weights == weights
    members = [dict(p for batch in m.token_logprobs(list(zip(*PAIRS))) for p in batch) for m in ensemble.members]
    for index, score in enumerate(ensemble.score(*PAIRS)):
        expected = sum(
            math.log(sum(w * math.exp(lp[index][t]) for w, lp in zip(weights, members)))
            for t in range(len(members[0][index]))
        )
        assert score.tokens == len(members[0][index])
        assert score.logprob == pytest.approx(expected, abs=1e-5)


def test_ensemble_of_one_is_the_model(two_models):
    single = HFSeq2SeqClaude(two_models[0], cache=False, progress=False, decoder="generate")
    ensemble = EnsembleClaude(models=[two_models[0]], cache=False, progress=False)
    assert [s.logprob for s in ensemble.score(*PAIRS)] == pytest.approx(
        [s.logprob for s in single.score(*PAIRS)], abs=1e-5)
    sources = ["Hello.", "Two dogs are running.", "The committee approved the new budget."]
    assert ensemble.translate(sources, beam=1, max_length=12) == single.translate(sources, beam=1, max_length=12)
    beam = ensemble.translate(sources, beam=3, max_length=12)
    assert len(beam) == 3 and all(isinstance(t, str) for t in beam)


def test_toy_greedy_equals_transformers(triples):
    from performers.claude.toy_en_de import MODEL_DIR, ToyEnDeClaude

    ensemble = EnsembleClaude(models=[str(MODEL_DIR)], cache=False, progress=False)
    sources = [s for s, _, _ in triples[:4]]
    generate = ToyEnDeClaude(cache=False, progress=False, decoder="generate")
    assert ensemble.translate(sources, beam=1) == generate.translate(sources, beam=1)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"models": []}, "non-empty list"),
        ({"models": "a"}, "non-empty list"),
        ({"models": ["a", "b"], "weights": [1]}, "'weights' gives 1 weight"),
        ({"models": ["a"], "weights": [-1]}, "parameter 'weights' must be a list of a number > 0"),
    ],
)
def test_bad_params(params, message, monkeypatch):
    monkeypatch.setenv("ARENA_SKIP_MODEL_CHECK", "1")  # the models named need not exist to be refused
    with pytest.raises(ValueError, match=message):
        built(EnsembleClaude, cache=False, **params)


def test_members_must_share_a_vocabulary(tiny):
    with pytest.raises(ValueError, match="share a vocabulary|tokenizer belong to the model"):
        EnsembleClaude(models=[str(tiny("marian")), str(tiny("fsmt"))], tokenizer=str(tiny("marian")), cache=False)
