"""polarity-particle-kein-del: kein- -> ein-, ending kept; never in plural noun phrases."""

from __future__ import annotations

import pytest

from performers.zellig.polarity_particle_kein_del import PolarityParticleKeinDelZellig
from tests.performers.zellig.german_checks import corrupt, texts


@pytest.fixture(scope="module")
def zellig():
    return PolarityParticleKeinDelZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Das ist keine gute Idee.", ["Das ist eine gute Idee."]),
        ("Er hatte keinen Zweifel daran.", ["Er hatte einen Zweifel daran."]),
        ("Keiner von ihnen kam.", ["Einer von ihnen kam."]),
        ("Mit keinem Wort, in keiner Weise.", ["Mit einem Wort, in keiner Weise.", "Mit keinem Wort, in einer Weise."]),
    ],
)
def test_changes(zellig, reference, expected):
    assert texts(zellig, reference) == expected


@pytest.mark.parametrize("reference", ["Es gibt keine Probleme.", "Er kam nicht.", "Eine Idee.", ""])
def test_does_not_fire(zellig, reference):
    assert corrupt(zellig, reference) == []
