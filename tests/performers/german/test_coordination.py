"""Coordinated finite verbs that share the subject of the verb before them (performers/german/coordination.py)."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.coordination import (
    coordinated_noun_phrase,
    disagrees_with_shared,
    pronoun_coordinated,
    shared_subject_verb,
)
from performers.german.syntax import finite_verbs


def _find(text: str) -> list[tuple[str, str, bool]]:
    analysis = analyze(text)
    verbs = finite_verbs(analysis)
    out = []
    for verb in verbs:
        shared = shared_subject_verb(analysis, verbs, verb)
        if shared is not None:
            tokens = analysis.tokens
            out.append((tokens[verb].text, tokens[shared].text, disagrees_with_shared(analysis, verbs, verb, shared)))
    return out


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Cornelius Jol nickte und hoben den Daumen.", [("hoben", "nickte", True)]),
        ("Cornelius Jol nickte und hob den Daumen.", [("hob", "nickte", False)]),
        ("Sie wollte einen Film bewerben, sprachen über Privates.", [("sprachen", "wollte", True)]),
        ("Die Kinder spielen und die Mutter kocht.", []),  # the second clause has its own subject
        ("Als er kam, gingen wir.", []),  # the verb before is in a subordinate clause
        ("Er kam und gingen wir nach Hause.", []),  # a subject after the verb
        ("Das ist gut, sagten die Experten.", []),  # after a comma: a noun that may be the subject
        ("Die Leute, die kamen, gingen nach Hause.", []),  # after a relative clause
        ("Die Kinder haben das Haus gekauft und renoviert.", []),  # a participle
    ],
)
def test_shared_subject_verb(text, expected):
    assert _find(text) == expected


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Die Gesangsfassung übernahmen Kněžínková und Adam Plachetka.", "Kněžínková", True),
        ("Das Bronzetreppchen erreichten Rainer und Bernd Maier.", "Rainer", True),
        ("Die Polizei untersucht die Waffe.", "Waffe", False),
        ("Die Polizei untersucht die Waffe oder den Wagen.", "Waffe", False),  # oder: either number
    ],
)
def test_coordinated_noun_phrase(text, word, expected):
    analysis = analyze(text)
    index = next(t.index for t in analysis.tokens if t.text == word)
    assert coordinated_noun_phrase(analysis, index) is expected


@pytest.mark.parametrize(
    "text, word, verb, expected",
    [
        ("Meine Schwester und ich durften bleiben.", "ich", "durften", True),
        ("Jeden Tag brechen er und seine Gefährten Schwefel.", "er", "brechen", True),
        ('Alle sagten "Du solltest es probieren."', "Du", "sagten", True),
        ("Jeden Tag bricht er Schwefel.", "er", "bricht", False),
        ("Er kam, und er ging.", "er", "ging", False),  # und joins clauses
    ],
)
def test_pronoun_coordinated(text, word, verb, expected):
    analysis = analyze(text)
    pronoun = max(t.index for t in analysis.tokens if t.text == word)
    index = next(t.index for t in analysis.tokens if t.text == verb)
    assert pronoun_coordinated(analysis, pronoun, index) is expected
