"""german-nouns look-ups: readings of forms, genders, declension."""

from __future__ import annotations

import pytest

from performers.german.nouns import NounReading, decline, genders, is_noun_form, noun_entries, noun_readings


@pytest.mark.parametrize(
    "form, reading",
    [
        ("Tages", NounReading("Tag", "MASC", "SG", "GEN")),
        ("Jahres", NounReading("Jahr", "NEUT", "SG", "GEN")),
        ("Börsen", NounReading("Börse", None, "PL", "DAT")),
        ("Abstimmung", NounReading("Abstimmung", "FEM", "SG", "DAT")),
    ],
)
def test_readings(form, reading):
    assert reading in noun_readings(form)


@pytest.mark.parametrize("word, expected", [("Börse", {"FEM"}), ("Ding", {"NEUT"}), ("Tages", {"MASC"})])
def test_genders(word, expected):
    assert genders(word) == expected


@pytest.mark.parametrize(
    "lemma, case, number, expected",
    [("Tag", "GEN", "SG", ("Tages", "Tags")), ("Jahr", "DAT", "PL", ("Jahren",)), ("Börse", "NOM", "PL", ("Börsen",))],
)
def test_decline(lemma, case, number, expected):
    assert decline(lemma, case, number)[: len(expected)] == expected


@pytest.mark.parametrize("word", ["obwohl", "Xyzzyqq", "weil"])
def test_unknown_words_have_no_readings(word):
    assert noun_readings(word) == () and genders(word) == frozenset() and not is_noun_form(word)


def test_entries_carry_forms_and_part_of_speech():
    entry = noun_entries("Ding")[0]
    assert entry.lemma == "Ding" and "Substantiv" in entry.pos and "Dinge" in entry.forms["PL.NOM"]
