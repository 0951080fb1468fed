"""Per-token scores (arena.roles.TokenScorer): they sum to ``score`` exactly, for each engine."""

from __future__ import annotations

import math

import pytest

from arena.roles import TokenScorer

SOURCES = ["I have no time.", "I have no time.", "The shop is open."]
TARGETS = ["Ich habe keine Zeit.", "Ich habe Zeit.", "Der Laden ist geöffnet."]


@pytest.fixture(scope="module", params=["toy-en-de", "toy-en-de-ct2"])
def claude(request):
    from arena.cli import catalog
    from arena.specs.registry import build
    from arena.specs.spec import parse_spec

    return build("claude", parse_spec(f"{request.param}:cache=false,progress=false"), catalog())


def test_token_scores_sum_to_the_sequence_scores(claude):
    assert isinstance(claude, TokenScorer)
    tokens = claude.token_scores(SOURCES, TARGETS)
    scores = claude.score(SOURCES, TARGETS)
    for token_scores, score in zip(tokens, scores):
        assert len(token_scores.tokens) == len(token_scores.logprobs) == score.tokens
        assert math.fsum(token_scores.logprobs) == pytest.approx(score.logprob, abs=1e-4)
        assert token_scores.tokens[-1] == "</s>"
    assert tokens[0].tokens[:2] == tokens[1].tokens[:2]  # shared prefix, same pieces


def test_non_scoring_claudes_are_no_token_scorers():
    from performers.claude.random import RandomClaude

    assert not isinstance(RandomClaude(), TokenScorer)
