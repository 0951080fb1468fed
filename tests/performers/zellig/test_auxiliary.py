"""auxiliary: haben <-> sein as perfect auxiliary, only where the participle's verb takes that auxiliary."""

from __future__ import annotations

import pytest

from performers.zellig.auxiliary import AuxiliaryZellig
from tests.performers.zellig.german_checks import corrupt, texts


@pytest.fixture(scope="module")
def zellig():
    return AuxiliaryZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Er ist nach Hause gegangen.", "Er hat nach Hause gegangen."),
        ("Wir haben das Problem gelöst.", "Wir sind das Problem gelöst."),
        ("Er sagte, dass sie gekommen sein soll.", "Er sagte, dass sie gekommen haben soll."),
        ("Die Kinder waren früh aufgestanden.", "Die Kinder hatten früh aufgestanden."),
    ],
)
def test_changes(zellig, reference, expected):
    assert expected in texts(zellig, reference)


@pytest.mark.parametrize(
    "reference",
    [
        "Die Tür ist geschlossen.",  # stative passive: schließen takes haben
        "Er hat Hunger.",  # no participle
        "Sie ist sehr müde.",  # copula
        "",
    ],
)
def test_does_not_fire(zellig, reference):
    assert corrupt(zellig, reference) == []


def test_one_indicative_candidate_and_metadata(zellig):
    variants = corrupt(zellig, "Wir haben das Problem gelöst.")
    assert [v.text for v in variants] == ["Wir sind das Problem gelöst."]
    assert variants[0].meta["participle"] == "gelöst" and variants[0].meta["distance"] == 3
