"""``ctranslate2`` / ``toy-en-de-ct2``: exact Marian conversion, agreement with ``hf-seq2seq``."""

from __future__ import annotations

import pytest

from performers.claude.ct2 import CTranslate2Claude
from performers.claude.toy_en_de import MODEL_DIR
from performers.claude.toy_en_de_ct2 import ToyEnDeCT2Claude
from tests.conftest import SHARED, require_shared
from tests.performers.built import built


@pytest.fixture(scope="module")
def sample(triples):
    sources = [s for s, _, _ in triples]
    return sources + sources, [c for _, c, _ in triples] + [i for _, _, i in triples]


@pytest.fixture(scope="module")
def reference(toy, sample):
    return toy.score(*sample)


@pytest.fixture(scope="module")
def float32():
    return ToyEnDeCT2Claude(compute_type="float32", cache=False, progress=False, threads=1)


def decisions(scores):
    half = len(scores) // 2
    return [scores[i].mean >= scores[half + i].mean for i in range(half)]


def test_float32_equals_transformers(float32, sample, reference):
    got = float32.score(*sample)
    assert [s.tokens for s in got] == [s.tokens for s in reference]
    assert [s.logprob for s in got] == pytest.approx([s.logprob for s in reference], abs=2e-4)
    assert decisions(got) == decisions(reference)


def test_greedy_translations_equal_transformers(float32, toy, sample):
    sources = list(dict.fromkeys(sample[0]))[:6] + ["word " * 300]  # the last one is too long for the model
    assert float32.translate(sources, beam=1) == toy.translate(sources, beam=1)
    assert float32.translate(sources[-1:], beam=1) == [""]


def test_int8_agrees_on_decisions(sample, reference):
    int8 = ToyEnDeCT2Claude(cache=False, progress=False, threads=1)
    assert int8.compute_type == "int8"
    got = int8.score(*sample)
    assert [s.tokens for s in got] == [s.tokens for s in reference]
    agree = sum(a == b for a, b in zip(decisions(got), decisions(reference)))
    assert agree / len(decisions(reference)) >= 0.9


def test_conversion_is_cached(float32, isolated_cache_dir):
    assert float32.model_dir.parent == isolated_cache_dir / "ct2"
    assert (float32.model_dir / "arena-conversion.json").is_file()
    again = ToyEnDeCT2Claude(compute_type="float32", cache=False, progress=False, threads=1)
    assert again.model_dir == float32.model_dir


def test_stock_conversion_differs_for_this_model(sample, reference):
    """CTranslate2's own Marian conversion starts the decoder from a zero vector and
    drops <pad>; the toy model's trained <pad> embedding makes that a different model."""
    stock = CTranslate2Claude(str(MODEL_DIR), compute_type="float32", exact=False, cache=False, progress=False, threads=1)
    got = stock.score(sample[0][:5], sample[1][:5])
    assert max(abs(a.logprob - b.logprob) for a, b in zip(got, reference[:5])) > 0.5


def test_ct2_directory_needs_a_tokenizer(toy):
    directory = require_shared(SHARED / "models" / "toy-marian-en-de" / "ct2-int8")
    with pytest.raises(ValueError, match="pass tokenizer="):
        CTranslate2Claude(str(directory), cache=False)
    claude = CTranslate2Claude(str(directory), tokenizer=str(directory.parent / "hf"), cache=False, progress=False, threads=1)
    scores = claude.score(["Hello."], ["Hallo."])
    assert scores[0].tokens == toy.score(["Hello."], ["Hallo."])[0].tokens and scores[0].logprob < 0


def test_bad_compute_type():
    with pytest.raises(ValueError, match="parameter 'compute_type' must be one of default, auto, int8"):
        built(ToyEnDeCT2Claude, compute_type="int4")


@pytest.mark.parametrize("name", ["marian"])
def test_tiny_marian_converts_exactly(tiny, name):
    from performers.claude.hf_seq2seq import HFSeq2SeqClaude

    pairs = (["Hello.", "Two dogs are running."], ["Hallo.", "Zwei Hunde laufen."])
    hf = HFSeq2SeqClaude(str(tiny(name)), cache=False, progress=False, threads=1).score(*pairs)
    ct2 = CTranslate2Claude(str(tiny(name)), compute_type="float32", cache=False, progress=False, threads=1).score(*pairs)
    assert [s.logprob for s in ct2] == pytest.approx([s.logprob for s in hf], abs=1e-4, rel=1e-6)


def test_parallel_batches_give_the_same_results(float32, sample):
    """Two workers with one thread each (small batches, so several run at once) score and
    translate as one worker does, in the caller's order. Scores agree to float32 rounding, not
    bit for bit: other batches pad differently, and on AVX-512 CPUs the GEMM kernels sum in an
    order that depends on the batch shape."""
    two = ToyEnDeCT2Claude(compute_type="float32", cache=False, progress=False, threads=2, batch_tokens=64)
    assert two.translator.num_translators == 2
    one = [s.logprob for s in float32.score(*sample)]
    assert [s.logprob for s in two.score(*sample)] == pytest.approx(one, abs=1e-4, rel=1e-6)
    sources = list(dict.fromkeys(sample[0]))[:12]
    assert two.translate(sources, beam=3) == float32.translate(sources, beam=3)


def test_token_batches_and_ahead():
    from performers.claude.ct2 import ahead, token_batches

    assert token_batches([0, 1, 2, 3], lambda i: [3, 2, 9, 1][i], 5) == [[0, 1], [2], [3]]
    drawn = []

    def jobs():
        for i in range(5):
            drawn.append(i)
            yield i

    for item in ahead(jobs(), 2):
        assert drawn[-1] <= item + 2  # never more than two started ahead
    assert drawn == [0, 1, 2, 3, 4]


def test_ct2_directories_know_their_positions(float32, tmp_path):
    """A converted directory records the model's positions, so a CTranslate2 directory scores what
    is too long as NaN; one that does not record them says to pass max_positions, not a traceback."""
    import math
    import shutil

    from performers.claude.ct2_convert import POSITIONS_FILE

    assert (float32.model_dir / POSITIONS_FILE).is_file()
    too_long = (["Hello."], ["Hallo " * 300])
    directory = CTranslate2Claude(str(float32.model_dir), tokenizer=str(MODEL_DIR), compute_type="float32",
                                  cache=False, progress=False, threads=1)
    assert directory.max_positions == float32.max_positions
    assert math.isnan(directory.score(*too_long)[0].logprob)
    bare = tmp_path / "bare"
    shutil.copytree(float32.model_dir, bare)
    (bare / POSITIONS_FILE).unlink()
    unknown = CTranslate2Claude(str(bare), tokenizer=str(MODEL_DIR), compute_type="float32", cache=False,
                                progress=False, threads=1)
    with pytest.raises(ValueError, match="max_positions"):
        unknown.score(*too_long)
    given = CTranslate2Claude(str(bare), tokenizer=str(MODEL_DIR), compute_type="float32", cache=False,
                              progress=False, threads=1, max_positions=float32.max_positions)
    assert math.isnan(given.score(*too_long)[0].logprob)
