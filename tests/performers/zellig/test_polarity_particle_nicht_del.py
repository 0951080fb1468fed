"""polarity-particle-nicht-del: delete nicht."""

from __future__ import annotations

import pytest

from performers.zellig.polarity_particle_nicht_del import PolarityParticleNichtDelZellig
from tests.performers.zellig.helpers import candidates


@pytest.fixture(scope="module")
def zellig():
    return PolarityParticleNichtDelZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Das ist nicht ausschlaggebend.", ["Das ist ausschlaggebend."]),
        ("Nicht alle kamen, oder nicht?", ["Alle kamen, oder nicht?", "Nicht alle kamen, oder?"]),
        ("„Nicht schlecht“, sagte er.", ["„Schlecht“, sagte er."]),
        ("Der nicht-öffentliche Teil.", ["Der öffentliche Teil."]),
        # must not fire
        ("Nicht, dass es wichtig wäre.", []),
        ("Er hat nichts gesagt.", []),
        ("Er kam.", []),
    ],
)
def test_candidates(zellig, reference, expected):
    assert candidates(zellig, reference) == expected


@pytest.mark.parametrize(
    "text, source, expected",
    [
        ("Er kommt.", "He is not coming.", True),
        ("Er kommt nicht.", "He is not coming.", False),
        ("Er kommt nie.", "He doesn't come.", False),
        ("Er kommt.", "He comes.", False),
        ("Er kommt.", None, False),
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected
