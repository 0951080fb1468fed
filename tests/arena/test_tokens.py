"""Token alignment of a minimal pair and the token a decision turned on (arena/tokens.py)."""

from __future__ import annotations

import pytest

from arena.records import TokenScores
from arena.tokens import align, blame, render, summary

NEG = TokenScores(("▁Ich", "▁habe", "▁keine", "▁Zeit", ".", "</s>"), (-1.0, -0.5, -3.0, -0.2, -0.1, -0.1))
POS = TokenScores(("▁Ich", "▁habe", "▁Zeit", ".", "</s>"), (-1.0, -0.5, -0.4, -0.1, -0.1))


def test_align_pairs_equal_tokens_and_groups_the_edit():
    rows = align(NEG, POS)
    assert [(r.correct, r.incorrect, r.changed) for r in rows] == [
        ("Ich", "Ich", False), ("habe", "habe", False), ("keine", "∅", True),
        ("Zeit", "Zeit", False), (".", ".", False), ("</s>", "</s>", False)]
    assert rows[2].delta == pytest.approx(-3.0)
    assert sum(r.delta for r in rows) == pytest.approx(NEG.score.logprob - POS.score.logprob)


@pytest.mark.parametrize("correct,incorrect,expected", [
    (NEG, POS, ("keine", "∅")),                       # the deletion misled the model (sum favours incorrect)
    (POS, NEG, ("∅", "keine")),                       # the other way round the same token decides
])
def test_blame_follows_the_decision(correct, incorrect, expected):
    row = blame(align(correct, incorrect))
    assert (row.correct, row.incorrect) == expected


def test_no_blame_without_a_difference():
    assert blame(align(POS, POS)) is None  # must not fire: nothing differs
    assert summary(align(POS, POS)) == ""
    assert blame([]) is None


def test_render_marks_the_blamed_row():
    rows = align(NEG, POS)
    text = render(rows, mark=blame(rows))
    assert "keine" in text and text.splitlines()[3].endswith("<")
    assert summary(rows).startswith("'keine' vs '∅'")


# the edit moved a later, unchanged token most: the summary must not read 'vom' vs 'vom'
CONTEXT_C = TokenScores(("▁an", "▁den", "▁Einbruch", "▁vom", "</s>"), (-1.0, -1.0, -2.0, -0.5, -0.1))
CONTEXT_I = TokenScores(("▁an", "▁den", "▁Ding", "▁vom", "</s>"), (-1.0, -1.0, -2.1, -3.0, -0.1))


@pytest.mark.parametrize("correct, incorrect, expected", [
    (CONTEXT_C, CONTEXT_I, "'vom' on both sides (+2.50)"),
    (NEG, POS, "'keine' vs '∅' (-3.00)"),       # a changed row: must keep 'a' vs 'b'
])
def test_summary_names_the_blamed_row(correct, incorrect, expected):
    assert summary(align(correct, incorrect)) == expected
