"""hypercorrect-genitive: dative after seit/gegenüber/gemäß/... turned genitive; the detector."""

from __future__ import annotations

import pytest

from performers.zellig.hypercorrect_genitive import HypercorrectGenitiveZellig, load_prepositions
from tests.performers.zellig.german_checks import corrupt, texts


@pytest.fixture(scope="module")
def zellig():
    return HypercorrectGenitiveZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        ("Er lebt seit einem Jahr in Berlin.", {"Er lebt seit eines Jahres in Berlin."}),
        (
            "Seit dem Tag ist nichts mehr wie zuvor.",
            {"Seit des Tages ist nichts mehr wie zuvor.", "Seit des Tags ist nichts mehr wie zuvor."},
        ),
        ("Das geschah gemäß den Regeln.", {"Das geschah gemäß der Regeln."}),
        ("Er wartet seit fast einem Jahr.", {"Er wartet seit fast eines Jahres."}),
        ("Sie saß dem Publikum gegenüber.", {"Sie saß des Publikums gegenüber."}),
        ("Das ist seit dem Aufstehen so.", {"Das ist seit des Aufstehens so."}),
        ("Er kam samt seinem neuen Hund.", {"Er kam samt seines neuen Hundes.", "Er kam samt seines neuen Hunds."}),
    ],
)
def test_changes(zellig, reference, expected):
    assert expected <= set(texts(zellig, reference))


@pytest.mark.parametrize(
    "reference",
    [
        "Seit der Wahl ist alles anders.",  # feminine: dative = genitive
        "Er kam mit dem Auto.",  # mit is not in the list
        "Seit Jahren ist das so.",  # no article word
        "",
    ],
)
def test_does_not_fire(zellig, reference):
    assert corrupt(zellig, reference) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Seit des Tages ist nichts mehr wie zuvor.", True),
        ("Er wohnt dort seit eines Jahres.", True),
        ("Das geschah gemäß der Regeln.", True),
        ("Seit dem Tag ist nichts mehr wie zuvor.", False),
        ("Seit der Wahl ist alles anders.", False),
        ("Wegen des Wetters fiel es aus.", False),
    ],
)
def test_detect(zellig, text, expected):
    assert zellig.detect(text) is expected


def test_prepositions_are_data():
    prepositions, adverbs = load_prepositions()
    assert {"seit", "gegenüber", "gemäß", "nahe", "samt", "mitsamt", "nebst", "entsprechend", "entgegen"} <= set(
        prepositions
    )
    assert "fast" in adverbs


def test_bad_data_file_is_named(tmp_path):
    bad = tmp_path / "preps.yaml"
    bad.write_text("prepositions:\n  seit: [before]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"preps\.yaml.*seit"):
        load_prepositions(str(bad))


def test_metadata(zellig):
    variants = corrupt(zellig, "Er lebt seit einem Jahr in Berlin.")
    assert [v.text for v in variants] == ["Er lebt seit eines Jahres in Berlin.", "Er lebt seit eines Jahrs in Berlin."]
    variant = variants[0]
    assert variant.phenomenon == "hypercorrect_genitive"
    assert variant.meta["preposition"] == "seit" and variant.meta["distance"] == 2
    assert [(e.before, e.after) for e in variant.edits] == [("einem", "eines"), ("Jahr", "Jahres")]
