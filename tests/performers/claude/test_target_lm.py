"""The ``target-lm`` Claude and its Kneser–Ney model: probabilities sum to one, the
fluent candidate wins, the model is cached by corpus content, bad params are usage errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.errors import EnvError, UsageError
from arena.records import Pair
from performers.claude.kneser_ney import KneserNeyLM
from performers.claude.target_lm import TargetLMClaude, model_key
from tests.conftest import DATA, require_shared

CORPUS = [
    "Der Hund bellt laut .", "Die Katze schläft .", "Der Hund schläft .", "Ein Hund bellt .",
    "Die Kinder spielen im Garten .", "Der Mann liest ein Buch .", "Die Frau liest die Zeitung .",
] * 3


@pytest.mark.parametrize("order", [1, 2, 3])
@pytest.mark.parametrize("context", ["Der Hund", "Die", "Ein Hund bellt", "unbekannt"])
def test_distribution_sums_to_one(order, context):
    lm = KneserNeyLM.train(CORPUS, order=order)
    total = sum(math.exp(lm.token_logprobs([f"{context} {w}"])[0][-2]) for w in lm.vocabulary[3:])
    total += math.exp(lm.token_logprobs([context])[0][-1])  # end of sentence
    total += math.exp(lm.token_logprobs([f"{context} QQQ"])[0][-2])  # <unk>
    assert total == pytest.approx(1.0, abs=1e-9)


def test_save_load_round_trip(tmp_path):
    lm = KneserNeyLM.train(CORPUS)
    lm.save(tmp_path / "m.npz")
    again = KneserNeyLM.load(tmp_path / "m.npz")
    texts = ["Der Hund liest .", "Die Katze bellt laut ."]
    for a, b in zip(lm.token_logprobs(texts), again.token_logprobs(texts)):
        np.testing.assert_allclose(a, b)


@pytest.fixture()
def corpus(tmp_path):
    path = tmp_path / "train.de"
    path.write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("fluent, broken", [
    ("Der Hund bellt laut .", "Der Hund bellen laut ."),
    ("Die Frau liest die Zeitung .", "Die Frau liest der Zeitung ."),
])
def test_judges_the_less_fluent_candidate(corpus, fluent, broken):
    claude = TargetLMClaude(corpus=str(corpus))
    first, second = claude.judge([Pair("a", "", (fluent, broken)), Pair("b", "ignored", (broken, fluent))])
    assert (first.corrupted, second.corrupted) == (1, 0)


def test_source_is_ignored_and_identical_candidates_tie(corpus):
    claude = TargetLMClaude(corpus=str(corpus))
    assert claude.score(["x"], ["Der Hund ."]) == claude.score(["ganz anders"], ["Der Hund ."])
    assert claude.judge([Pair("t", "", ("Der Hund .", "Der Hund ."))])[0].corrupted is None


def test_model_is_cached_by_corpus_content(corpus, tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    TargetLMClaude(corpus=str(corpus))
    stored = list((tmp_path / "cache" / "target-lm").glob("*.npz"))
    assert [p.stem for p in stored] == [model_key(corpus, 3)]
    corpus.write_text("Ein ganz anderer Satz .\n", encoding="utf-8")
    assert model_key(corpus, 3) != stored[0].stem


@pytest.mark.parametrize("params, error", [
    ({"order": 4}, UsageError), ({"convention": "max"}, UsageError), ({"corpus": "/nonexistent/train.de"}, EnvError),
])
def test_bad_params(corpus, params, error):
    with pytest.raises(error):
        TargetLMClaude(**{"corpus": str(corpus), **params})


def test_cannot_translate(corpus):
    with pytest.raises(UsageError, match=r"sees: \{source: false\}"):
        TargetLMClaude(corpus=str(corpus)).translate(["The dog barks."])


def test_shared_corpus_prefers_the_reference_over_broken_agreement():
    require_shared(DATA / "parallel-toy" / "train.de")
    claude = TargetLMClaude()
    judged = claude.judge([Pair("p", "", ("Die Kinder spielen im Garten.", "Die Kinder spielt im Garten."))])
    assert judged[0].corrupted == 1
