"""Numbers of possible subjects (performers/german/subject_number.py) on tagged German sentences."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.subject_number import antecedent_number, noun_number, pronoun_candidates


def _index(analysis, word: str) -> int:
    return next(t.index for t in analysis.tokens if t.text == word)


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Die Vertreter kommen morgen.", "Vertreter", "PL"),  # die + masculine noun: plural
        ("Der Vertreter kommt morgen.", "Vertreter", "SG"),
        ("Einige Rechtsexperten bieten eine andere Sicht.", "Rechtsexperten", "PL"),  # a plural quantifier
        ("Paula Radcliffe hält den Weltrekord.", "Radcliffe", "SG"),  # a name
        ("Doch der Präsident lehnte ab.", "Präsident", "SG"),  # doch opens the sentence
        ("Britische Wissenschaftler sagten das.", "Wissenschaftler", "PL"),  # strong -e on a masculine noun
        ("Virtuelle Betreiber profilieren sich.", "Betreiber", "PL"),
        ("Weißer Asbest wird verwendet.", "Asbest", "SG"),  # strong -er: masculine singular
        ("Polanskis Anwalt fordert das.", "Anwalt", "SG"),  # after a prenominal genitive name
        ("Dann sagte die Nachrichtenagentur Reuters das.", "Reuters", "SG"),  # a name after its common noun
        ("Außenministerin Hillary Clinton lehnte ab.", "Clinton", "SG"),
        ("„Gut“, sagt der junge Mann und lächelt.", "Mann", "SG"),  # und joins two verbs, not two nouns
        ("Aber Tausende blieben draußen.", "Tausende", "PL"),
        ("Die Zinsdifferenziale sind hoch.", "Zinsdifferenziale", "PL"),  # tagged NNA; german-nouns: plural only
        ("Ihre Gruppe reichte Klage ein.", "Gruppe", "SG"),  # a quantity noun without a complement
        ("Bei Regen kamen 214 Radfahrer.", "Radfahrer", "PL"),  # counted: more than one
        ("Jeder vierte Jugendliche sitzt an der Kasse.", "Jugendliche", "SG"),  # jeder: singular
        ("Mehr als 10.000 Menschen kamen.", "Menschen", "PL"),  # a number with a thousands separator
        ("Die Nachricht von der Wahl kam spät.", "Nachricht", "SG"),  # von after an ordinary noun
        ("Gottes Stimme ist leise.", "Stimme", "SG"),  # after a prenominal genitive
        ("Das FBI hat das angekündigt.", "FBI", "SG"),  # an abbreviation with a singular article
        ("GM informierte die Besitzer.", "GM", "SG"),  # a bare abbreviation
        ("Die DGAC empfiehlt das.", "DGAC", "SG"),  # die before a name that does not look plural
        ("Dann eröffnete Bürgermeister Jens Häußler die Sitzung.", "Häußler", "SG"),  # a bare title before a name
        ("Gestern sagte Joschka Fischer das.", "Fischer", "SG"),  # a surname after a first name
        # left open: the verb need not follow the noun's number, or the number is not known
        ("Abtreibungsgegner halten dem entgegen.", "Abtreibungsgegner", None),  # tagged NE, a plural noun
        ("Infineon-Aktien stiegen um drei Prozent.", "Infineon-Aktien", None),
        ("Ganz normale New Yorker haben das gelernt.", "New", None),  # not the head of its phrase
        ("Gestern verloren die Lakers gegen Boston.", "Lakers", None),  # die before a name that looks plural
        ("Die BBC Music Awards scheinen neu.", "BBC", None),  # not the last name of a close apposition
        ("Dann haben die beiden Guttenberg informiert.", "Guttenberg", None),  # die beiden: plural
        ("USA haben das angekündigt.", "USA", None),  # a plural abbreviation
        ("Eine Gruppe von Abgeordneten stimmte zu.", "Gruppe", None),  # a quantity noun before von
        ("Ein 28-Jähriger hatte 2,15 Promille.", "Promille", None),  # a measure
        ("Die Gruppe der Abgeordneten stimmte zu.", "Gruppe", None),  # the complement may decide
        ("Im Jahr 2010 kam 1 Radfahrer.", "Radfahrer", None),  # one
        ("Ferner waren das Hacksteak, der Thunfisch und der Kaugummi belastet.", "Hacksteak", None),  # a list
        ("Sie bremsten in Richtung Basel.", "Basel", None),  # in a prepositional phrase
        ("Jeder zweite lebenslange Raucher stirbt daran.", "Raucher", None),  # jeder: the adjective is weak, not -e plural
        ("Britische Wissenschaftlerin sagte das.", "Wissenschaftlerin", "SG"),  # -e on a feminine noun
        ("Der Mann und lächelnde Kinder kamen.", "Kinder", None),  # coordinated
        ("Im Bus, die Reisenden schlafen.", "Reisenden", None),  # after a comma: maybe a list
        ("Die USA sind groß.", "USA", None),
        ("Die Philippinen sind groß.", "Philippinen", None),
        ("Die Hälfte der Bürger ist dagegen.", "Hälfte", None),
        ("Zwei Jahre sind vergangen.", "Jahre", None),
        ("Der Mann und die Frau gehen.", "Frau", None),  # coordinated
        ("Sowohl Obama als auch McCain stimmten zu.", "Obama", None),
    ],
)
def test_noun_number(text, word, expected):
    analysis = analyze(text)
    assert noun_number(analysis, _index(analysis, word)) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Der Sänger, der morgen kommt, ist müde.", "SG"),
        ("Die Anleger, die morgen kommen, sind müde.", "PL"),  # die after a masculine noun: plural
        ("Die Tafel, die dort hängt, ist alt.", "SG"),
        ("Die Frau, der ich half, ist alt.", None),  # der after a feminine noun: a dative
        ("Die Sitze in der Touristenklasse, die breit sind, gefallen.", None),  # the Sitze or the Klasse?
        ("Er sah E-Mails und Instant Messages, die gesandt wurden.", None),  # after a coordination
    ],
)
def test_antecedent_number(text, expected):
    analysis = analyze(text)
    pronoun = next(t for t in analysis.tokens if t.pos == "PRELS")
    assert antecedent_number(analysis, pronoun) == expected


def test_pronoun_candidates():
    analysis = analyze("Gestern hat er es ihm gegeben.")
    verb = _index(analysis, "hat")
    found = {analysis.tokens[i].text: (number, certain) for i, number, certain in pronoun_candidates(analysis, verb)}
    assert found["er"] == ("SG", True)
    assert found["es"] == (None, False)  # es may be an expletive or an object
    assert "ihm" not in found  # a dative is never the subject
