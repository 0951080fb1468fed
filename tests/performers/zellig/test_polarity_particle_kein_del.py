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


@pytest.mark.parametrize(
    "text, source, expected",
    [
        # must fire: the source negates more noun phrases than the translation
        ("Eine andere Partei hat die Hürde gemeistert.", "None of the other parties exceeded the mark.", True),
        ("Es kann noch ein MP3-Player telefonieren.", "No MP3 player can make phone calls.", True),
        ("Sie benötigen eine spezielle Software.", "You don't need any special software.", True),
        ("Wir können eine Zeit mehr verschwenden.", "We cannot waste any more time.", True),
        ("Unter den Kunden ist keine Panik ausgebrochen, ein Ansturm fand statt.",
         "No panic has emerged; no bank rush has taken place.", True),
        # version 2: any negation of the source counts, not only a negated noun phrase
        ("Er hatte einen Grund zu gehen.", "He never had a reason to leave.", True),
        ("Es gibt eine Lösung ohne Risiko.", "There is not a solution without risk.", True),
        # must not fire
        ("Keine andere Partei hat die Hürde gemeistert.", "None of the other parties exceeded the mark.", False),
        ("Niemand kam.", "Nobody came.", False),
        ("Er hat nichts gesagt.", "He said nothing.", False),
        ("Sie leben in Gegenden ohne Gärten.", "They live in areas with no gardens.", False),
        ("Er arbeitet nicht mehr hier.", "He no longer works here.", False),  # an idiom, not a determiner
        ("Zweifellos kommt er.", "No doubt he will come.", False),
        ("Das ist eine gute Idee.", "That is a good idea.", False),
        ("Er hatte nie einen Grund.", "He never had a reason.", False),
        ("Er kam nicht.", "He did not come.", False),  # no ein- the deletion could have left
        ("Das ist kaum ein Problem.", "That is hardly not a problem.", False),
        ("Eine andere Partei hat die Hürde gemeistert.", None, False),  # undecidable without a source
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected
