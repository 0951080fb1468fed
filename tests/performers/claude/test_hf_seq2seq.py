"""``hf-seq2seq``: every engine equals the naive per-pair forward pass with ``labels=``,
on the toy model and on tiny random models of each supported architecture."""

from __future__ import annotations

import logging

import pytest

from performers.claude.hf_seq2seq import HFSeq2SeqClaude
from performers.claude.seq2seq_engine import Seq2SeqEngine
from tests.performers.built import built
from tests.performers.claude.tiny_models import SEQ2SEQ

# "prefix-bucketed": the prefix engine without per-row positions (follower batches of one shared length)
ENGINES = ("prefix", "prefix-bucketed", "decoder", "forward")
# the engine the load-time probe settles on, per architecture
AUTO_ENGINE = {"marian": "prefix", "fsmt": "forward", "mbart50": "prefix", "m2m100": "prefix", "nllb": "prefix",
               "t5": "prefix", "mt5": "prefix"}
# architectures whose decoder takes per-row positions (absolute position embeddings); T5's are relative
ROW_POSITIONS = {"marian", "mbart50", "m2m100", "nllb"}


def naive_labels_logprobs(backend: Seq2SeqEngine, source: str, target: str) -> tuple[float, int]:
    """One pair, one plain forward pass with ``labels=`` (as common tools score), the
    forced target-language token excluded from the sum."""
    import torch

    tokenizer, model = backend.tokenizer, backend.model
    encoded = tokenizer(backend.source_prefix + source, text_target=target, return_tensors="pt")
    labels = encoded["labels"]
    if backend.forced_bos is not None and labels[0, 0] != backend.forced_bos:
        labels = torch.cat([torch.tensor([[backend.forced_bos]]), labels], dim=1)
    kwargs = {}
    if model.config.model_type == "fsmt":  # FSMT does not shift labels itself
        kwargs["decoder_input_ids"] = model.prepare_decoder_input_ids_from_labels(labels=labels)
    with torch.inference_mode():
        logits = model(input_ids=encoded["input_ids"], attention_mask=encoded["attention_mask"], labels=labels,
                       **kwargs).logits[0]
    logprobs = torch.log_softmax(logits.float(), dim=-1).gather(-1, labels[0][:, None])[:, 0]
    first = 1 if backend.forced_bos is not None else 0
    return float(logprobs[first:].sum()), int(labels.shape[1] - first)


def engine_scores(backend: Seq2SeqEngine, engine: str, pairs) -> list[tuple[float, int]]:
    saved = backend.engine, backend.row_positions
    backend.engine = engine.removesuffix("-bucketed")
    if engine.endswith("-bucketed"):
        backend.row_positions = None
    try:
        results = {}
        for batch in backend.token_logprobs(pairs):
            results.update(batch)
    finally:
        backend.engine, backend.row_positions = saved
    return [(float(results[i].sum()), len(results[i])) for i in range(len(pairs))]


@pytest.fixture(scope="module")
def toy_pairs(triples):
    return [(s, c) for s, c, _ in triples] + [(s, i) for s, _, i in triples]


@pytest.fixture(scope="module")
def toy_naive(toy, toy_pairs):
    return [naive_labels_logprobs(toy.backend, s, t) for s, t in toy_pairs]


@pytest.mark.parametrize("engine", ENGINES)
def test_toy_engines_equal_naive_forward(toy, toy_pairs, toy_naive, engine):
    got = engine_scores(toy.backend, engine, toy_pairs)
    for (value, tokens), (expected, expected_tokens) in zip(got, toy_naive):
        assert tokens == expected_tokens
        assert value == pytest.approx(expected, abs=1e-4)
    # and so the same decisions (no exact ties in this sample)
    half = len(toy_pairs) // 2
    decisions = [got[i][0] / got[i][1] >= got[half + i][0] / got[half + i][1] for i in range(half)]
    expected = [toy_naive[i][0] / toy_naive[i][1] >= toy_naive[half + i][0] / toy_naive[half + i][1] for i in range(half)]
    assert decisions == expected


def test_toy_claude_scores_and_judges(toy, triples, toy_naive):
    sources = [s for s, _, _ in triples]
    scores = toy.score(sources + sources, [c for _, c, _ in triples] + [i for _, _, i in triples])
    assert [s.tokens for s in scores] == [tokens for _, tokens in toy_naive]
    assert [s.logprob for s in scores] == pytest.approx([value for value, _ in toy_naive], abs=1e-4)
    assert toy.backend.engine == "prefix"


def test_too_long_for_the_model_is_nan_and_counted(toy, caplog):
    import math

    with caplog.at_level(logging.WARNING):
        scores = toy.score(["word " * 400, "Hello."], ["Wort.", "Hallo."])
    assert math.isnan(scores[0].logprob) and scores[0].tokens == toy.score(["Word."], ["Wort."])[0].tokens
    assert not math.isnan(scores[1].logprob)
    assert "1 of 2 pairs exceed the model's 256 positions" in caplog.text
    with pytest.raises(ValueError, match="accepts at most 256"):
        toy.backend.requests([("word " * 400, "Wort.")])
    assert toy.translate(["word " * 400, "Hello."], beam=1)[0] == ""


