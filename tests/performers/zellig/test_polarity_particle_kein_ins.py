"""polarity-particle-kein-ins: indefinite ein- -> kein-, ending kept."""

from __future__ import annotations

import pytest

from performers.zellig.polarity_particle_kein_ins import PolarityParticleKeinInsZellig
from tests.performers.zellig.german_checks import corrupt, texts


@pytest.fixture(scope="module")
def zellig():
    return PolarityParticleKeinInsZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Er hat einen Hund gekauft.", ["Er hat keinen Hund gekauft."]),
        ("Eine Lösung ist in Sicht.", ["Keine Lösung ist in Sicht."]),
        ("Mit einem Wort.", ["Mit keinem Wort."]),
    ],
)
def test_changes(zellig, reference, expected):
    assert texts(zellig, reference) == expected


@pytest.mark.parametrize(
    "reference",
    ["Er stellt ihn ein.", "Ich habe nicht ein einziges Mal gelacht.", "Keine Sorge.", "Das ist einer der Besten.", ""],
)
def test_does_not_fire(zellig, reference):
    assert corrupt(zellig, reference) == []
