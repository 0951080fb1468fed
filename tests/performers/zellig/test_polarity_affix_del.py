"""polarity-affix-del: delete a negating un-."""

from __future__ import annotations

import pytest

from performers.zellig.polarity_affix_del import PolarityAffixDelZellig
from tests.performers.zellig.helpers import candidates


@pytest.fixture(scope="module")
def zellig():
    return PolarityAffixDelZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Das Ergebnis kam unerwartet.", ["Das Ergebnis kam erwartet."]),
        ("Auch herrscht Unklarheit darüber.", ["Auch herrscht Klarheit darüber."]),
        ("Unklar ist, ob er kommt.", ["Klar ist, ob er kommt."]),
        ("Eine unabhängige und unbekannte Firma.", ["Eine abhängige und unbekannte Firma.",
                                                    "Eine unabhängige und bekannte Firma."]),
        # must not fire
        ("Der Unterschied zwischen der Union und dem Unternehmen ist groß.", []),
        ("Unter uns und unseren Freunden.", []),
        ("Der Unfall geschah unweit der Universität.", []),  # unweit is a preposition here
        ("Es kostet ungefähr zehn Euro.", []),
    ],
)
def test_candidates(zellig, reference, expected):
    assert candidates(zellig, reference) == expected


@pytest.mark.parametrize(
    "text, source, expected",
    [
        ("Das ist klar.", "This is unclear.", True),
        ("Das ist unklar.", "This is unclear.", False),
        ("Das ist nicht klar.", "This is unclear.", False),
        ("Das ist klar.", "This is clear.", False),
        ("Das ist klar.", None, False),
        ("Das Ergebnis der Verhandlungen in Brüssel ist für die Minister noch klar.",
         "The outcome of the negotiations in Brussels is still unclear to the ministers.", True),
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected


# garbled 1-best output of a weak model has no negation either; it must not count as a
# dropped un- (about a quarter of the hits on the toy model's 1-best were such garbage)
UNCLEAR = "The outcome of the negotiations in Brussels is still unclear to the ministers."


@pytest.mark.parametrize(
    "text",
    [
        "Das Ergebnis der Verhandlungen in der Kommission, der Kommission, der Kommission.",
        "Die Die Die Die Die Die Die Die.",
        "The outcome of the negotiations in Brussels is still klar.",
        "Das Ergebnis.",
        "Das Ergebnis: " + " ".join(f"Punkt {letter}" for letter in "abcdefghijklmnopqrst") + " ist klar.",
    ],
)
def test_detect_must_not_fire_on_garbled_output(zellig, text):
    assert zellig.detect(text, UNCLEAR) is False
