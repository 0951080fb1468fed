"""Finite-tagged verbs that are likely infinitives or participles (performers/german/non_finite.py)."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.non_finite import looks_non_finite
from performers.german.syntax import finite_verbs


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Ein Angriff soll einen Planer getötet haben, sagten sie.", "haben", True),  # governed by the modal
        ("Sie werden auf die Beziehung verzichten müssen.", "verzichten", True),  # before a modal
        ("Aber ich frage mich: Sind wir dafür vorbereitet?", "vorbereitet", True),  # a participle beside sein
        ("Erstens: Das gelbe Käppchen aufsetzen.", "aufsetzen", True),  # fused separable verb in a main clause
        ("Ich musste den Weg finden und zum Glück haben ich mich verlaufen.", "haben", False),  # ich beside it
        ("Der Zeitpunkt ist ungewiss und werden die Märkte beeinflussen.", "werden", False),  # sein governs no infinitive
        ("1995 wurde ein Tumor festgestellt und er unterzogen sich einer Transplantation.", "unterzogen", False),
        ("Fußgängerin vom Balkon mit Luftgewehr beschossen", "beschossen", True),  # a headline
        ("Die Kinder spielen.", "spielen", False),
        ("Er sagt, dass er morgen aufsteht.", "aufsteht", False),  # fused in a verb-final clause
    ],
)
def test_looks_non_finite(text, word, expected):
    analysis = analyze(text)
    verbs = finite_verbs(analysis)
    index = next(t.index for t in analysis.tokens if t.text == word)
    assert (index not in verbs or looks_non_finite(analysis, verbs, index, verbs[index])) is expected
