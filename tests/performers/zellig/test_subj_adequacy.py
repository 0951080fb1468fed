"""subj-adequacy: with the subject *sie* the verb's number changes, the sentence stays grammatical."""

from __future__ import annotations

import pytest

from performers.zellig.subj_adequacy import SubjAdequacyZellig
from tests.performers.zellig.german_checks import corrupt, texts


@pytest.fixture(scope="module")
def zellig():
    return SubjAdequacyZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Sie hat die Wahl gewonnen.", "Sie haben die Wahl gewonnen."),
        ("Gestern kamen sie zu spät.", "Gestern kam sie zu spät."),
        ("Er sagte, dass sie krank sei.", "Er sagte, dass sie krank seien."),
    ],
)
def test_changes(zellig, reference, expected):
    assert expected in texts(zellig, reference)


@pytest.mark.parametrize(
    "reference",
    [
        "Er hat die Wahl gewonnen.",  # not sie
        "Gestern haben Sie gewonnen.",  # polite Sie
        "Wir haben gegen sie gewonnen.",  # sie is not the subject
        "",
    ],
)
def test_does_not_fire(zellig, reference):
    assert corrupt(zellig, reference) == []


def test_metadata(zellig):
    (variant,) = corrupt(zellig, "Sie hat die Wahl gewonnen.")
    assert variant.phenomenon == "subj_adequacy" and variant.meta["distance"] == 1
