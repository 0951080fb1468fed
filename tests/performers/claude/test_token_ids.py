"""token_ids gives the tokenizer's own ids, skipping the added-token split only where a text
has no added token."""

from __future__ import annotations

import pytest

from performers.claude.token_ids import token_ids
from tests.performers.claude.tiny_models import SEQ2SEQ


class Recording:
    """A tokenizer that records the options of each call and passes it on."""

    def __init__(self, tokenizer) -> None:
        self.tokenizer, self.calls = tokenizer, []

    def __getattr__(self, name):
        return getattr(self.tokenizer, name)

    def __call__(self, *args, **kwargs):
        self.calls.append(kwargs.get("split_special_tokens", False))
        return self.tokenizer(*args, **kwargs)


def texts(triples) -> list[str]:
    edge = ["a </s> b", "<pad>", "x<unk>y", "", "Das </s>", "eng_Latn deu_Latn de_DE", "Ding.  Ding"]
    return [text for triple in triples for text in triple] + edge


@pytest.mark.parametrize("name", sorted(SEQ2SEQ))
@pytest.mark.parametrize("target", [False, True])
def test_same_ids_as_the_tokenizer(tiny, triples, name, target):
    from performers.claude.hf_seq2seq import HFSeq2SeqClaude

    tokenizer = HFSeq2SeqClaude(str(tiny(name)), cache=False, progress=False, **SEQ2SEQ[name][1]).backend.tokenizer
    chosen = texts(triples)
    expected = (tokenizer(text_target=chosen) if target else tokenizer(chosen))["input_ids"]
    assert token_ids(tokenizer, chosen, target=target) == [list(ids) for ids in expected]


def test_toy_marian_splits_only_texts_with_added_tokens(toy, triples):
    """The toy Marian tokenizer is a Python one: texts without added tokens go in one call
    without the split, the rest in another with it, and the ids come back in order."""
    recording = Recording(toy.backend.tokenizer)
    chosen = texts(triples)
    expected = [list(ids) for ids in toy.backend.tokenizer(text_target=chosen)["input_ids"]]
    assert token_ids(recording, chosen, target=True) == expected
    assert recording.calls == [True, False]
    assert token_ids(recording, ["Ein Hund."]) == [list(toy.backend.tokenizer(["Ein Hund."])["input_ids"][0])]
    assert recording.calls == [True, False, True]
