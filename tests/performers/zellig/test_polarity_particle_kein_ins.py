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


@pytest.mark.parametrize(
    "text, source, expected",
    [
        # must fire: the source negates nothing, the translation has a negative determiner or pronoun
        ("Er hat keinen Hund gekauft.", "He bought a dog.", True),
        ("Keine Lösung ist in Sicht.", "A solution is in sight.", True),
        ("Sie hat nichts gesagt.", "She said something.", True),
        ("Niemand kam zur Sitzung.", "Someone came to the meeting.", True),
        # must not fire
        ("Er hat einen Hund gekauft.", "He bought a dog.", False),
        ("Er hat keinen Hund gekauft.", "He bought no dog.", False),  # the source negates
        ("Er hat keinen Hund gekauft.", "He didn't buy a dog.", False),
        ("Er hat das Buch nicht gelesen.", "He read the book.", False),  # nicht: the other Zellig's phenomenon
        ("Er hat keinen Hund gekauft.", None, False),  # undecidable without a source
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected
