"""Pronoun subjects whose number subject_number leaves open (performers/german/pronoun_number.py): *es* as the
only possible subject, indefinite pronouns in clauses without a noun; checked through the detector."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.source_number import settled_sie
from performers.german.verb_agreement import disagreeing_verbs


@pytest.mark.parametrize(
    "text, expected",
    [
        # must fire: es is the only possible subject, or every other one is singular
        ("Es werden mit Erdwärme beheizt.", True),
        ("Es wurden nie ein solcher Vertrag unterzeichnet.", True),
        ("Es sind ein überraschendes Ergebnis.", True),  # sein beside a singular predicate
        # must fire: an indefinite pronoun before the verb in a clause without a noun
        ("Alles hängen von der Arbeit ab.", True),
        # must not fire
        ("Es wird mit Erdwärme beheizt.", False),
        ("Es wurden Maßnahmen ergriffen.", False),  # an expletive es: the noun after it is the subject
        ("Die Kinder haben es gesehen.", False),  # es: the object
        ("Bei Journalisten sind es 30 Prozent.", False),  # a number in a copula clause
        ("Es waren die Kinder.", False),  # sein beside a plural predicate
        ("Es sind in teuren Hotels erhältlich.", False),  # sein without a predicate noun: left open
        ("Wenn du es sagst, glaube ich es.", False),  # another personal pronoun
        ("Alles hängt von der Arbeit ab.", False),
        ("Die andere ist schwieriger.", False),  # die andere: singular, not the plural pronoun andere
        ("Meine Freunde und ich versuchen das.", False),  # a coordinated pronoun
        ("Ich und du geht nach Hause.", False),  # coordinated: left open
        ("Mein Mann und ich haben ein Haus gekauft.", False),
        ("Zwei der drei Lastwagen hatten gebremst.", False),  # a partitive genitive after a number
        ("In der Tat besitzen 11 % der Bürger keinen Ausweis.", False),
    ],
)
def test_pronoun_subjects(text, expected):
    assert bool(disagreeing_verbs(analyze(text))) is expected


@pytest.mark.parametrize(
    "text, source, expected",
    [
        ("Und sie enthält kein Quecksilber.", "And they contain no mercury.", True),  # sie opens the clause
        ("Und sie enthalten kein Quecksilber.", "And they contain no mercury.", False),
        ("Sie enthält kein Quecksilber.", "They contain no mercury.", False),  # sentence-initial Sie: left open
        ("Man kann sie gegen einen Feind verwenden.", "They can be used against an enemy.", False),  # an object
    ],
)
def test_sie_opening_its_clause(text, source, expected):
    analysis = analyze(text)
    assert bool(disagreeing_verbs(analysis, sie=settled_sie(analysis, source))) is expected
