"""Inflection layer: declension tables (data), noun case forms, verb forms via ablaut."""

from __future__ import annotations

import pytest

from performers.german import inflection as inf
from performers.german import noun_inflection as noun_inf
from performers.german import verb_inflection as verb_inf


@pytest.mark.parametrize(
    "bundle, form",
    [
        ("SG.DEF.MASC.NOM", "der"),
        ("SG.DEF.MASC.DAT", "dem"),
        ("SG.DEF.FEM.GEN", "der"),
        ("SG.DEF.NEUT.ACC", "das"),
        ("PL.DEF.DAT", "den"),
        ("SG.INDF.MASC.ACC", "einen"),
        ("SG.INDF.NEUT.ACC", "ein"),
        ("SG.NEG.FEM.DAT", "keiner"),
        ("PL.NEG.GEN", "keiner"),
    ],
)
def test_articles(bundle, form):
    assert inf.article(bundle) == form


@pytest.mark.parametrize(
    "lemma, slot, form",
    [
        ("dieser", "SG.MASC.GEN", "dieses"),
        ("dieser", "SG.NEUT.NOM", "dieses"),
        ("jener", "PL.DAT", "jenen"),
        ("welcher", "SG.FEM.NOM", "welche"),
        ("euer", "PL.DAT", "euren"),
        ("euer", "SG.MASC.NOM", "euer"),
        ("unser", "SG.FEM.DAT", "unserer"),
        ("mein", "SG.NEUT.NOM", "mein"),
        ("kein", "PL.NOM", "keine"),
        ("jeder", "PL.NOM", None),
        ("ein", "PL.DAT", None),
    ],
)
def test_determiners(lemma, slot, form):
    assert inf.determiner(lemma, slot) == form


def test_determiner_readings_are_case_insensitive_and_complete():
    readings = inf.determiner_readings("Keinem")
    assert {(r.lemma, r.number, r.gender, r.case) for r in readings} == {
        ("kein", "SG", "MASC", "DAT"),
        ("kein", "SG", "NEUT", "DAT"),
    }
    assert inf.determiner_readings("Haus") == ()


@pytest.mark.parametrize(
    "bundle, ending",
    [
        ("STRONG.SG.MASC.NOM", "er"),
        ("STRONG.SG.MASC.GEN", "en"),
        ("WEAK.SG.FEM.NOM", "e"),
        ("WEAK.PL.DAT", "en"),
        ("MIXED.SG.NEUT.ACC", "es"),
        ("MIXED.SG.MASC.DAT", "en"),
    ],
)
def test_adjective_endings(bundle, ending):
    assert inf.adjective_ending(bundle) == ending


def test_adjective_declension_after_article_words():
    assert inf.adjective_declension("der") == "WEAK"
    assert inf.adjective_declension("kein") == "MIXED"
    assert inf.adjective_declension(None) == "STRONG"


def test_pronouns():
    assert inf.pronoun("3.PL.DAT") == "ihnen"
    assert inf.pronoun("3.SG.FEM.DAT") == "ihr"
    persons = {r.person for r in inf.pronoun_readings("Sie")}
    assert {"FORMAL", "3"} <= persons
    assert all(r.person != "FORMAL" for r in inf.pronoun_readings("sie"))


def test_bundles_round_trip_and_reject_unknown_features():
    assert inf.bundle("SG", "DAT", "MASC", "DEF") == "SG.DEF.MASC.DAT"
    assert inf.bundle("PL", "GEN", "FEM") == "PL.GEN"
    assert inf.parse_bundle("SG.DEF.MASC.DAT") == {"number": "SG", "feature": "DEF", "gender": "MASC", "case": "DAT"}
    with pytest.raises(ValueError, match="unknown feature"):
        inf.parse_bundle("SG.DEF.MASCULINE.DAT")
    with pytest.raises(ValueError, match="no article"):
        inf.article("PL.INDF.NOM")


def test_incomplete_table_file_is_rejected_with_its_name(tmp_path):
    import yaml

    data = yaml.safe_load(inf.DECLENSION_FILE.read_text(encoding="utf-8"))
    del data["articles"]["SG.DEF.MASC.DAT"]
    broken = tmp_path / "declension.yaml"
    broken.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ValueError, match=r"declension\.yaml.*SG\.DEF\.MASC\.DAT"):
        inf._Tables(broken)


