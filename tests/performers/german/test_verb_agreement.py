"""Finite verbs that disagree with their subject (performers/german/verb_agreement.py): which verb and
which subject are reported; the detector's must-fire and must-not-fire table is in
tests/performers/zellig/test_subj_verb_agreement.py."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.verb_agreement import disagreeing_verbs


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Die Prager Börse stürzen ins Minus.", [("stürzen", "Börse")]),
        ("Quellen sagen, dass der Senat morgen abstimmen könnten.", [("könnten", "Senat")]),
        ("Emil Kučera, der verurteilt wurden, legte Berufung ein.", [("wurden", "der")]),  # the relative pronoun
        ("Haider, der bereits angekündigt hat, zurückzukehren, setzen auf diese Entwicklung.", [("setzen", "Haider")]),
        ("Die Prager Börse stürzt ins Minus.", []),
        ("Quellen sagen, dass der Senat morgen abstimmen könnte.", []),
    ],
)
def test_disagreeing_verbs(text, expected):
    analysis = analyze(text)
    found = [(analysis.tokens[verb].text, analysis.tokens[subject].text) for verb, subject in disagreeing_verbs(analysis)]
    assert found == expected
