"""The subject before an embedded clause or apposition (performers/german/embedded_subject.py)."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.embedded_subject import subject_before_embedded


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Haider, der bereits angekündigt hat, zurückzukehren, setzen auf diese Entwicklung.", "setzen",
         ("Haider", "SG")),
        ("Der fünfte Kandidat, Vitali Bganba, behaupten das.", "behaupten", ("Kandidat", "SG")),
        ("Barack Obama und John McCain, die beiden Kandidaten, haben zugestimmt.", "haben", None),  # coordinated
        ("Wenige Tage, nachdem die Regierung gedroht hat, ist das Unternehmen bemüht.", "ist", None),  # time
        ("Andere Länder, darunter auch Spanien, wird sie erst 2010 erreichen.", "wird", None),  # sie: the subject
    ],
)
def test_subject_before_embedded(text, word, expected):
    analysis = analyze(text)
    index = next(t.index for t in analysis.tokens if t.text == word)
    found = subject_before_embedded(analysis, index)
    assert (None if found is None else (analysis.tokens[found[0]].text, found[1])) == expected