@pytest.mark.parametrize("name", sorted(SEQ2SEQ))
def test_architecture_equals_naive_forward(name, tiny, caplog):
    params = SEQ2SEQ[name][1]
    if name == "m2m100":  # the tiny model's tokenizer (310 pieces) is smaller than its vocabulary (410):
        params = {**params, "decoder": "generate"}  # CTranslate2 refuses to convert it
    with caplog.at_level(logging.INFO):
        claude = HFSeq2SeqClaude(str(tiny(name)), cache=False, progress=False, batch_tokens=256, **params)
    assert claude.backend.engine == AUTO_ENGINE[name]
    assert (claude.backend.row_positions is not None) == (name in ROW_POSITIONS)
    pairs = [
        ("The committee approved the budget for the next two years.",
         "Der Ausschuss hat den Haushalt für die nächsten zwei Jahre genehmigt."),
        ("The committee approved the budget for the next two years.",
         "Der Ausschuss hat den Haushalt für die nächsten zwei Jahre nicht genehmigt."),
        ("Hello.", "Hallo."),
        ("Hello.", "Hallo Welt, wie geht es dir heute?"),
        ("Hello.", "Hallo Welt, wie geht es dir morgen?"),
        ("Two dogs are running.", "Zwei Hunde laufen."),
        ("Two dogs are running.", "Zwei Hunde laufen schnell."),
        ("", "Leer."),
    ]
    naive = [naive_labels_logprobs(claude.backend, s, t) for s, t in pairs]
    engines = ENGINES if AUTO_ENGINE[name] != "forward" else ("forward",)
    for engine in engines:
        for (value, tokens), (expected, expected_tokens) in zip(engine_scores(claude.backend, engine, pairs), naive):
            assert tokens == expected_tokens, engine
            # random tiny models give sums near -1000, where float32 rounding alone is ~1e-4
            assert value == pytest.approx(expected, abs=1e-4, rel=1e-6), engine
    scores = claude.score([s for s, _ in pairs], [t for _, t in pairs])
    assert [s.tokens for s in scores] == [tokens for _, tokens in naive]
    assert [s.logprob for s in scores] == pytest.approx([value for value, _ in naive], abs=1e-4, rel=1e-6)
    translations = claude.translate(["Hello.", "Two dogs are running.", "Hello."], beam=2, max_length=8)
    assert len(translations) == 3 and all(isinstance(t, str) for t in translations)
    assert translations[0] == translations[2]


def test_forced_language_token_is_context_not_scored(tiny):
    claude = HFSeq2SeqClaude(str(tiny("nllb")), cache=False, progress=False, source_lang="eng_Latn",
                             target_lang="deu_Latn")
    (decoder_ids, labels, first), = claude.backend.encode_targets(["Hallo."])
    language = claude.backend.tokenizer.convert_tokens_to_ids("deu_Latn")
    assert labels[0] == language and first == 1
    assert decoder_ids[:2] == (claude.backend.model.config.decoder_start_token_id, language)
    assert claude.score(["Hello."], ["Hallo."])[0].tokens == len(labels) - 1


def test_unknown_target_language(tiny):
    with pytest.raises(ValueError, match="target_lang"):
        HFSeq2SeqClaude(str(tiny("nllb")), cache=False, source_lang="eng_Latn", target_lang="xxx_Yyyy")


class BrokenHead(Seq2SeqEngine):
    """An engine whose output layer is subtly wrong, as an unsupported architecture's
    would be: the load-time probe must notice and fall back to the model's forward."""

    def _head(self, hidden, out=None):
        logits = super()._head(hidden, out)
        logits[..., 5] += 0.01
        return logits


def test_probe_falls_back_to_forward_when_an_engine_is_wrong(tiny, caplog):
    with caplog.at_level(logging.WARNING):
        engine = BrokenHead(str(tiny("marian")))
    assert engine.engine == "forward"
    assert "differs from the plain forward pass" in caplog.text
    pairs = [("Hello.", "Hallo."), ("Hello.", "Hallo Welt.")]
    for (value, _), (expected, _) in zip(engine_scores(engine, "forward", pairs),
                                         [naive_labels_logprobs(engine, s, t) for s, t in pairs]):
        assert value == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"dtype": "fp8"}, "dtype"),
        ({"engine": "fast"}, "engine"),
        ({"batch_tokens": 4}, "batch_tokens"),
        ({"device": "cuda:7"}, "CUDA is not available"),
    ],
)
def test_bad_params(tiny, params, message):
    import torch

    if params.get("device", "").startswith("cuda") and torch.cuda.is_available():
        pytest.skip("CUDA is available here")
    with pytest.raises(ValueError, match=message):
        built(HFSeq2SeqClaude, model=str(tiny("marian")), cache=False, **params)


def test_missing_model():
    with pytest.raises(ValueError, match="cannot load seq2seq model"):
        HFSeq2SeqClaude("/nonexistent/model-dir", cache=False)


@pytest.mark.gpu
def test_gpu_bf16_agrees_with_fp32(triples):
    """On a GPU: fp32 equals the CPU scores; bf16 agrees on >= 99.5% of pair decisions."""
    from performers.claude.toy_en_de import ToyEnDeClaude

    sources = [s for s, _, _ in triples]
    correct, incorrect = [c for _, c, _ in triples], [i for _, _, i in triples]
    cpu = ToyEnDeClaude(cache=False, progress=False)
    gpu = ToyEnDeClaude(device="cuda", cache=False, progress=False)
    half = ToyEnDeClaude(device="cuda", dtype="bf16", cache=False, progress=False)
    reference = cpu.score(sources + sources, correct + incorrect)
    assert [s.logprob for s in gpu.score(sources + sources, correct + incorrect)] == pytest.approx(
        [s.logprob for s in reference], abs=1e-3)
    low = half.score(sources + sources, correct + incorrect)
    n = len(sources)
    agree = sum((reference[i].mean >= reference[n + i].mean) == (low[i].mean >= low[n + i].mean) for i in range(n))
    assert agree / n >= 0.995
