"""placeholder-ding: one candidate per common noun, replaced by uninflected Ding."""

from __future__ import annotations

import pytest

from arena.codec import dump
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
    assert [dump(e) for e in variant.edits] == [{"start": 4, "end": 9, "before": "Börse", "after": "Ding"}]


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


@pytest.mark.parametrize(("text", "analysed"), [
    ("Die Börse fiel.", False),    # no "Ding" in the text: no form can be there, nothing to analyse
    ("das ding fiel.", False),     # lower case: no form either (the forms are nouns)
    ("Der Dingo lief.", True),     # "Ding" inside a word: analysed, and no form found
    ("Die Dinge stehen.", True),
])
def test_only_texts_holding_ding_are_analysed(zellig, monkeypatch, text, analysed):
    import performers.zellig.placeholder_ding as module

    seen = []
    original = module.analyze
    monkeypatch.setattr(module, "analyze", lambda t, backend: seen.append(t) or original(t, backend))
    zellig.detect(text)
    assert (seen == [text]) is analysed


@pytest.fixture(scope="module")
def matched():
    return PlaceholderDingZellig(placeholder="length-matched")


@pytest.mark.parametrize(
    "reference, expected",
    [
        (
            "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
            [
                "Die Prager Sache stürzt gegen Geschäftsschluss ins Minus.",  # FEM SG, 5 letters
                "Die Prager Börse stürzt gegen Sachverhalt ins Minus.",  # head Schluss: MASC
                "Die Prager Börse stürzt gegen Geschäftsschluss ins Stück.",  # not genitive after ins
            ],
        ),
        ("Das Ergebnis des Repräsentantenhauses, sagte er.",
         ["Das Phänomen des Repräsentantenhauses, sagte er.", "Das Ergebnis des Elementes, sagte er."]),  # genitive
        ("Die Dinge sehen merkwürdig aus.", ["Die Teile sehen merkwürdig aus."]),  # plural
        ("Seit den Tagen der Regierung.", ["Seit den Teilen der Regierung.", "Seit den Tagen der Einheit."]),
        # must not fire: what german-nouns cannot place (a nominalised adjective), names, Ding, digits
        ("Das Gleiche gilt heute.", []),
        ("Angela Merkel reiste nach Berlin.", []),
        ("Die EU und die USA.", []),
        ("", []),
    ],
)
def test_length_matched_candidates(matched, reference, expected):
    assert candidates(matched, reference) == expected


@pytest.mark.parametrize("word, previous, placeholder", [
    ("Börse", "die", "Sache"),
    ("Regierung", "die", "Einheit"),  # 9 letters: Einheit (7) and Entität (7) tie; the first wins
    ("Tages", "des", "Teils"),
    ("Minus", "des", "Teils"),  # genitive after des
    ("Minus", "ins", "Stück"),
    ("Fragen", "die", "Sachen"),  # plural: any gender
    ("Häusern", "den", "Stücken"),
    ("Gleiche", "das", None),  # no german-nouns reading
    ("Teil", "ein", None),  # masculine and neuter: only Teil itself fits both, and it is the word
])
def test_length_matched_placeholder(word, previous, placeholder):
    from performers.zellig.placeholders import length_matched

    assert length_matched(word, previous) == placeholder


def test_length_matched_metadata_and_default_unchanged(zellig, matched):
    from arena.records import Instance

    instance = Instance("t", "", "Die Börse fällt.")
    variant = matched.corrupt(instance)[0]
    assert variant.meta["placeholder"] == "Sache" and variant.text == "Die Sache fällt."
    assert "placeholder" not in zellig.corrupt(instance)[0].meta  # the default's variants are as before


@pytest.mark.parametrize("value", ["ding", "length-matched"])
def test_placeholder_param_is_declared(value):
    from arena.specs.registry import validate
    from arena.specs.spec import PerformerSpec
    from performers.catalog import CATALOG

    validate("zellig", PerformerSpec("placeholder-ding", {"placeholder": value}), CATALOG)


def test_bad_placeholder_is_refused_by_validate():
    from arena.errors import ConfigError
    from arena.specs.registry import validate
    from arena.specs.spec import PerformerSpec
    from performers.catalog import CATALOG

    with pytest.raises(ConfigError, match="placeholder"):
        validate("zellig", PerformerSpec("placeholder-ding", {"placeholder": "sache"}), CATALOG)
