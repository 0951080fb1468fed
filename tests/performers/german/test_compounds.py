"""Noun compound splitting."""

from __future__ import annotations

import pytest

from performers.german.compounds import split_compound


@pytest.mark.parametrize(
    "word, expected",
    [
        ("Bundesverfassungsgericht", ("Bundes", "verfassungs", "gericht")),
        ("Finanzmarktkrise", ("Finanz", "markt", "krise")),
        ("Wirtschaftskrise", ("Wirtschafts", "krise")),
        ("Kinderarzt", ("Kinder", "arzt")),
        # no split
        ("Haus", None),
        ("Abstimmung", None),
        ("EU-Kommission", None),
        ("Xyzzyqqplugh", None),
    ],
)
def test_split(word, expected):
    assert split_compound(word) == expected


@pytest.mark.parametrize("word", ["Bundesverfassungsgericht", "Arbeitsplatzabbau", "Krankenhausaufenthalt"])
def test_segments_rebuild_the_word(word):
    segments = split_compound(word)
    assert segments is not None and "".join(segments) == word
