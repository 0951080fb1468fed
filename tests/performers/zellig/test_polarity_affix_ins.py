"""polarity-affix-ins: insert a negating un-."""

from __future__ import annotations

import pytest

from performers.zellig.polarity_affix_ins import PolarityAffixInsZellig
from tests.performers.zellig.helpers import candidates


@pytest.fixture(scope="module")
def zellig():
    return PolarityAffixInsZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Die Lage ist klar.", ["Die Lage ist unklar."]),
        ("Das war eine wichtige Frage.", ["Das war eine unwichtige Frage."]),
        ("Er hatte Glück.", ["Er hatte Unglück."]),
        ("Wichtig ist das.", ["Unwichtig ist das."]),
        # must not fire
        ("Der Fall einer Menge von Kosten.", []),
        ("Die Lage ist unklar.", []),
        ("Er kam gestern.", []),
    ],
)
def test_candidates(zellig, reference, expected):
    assert candidates(zellig, reference) == expected


@pytest.mark.parametrize(
    "text, source, expected",
    [
        # must fire: the source negates nothing, the translation has a word with a negating un-
        ("Das ist unwichtig.", "That is important.", True),
        ("Die Lage ist unklar.", "The situation is clear.", True),
        # must not fire
        ("Das ist wichtig.", "That is important.", False),
        ("Das ist unwichtig.", "That is unimportant.", False),  # un-i... words count as negations
        ("Das ist unwichtig.", "That is not important.", False),
        ("Das Unternehmen wuchs unter Druck.", "The company grew under pressure.", False),  # no un- prefix
        ("Der Unfall geschah gestern.", "The accident happened yesterday.", False),  # lexicalised
        ("Das ist unwichtig.", None, False),  # undecidable without a source
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected
