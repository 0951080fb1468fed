"""Negating un- (strip and add) and negation counts."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.negation import add_un, english_negations, english_un_words, negation_count, strip_un


@pytest.mark.parametrize(
    "word, pos, expected",
    [
        ("unerwartet", "ADJD", "erwartet"),
        ("Unklarheit", "NN", "Klarheit"),
        ("unabhängigen", "ADJA", "abhängigen"),
        ("Unklar", "ADJD", "Klar"),
        ("undankbar", "ADJD", "dankbar"),
        # must not fire
        ("Unterschied", "NN", None),
        ("Union", "NN", None),
        ("unter", "APPR", None),
        ("Unternehmen", "NN", None),
        ("und", "KON", None),
        ("unsere", "PPOSAT", None),
        ("Unfall", "NN", None),
        ("Unmenge", "NN", None),
        ("uniformierte", "ADJA", None),
        ("unverzüglich", "ADJD", None),
        ("ungefähr", "ADV", None),
        ("unterstützen", "VVINF", None),
    ],
)
def test_strip_un(word, pos, expected):
    assert strip_un(word, pos) == expected


@pytest.mark.parametrize(
    "word, pos, initial, expected",
    [
        ("wichtig", "ADJD", False, "unwichtig"),
        ("bekannte", "ADJA", False, "unbekannte"),
        ("Klarheit", "NN", False, "Unklarheit"),
        ("Glück", "NN", False, "Unglück"),
        ("Klar", "ADJD", True, "Unklar"),
        # must not fire
        ("Fall", "NN", False, None),
        ("Menge", "NN", False, None),
        ("Kosten", "NN", False, None),
        ("unklar", "ADJD", False, None),
        ("schnell", "VVFIN", False, None),
        ("Haus", "NN", False, None),
    ],
)
def test_add_un(word, pos, initial, expected):
    assert add_un(word, pos, sentence_initial=initial) == expected


@pytest.mark.parametrize(
    "text, expected",
    [("Das ist nicht klar.", 1), ("Das ist unklar.", 1), ("Keiner kam, niemand ging.", 1), ("Das ist klar.", 0)],
)
def test_negation_count(text, expected):
    assert negation_count(analyze(text)) >= expected if expected else negation_count(analyze(text)) == 0


def test_english_negations():
    assert english_un_words("It was unexpected and non-binding, under the united union.") == [
        "unexpected",
        "non-binding",
    ]
    assert english_negations("We do not know and can't say.") == 2
    assert english_negations("We know.") == 0
