"""placeholder-ding: one candidate per common noun, replaced by uninflected Ding."""

from __future__ import annotations

import pytest

from performers.zellig.placeholder_ding import PlaceholderDingZellig
from tests.performers.zellig.helpers import candidates


@pytest.fixture(scope="module")
def zellig():
    return PlaceholderDingZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        (
            "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
            [
                "Die Prager Ding stürzt gegen Geschäftsschluss ins Minus.",
                "Die Prager Börse stürzt gegen Ding ins Minus.",
                "Die Prager Börse stürzt gegen Geschäftsschluss ins Ding.",
            ],
        ),
        (
            "Das Ergebnis des Repräsentantenhauses, sagte er.",
            ["Das Ding des Repräsentantenhauses, sagte er.", "Das Ergebnis des Ding, sagte er."],
        ),
        ("Der Abgeordnete kam.", ["Der Ding kam."]),
        ("Die Dinge sehen merkwürdig aus.", ["Die Ding sehen merkwürdig aus."]),
        ("Das Gleiche gilt heute.", ["Das Ding gilt heute."]),  # nominalised adjective, tagged ADJA
        ("Wichtige Fragen bleiben.", ["Wichtige Ding bleiben."]),  # a sentence-initial adjective is no noun
        # must not fire: names, pronouns, abbreviations, Ding itself, truncations, digits
        ("Angela Merkel reiste nach Berlin.", []),
        ("Er kam gestern, sie ging.", []),
        ("Das Ding ist da.", []),
        ("Die EU und die USA.", []),
        ("", []),
    ],
)
def test_candidates(zellig, reference, expected):
    assert candidates(zellig, reference) == expected


def test_metadata(zellig):
    from arena.records import Instance

    variant = zellig.corrupt(Instance("t", "", "Die Börse fällt."))[0]
    assert variant.phenomenon == "placeholder_ding"
    assert variant.meta["word"] == "Börse" and variant.meta["zipf_frequency"] > 3
    assert "frequency" not in variant.meta  # no training corpus: no count
    assert [e.to_json() for e in variant.edits] == [{"start": 4, "end": 9, "before": "Börse", "after": "Ding"}]


@pytest.mark.parametrize(
    "text, source, expected",
    [
        ("Das Ding fiel um.", None, True),
        ("Das Ding fiel um.", "The market fell.", True),
        ("Das Ding fiel um.", "The thing fell over.", False),
        ("Die Dinge stehen gut.", "Things look good.", False),
        ("Die Börse fiel.", "The market fell.", False),
        ("Der Dingo lief.", None, False),
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected
