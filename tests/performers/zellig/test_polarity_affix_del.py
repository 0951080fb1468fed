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
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected
