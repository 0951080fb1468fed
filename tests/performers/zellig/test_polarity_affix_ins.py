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
