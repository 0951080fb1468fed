"""``causal-lm``: sums of token log-probabilities equal a plain forward pass (tiny GPT-2)."""

from __future__ import annotations

import pytest

from arena.records import Pair
from performers.claude.causal_lm import CausalLMClaude


@pytest.fixture(scope="module")
def gpt2(tiny):
    return CausalLMClaude(str(tiny("gpt2")), cache=False, progress=False, batch_tokens=64)


def naive(claude: CausalLMClaude, context: str, target: str) -> tuple[float, int]:
    import torch

    tokenizer = claude.tokenizer
    context_ids = [tokenizer.bos_token_id] + tokenizer(context, add_special_tokens=False)["input_ids"]
    target_ids = tokenizer((" " + target) if context else target, add_special_tokens=False)["input_ids"]
    ids = torch.tensor([context_ids + target_ids])
    with torch.inference_mode():
        logprobs = torch.log_softmax(claude.model(input_ids=ids).logits[0].float(), dim=-1)
    positions = range(len(context_ids), ids.shape[1])
    return sum(float(logprobs[p - 1, ids[0, p]]) for p in positions), len(target_ids)


@pytest.mark.parametrize(
    "context, target",
    [
        ("", "The keys to the cabinet are on the table."),
        ("", "The keys to the cabinet is on the table."),
        ("The keys to the cabinet", "are on the table."),
        ("A man", "rides a bicycle down the long street in the morning."),
        ("", "Yes."),
    ],
)
def test_scores_equal_plain_forward(gpt2, context, target):
    score = gpt2.score([context], [target])[0]
    expected, tokens = naive(gpt2, context, target)
    assert score.tokens == tokens
    assert score.logprob == pytest.approx(expected, abs=1e-4)


def test_batched_equals_one_by_one(gpt2):
    contexts = ["", "The keys", "", "A man", "The keys"]
    targets = ["A b c d e f g.", "are here.", "Short.", "rides a bicycle down the long street.", "is here."]
    batched = gpt2.score(contexts, targets)
    assert gpt2.fast_head
    for context, target, score in zip(contexts, targets, batched):
        assert score.logprob == pytest.approx(gpt2.score([context], [target])[0].logprob, abs=1e-4)


def test_judges_by_sum_by_default(gpt2):
    assert gpt2.convention == "sum"
    pair = Pair("p", "", ("The keys to the cabinet are on the table.", "The keys to the cabinet is on the table."))
    judgement = gpt2.judge([pair])[0]
    expected = [s.logprob for s in gpt2.score(["", ""], list(pair.candidates))]
    assert judgement.scores == tuple(expected)
    assert judgement.corrupted == (0 if expected[0] < expected[1] else 1)


def test_prefix_and_eos(tiny):
    plain = CausalLMClaude(str(tiny("gpt2")), cache=False, progress=False)
    prefixed = CausalLMClaude(str(tiny("gpt2")), cache=False, progress=False, prefix="Context:", add_eos=True)
    assert prefixed.score([""], ["Yes."])[0].tokens == plain.score(["Context:"], ["Yes."])[0].tokens + 1


def test_nothing_to_condition_on(tiny):
    claude = CausalLMClaude(str(tiny("gpt2")), cache=False, progress=False, add_bos=False)
    with pytest.raises(ValueError, match="nothing to condition"):
        claude.score([""], ["Yes."])
    assert claude.score(["The keys"], ["are here."])[0].tokens > 0


def test_continuation(gpt2):
    (text,) = gpt2.translate(["The keys"], beam=2, max_length=4)
    assert isinstance(text, str)
