"""compound: swap the first two segments of a compound of three or more segments."""

from __future__ import annotations

import pytest

from performers.zellig.compound import CompoundZellig, swap_first_segments
from tests.performers.built import built
from tests.performers.zellig.helpers import candidates


@pytest.fixture(scope="module")
def zellig():
    return CompoundZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Das Bundesverfassungsgericht hat entschieden.", ["Das Verfassungsbundesgericht hat entschieden."]),
        ("Die Finanzmarktkrise geht weiter.", ["Die Marktfinanzkrise geht weiter."]),
        # must not fire: two segments, no compound, names
        ("Die Wirtschaftskrise geht weiter.", []),
        ("Das Haus ist alt.", []),
        ("Frankfurt am Main.", []),
    ],
)
def test_candidates(zellig, reference, expected):
    assert candidates(zellig, reference) == expected


def test_two_segments_with_min_segments_two():
    assert swap_first_segments("Wirtschaftskrise", min_segments=2) == "Krisewirtschafts"
    assert swap_first_segments("Wirtschaftskrise") is None


def test_metadata(zellig):
    from arena.records import Instance

    variant = zellig.corrupt(Instance("t", "", "Das Bundesverfassungsgericht tagt."))[0]
    assert variant.phenomenon == "compound"
    assert variant.meta["segments"] == ["Bundes", "verfassungs", "gericht"] and "zipf_frequency" in variant.meta


def test_bad_params():
    with pytest.raises(ValueError, match="parameter 'min_segments' must be an integer ≥ 2, not 1"):
        built(CompoundZellig, min_segments=1)
