"""A verb-first main clause after a sentence-initial prefield ending in a comma (performers/german/prefield.py)."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.prefield import after_initial_prefield


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Während fast jedes Handy Dateien abspielen kann, können kein Player telefonieren.", "können", True),
        ('"Wenn der Bus scharf bremst, gilt natürlich die Gesetze der Physik.', "gilt", True),  # after a quote
        ("Anfang Juli, als die ÖVP die Koalition verließ, hatten die Volkspartei einen Vorsprung.", "hatten", True),
        ("Ehrlich gesagt, sind der Markt sehr ruhig.", "sind", True),
        ("Bei diesem Wettbewerb, der in Johannesburg stattfindet, haben fünf ihr Ticket.", "haben", True),
        ("Die Kinder, die kamen, gingen nach Hause.", "gingen", False),  # the prefield holds the subject
        ("Über 500 Gäste, darunter vier Staatschefs, haben teilgenommen.", "haben", False),  # a number
        ("Um die Kanäle breiter zu machen, würde Millionen kosten.", "würde", False),  # um … zu
        ("Er kam, sah und siegte.", "sah", False),  # a main clause before
    ],
)
def test_after_initial_prefield(text, word, expected):
    analysis = analyze(text)
    index = next(t.index for t in analysis.tokens if t.text == word)
    assert after_initial_prefield(analysis, index) is expected