@pytest.mark.parametrize(
    "noun, number, gender, expected",
    [
        ("Tag", "SG", "MASC", ("Tages", "Tags")),
        ("Jahr", "SG", "NEUT", ("Jahres", "Jahrs")),
        ("Morden", "PL", None, ("Morde",)),
        ("Kindern", "PL", None, ("Kinder",)),
        ("Frauen", "PL", None, ("Frauen",)),
        ("Frau", "SG", "FEM", ("Frau",)),
        ("Landesdenkmalschutzgesetz", "SG", "NEUT", ("Landesdenkmalschutzgesetzes",)),
    ],
)
def test_to_genitive(noun, number, gender, expected):
    assert noun_inf.to_genitive(noun, number, gender)[: len(expected)] == expected


@pytest.mark.parametrize(
    "noun, gender, expected",
    [
        ("Haus", "NEUT", ("Hauses",)),
        ("Bündnis", "NEUT", ("Bündnisses",)),
        ("Frau", "FEM", ("Frau",)),
        ("Test", "MASC", ("Tests",)),
    ],
)
def test_regular_genitive_rule(noun, gender, expected):
    assert noun_inf.genitive_singular_rule(noun, gender) == expected


def test_noun_genders_fall_back_to_compound_head_and_suffix():
    assert noun_inf.noun_genders("Börse") == {"FEM"}
    assert noun_inf.noun_genders("Geschäftsschluss") == {"MASC"}
    assert noun_inf.noun_genders("Anmietung") == {"FEM"}
    assert noun_inf.suffix_gender("Staatlichkeit") == "FEM"
    assert noun_inf.suffix_gender("Haus") is None


def test_double_gender_nouns_exclude_their_compounds():
    assert noun_inf.has_double_gender("Teil")
    assert not noun_inf.has_double_gender("Urteil")
    assert not noun_inf.has_double_gender("Börse")


def test_verb_readings_locate_the_form_in_the_paradigm():
    readings = verb_inf.verb_readings("hatten", "haben")
    assert {(r.tense, r.mood, r.person, r.number) for r in readings} >= {
        ("PST", "IND", 1, "PL"),
        ("PST", "IND", 3, "PL"),
    }
    fused = verb_inf.verb_readings("aufstehe", "aufstehen")
    assert fused and all(r.particle == "auf" for r in fused)
    assert verb_inf.verb_readings("Haus", "Haus") == ()


@pytest.mark.parametrize(
    "form, lemma, person, expected",
    [
        ("hat", "haben", None, ("haben",)),
        ("stehen", "stehen", 1, ("stehe",)),
        ("stehen", "stehen", 3, ("steht",)),
        ("verzeichneten", "verzeichnen", None, ("verzeichnete",)),
        ("wird", "werden", None, ("werden",)),
        ("ist", "sein", None, ("sind",)),
        ("kann", "können", 3, ("können",)),
        ("Gibt", "geben", 3, ("Geben",)),
        ("hinwegsetzten", "hinwegsetzen", 3, ("hinwegsetzte",)),
        ("missbraucht", "mißbrauchen", 3, ("missbrauchen",)),
    ],
)
def test_swap_number(form, lemma, person, expected):
    assert verb_inf.swap_number(form, lemma, person=person)[: len(expected)] == expected


def test_conjugate_and_auxiliary():
    assert verb_inf.conjugate("haben", "PST", "IND", 3, "SG") == "hatte"
    assert verb_inf.conjugate("sein", "PRS", "SBJV", 3, "SG") == "sei"
    assert verb_inf.conjugate("aufstehen", "PRS", "IND", 1, "SG") == "stehe"
    assert verb_inf.conjugate("aufstehen", "PRS", "IND", 1, "SG", fused=True) == "aufstehe"
    assert verb_inf.auxiliary("gehen") == "sein"
    assert verb_inf.auxiliary("machen") == "haben"
    with pytest.raises(ValueError, match="tense/mood"):
        verb_inf.conjugate("haben", "FUT", "IND", 3, "SG")


def test_guess_verb_lemmas_only_accepts_infinitives():
    assert "umfassen" in verb_inf.guess_verb_lemmas("umfasst")
    assert "enthüllen" in verb_inf.guess_verb_lemmas("enthüllte")
    assert verb_inf.guess_verb_lemmas("geboten") == ()


def test_match_case():
    assert inf.match_case("Die", "der") == "Der"
    assert inf.match_case("die", "Der") == "Der"
    assert inf.match_case("KEINE", "eine") == "EINE"
