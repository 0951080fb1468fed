"""polarity-particle-nicht-ins: insert nicht at the sentence-negation spot of a clause."""

from __future__ import annotations

import pytest

from performers.zellig.polarity_particle_nicht_ins import PolarityParticleNichtInsZellig
from tests.performers.zellig.helpers import candidates


@pytest.fixture(scope="module")
def zellig():
    return PolarityParticleNichtInsZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        (
            "Er hat das Buch gelesen, weil er es kaufen wollte.",
            [
                "Er hat das Buch nicht gelesen, weil er es kaufen wollte.",
                "Er hat das Buch gelesen, weil er es nicht kaufen wollte.",
            ],
        ),
        ("Das Ergebnis ist sehr wichtig.", ["Das Ergebnis ist nicht sehr wichtig."]),
        ("Er gibt das Buch morgen zurück.", ["Er gibt das Buch morgen nicht zurück."]),
        ("Sie versucht, das Problem zu lösen.", ["Sie versucht, das Problem nicht zu lösen."]),
        ("Das ist ein Problem, das gelöst werden muss.", ["Das ist ein Problem, das nicht gelöst werden muss."]),
        # must not fire: already negated, no verbal cluster or predicative adjective, V2 finite verb only
        ("Er hat das Buch nicht gelesen.", []),
        ("Er hat kein Buch gelesen.", []),
        ("Wir kommen heute.", []),
        ("Die Stadt Berlin.", []),
    ],
)
def test_candidates(zellig, reference, expected):
    assert candidates(zellig, reference) == expected


@pytest.mark.parametrize(
    "text, source, expected",
    [
        # must fire: the source negates nothing, the translation has a negation particle
        ("Er hat das Buch nicht gelesen.", "He read the book.", True),
        ("Die Regierung wird die Steuern nie senken.", "The government will lower taxes.", True),
        ("Wir haben das Problem niemals gelöst, weil es schwer war.", "We solved the problem because it was hard.", True),
        # must not fire
        ("Er hat das Buch gelesen.", "He read the book.", False),
        ("Er hat das Buch nicht gelesen.", "He did not read the book.", False),  # the source negates
        ("Er hat das Buch nicht gelesen.", "He hasn't read the book.", False),
        ("Das ist nicht wichtig.", "That is unimportant.", False),  # an un- word in the source
        ("Er hat keinen Hund gekauft.", "He bought a dog.", False),  # kein-: the other Zellig's phenomenon
        ("Er hat das Buch nicht gelesen.", None, False),  # undecidable without a source
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected
