"""transliteration: swap two adjacent letters of a rare name."""

from __future__ import annotations

import pytest

from arena.records import Instance
from performers.zellig.transliteration import TransliterationZellig, adjacent_swaps
from tests.performers.zellig.helpers import candidates


@pytest.fixture(scope="module")
def zellig():
    return TransliterationZellig()


def test_every_adjacent_swap_of_a_rare_name(zellig):
    assert candidates(zellig, "Der Präsident Medwedew reiste nach Minsk.") == [
        f"Der Präsident {name} reiste nach Minsk."
        for name in ("Mdewedew", "Mewdedew", "Medewdew", "Medwdeew", "Medweedw", "Medwedwe")
    ]


@pytest.mark.parametrize(
    "reference",
    [
        "Angela Merkel reiste nach Berlin.",  # frequent names
        "Die Börse fiel.",  # no names
        "Die NATO tagte.",  # all capitals
    ],
)
def test_must_not_fire(zellig, reference):
    assert candidates(zellig, reference) == []


@pytest.mark.parametrize("word, expected", [("Anna", ["Anan"]), ("Aal", ["Ala"]), ("Ott", []), ("Abba", ["Abab"])])
def test_adjacent_swaps(word, expected):
    assert [swapped for _, swapped in adjacent_swaps(word)] == expected


def test_training_corpus_decides_rarity(tmp_path):
    corpus = tmp_path / "train.de"
    corpus.write_text("Medwedew sagte.\n" * 20, encoding="utf-8")
    frequent = TransliterationZellig(training_corpus=str(corpus), max_count=10)
    assert frequent.corrupt(Instance("t", "", "Medwedew kam.")) == []
    rare = TransliterationZellig(training_corpus=str(corpus), max_count=50)
    variants = rare.corrupt(Instance("t", "", "Medwedew kam."))
    assert variants and variants[0].meta["frequency"] == 20
