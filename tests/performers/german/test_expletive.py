"""Expletive es and demonstratives before a copula (performers/german/expletive.py)."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.expletive import expletive_numbers
from performers.german.syntax import finite_verbs


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Es wurden nie ein solcher Vertrag unterzeichnet.", "wurden", ["SG"]),  # es + a singular noun phrase
        ("Es bestehen die ernsthafte Gefahr, dass der Verband scheitert.", "bestehen", ["SG"]),
        ("In der Tat waren es kein Porträt, das jeder schätzte.", "waren", ["SG"]),  # copula: the predicate
        ("Dies ist die schlechtesten Ergebnisse beider Parteien.", "ist", ["PL"]),
        ("Es kamen viele Leute.", "kamen", []),  # another possible subject
        ("Es freut die Eltern.", "freut", []),  # a plural noun phrase: es may be the subject
        ("Das sind nicht nur der Tanz, der Gesang oder das Spiel.", "sind", []),  # a list
        ("Hand aufs Herz - das ist wohl allen Frauen eigen.", "ist", []),  # a dative after allen
        ("Einige mögen es Populismus nennen.", "mögen", None),  # es after the verb: the object
        ("Das würde auch die Kosten senken.", "würde", None),  # no copula, no es
        ("Es gibt keinen Hinweis.", "gibt", None),  # es gibt: a pronoun subject
    ],
)
def test_expletive_numbers(text, word, expected):
    analysis = analyze(text)
    verbs = finite_verbs(analysis)
    index = next(t.index for t in analysis.tokens if t.text == word)
    assert expletive_numbers(analysis, index, verbs[index]) == expected
