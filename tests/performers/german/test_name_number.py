"""Numbers of proper names as subjects (performers/german/name_number.py)."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.name_number import name_number
from performers.german.subject_number import np_start


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Paula Radcliffe hält den Weltrekord.", "Radcliffe", "SG"),
        ("Das FBI hat das angekündigt.", "FBI", "SG"),
        ("GM informierte die Besitzer.", "GM", "SG"),
        ("Die DGAC empfiehlt das.", "DGAC", "SG"),
        ("Gestern sagte Joschka Fischer das.", "Fischer", "SG"),
        # left open
        ("USA haben das angekündigt.", "USA", None),
        ("Die Philippinen sind groß.", "Philippinen", None),
        ("Abtreibungsgegner halten dem entgegen.", "Abtreibungsgegner", None),  # a plural noun tagged NE
        ("Auβerdem mussten sie gehen.", "Auβerdem", None),  # Greek beta for ß: no name
    ],
)
def test_name_number(text, word, expected):
    analysis = analyze(text)
    index = next(t.index for t in analysis.tokens if t.text == word)
    start = np_start(analysis, index)
    start += analysis.tokens[start].pos in ("ART", "PPOSAT", "PDAT", "PIAT")
    assert name_number(analysis, index, start) == expected
