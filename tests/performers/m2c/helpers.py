"""A small test language and a one-call template builder."""

from __future__ import annotations

from performers.m2c.language import language_from_mapping
from performers.m2c.registry import register_dimension, register_function
from performers.m2c.space import Repetition, TemplateSpace
from performers.m2c.tables import lexicon_from_values

CODE = "xx-test"

LANGUAGE = {
    "language": CODE,
    "dimensions": {
        "NUMBER": ["SG", "PL"],
        "GENDER": ["FEM", "MASC", "NEUT"],
        "CASE": ["NOM", "DAT"],
        "DEFINITENESS": ["DEF", "INDF"],
        "ORDER": ["GT", "LT"],
        "STARTSWITH": ["VOW", "CONS"],
    },
    "dimension_properties": {"ORDER": {"sampleable": False}, "STARTSWITH": {"callable": True}},
    "rules": {
        "ART": {
            "SG.DEF.MASC.NOM": "der", "SG.DEF.FEM.NOM": "die", "SG.DEF.NEUT.NOM": "das", "PL.DEF.NOM": "die",
            "SG.DEF.MASC.DAT": "dem", "SG.DEF.FEM.DAT": "der", "SG.DEF.NEUT.DAT": "dem", "PL.DEF.DAT": "den",
            "SG.INDF.MASC.NOM": "ein", "SG.INDF.FEM.NOM": "eine", "SG.INDF.NEUT.NOM": "ein", "PL.INDF": "",
        },
        "EN": {"SG.INDF.VOW": "an", "SG.INDF.CONS": "a", "PL.INDF": "", "DEF": "the"},
        "CMP": {"GT": "mehr", "LT": "weniger"},
    },
    "modifiers": ["TO_CAPITALIZE", "TO_UPPER"],
}

register_dimension("STARTSWITH", language=CODE, fn=lambda s: None if not s else ("VOW" if s[0] in "aeiou" else "CONS"))
register_function("plus", language=CODE, fn=lambda a, b: str(int(a) + int(b)))
register_function("gender_word", language=CODE, fn=lambda g: {"FEM": "she", "MASC": "he", "NEUT": "it"}[g])

_language = None


def language():
    global _language
    if _language is None:
        _language = language_from_mapping(LANGUAGE, "test language")
    return _language


def space(template: str, repetition: dict | None = None, **placeholders) -> TemplateSpace:
    lang = language()
    lexicons = {name: lexicon_from_values(name, values, lang.dimensions, "test") for name, values in placeholders.items()}
    settings = {root: Repetition(**cfg) for root, cfg in (repetition or {}).items()}
    return TemplateSpace(template, lang, lexicons, settings, name="t", where="test")


def texts(template: str, repetition: dict | None = None, **placeholders) -> list[str]:
    return [item.text for item in space(template, repetition, **placeholders).generate()]


NAMES = [{"SG.MASC": "Hans"}, {"SG.FEM": "Anna"}, {"SG.MASC": "Karl"}, {"PL.FEM": "Eva und Ina"}]
JOBS = [
    {"SG.MASC": "Lehrer", "SG.FEM": "Lehrerin", "PL.MASC": "Lehrer", "PL.FEM": "Lehrerinnen"},
    {"SG.MASC": "Arzt", "SG.FEM": "Ärztin", "PL.MASC": "Ärzte", "PL.FEM": "Ärztinnen"},
]
OBJECTS = [{"SG.NEUT": "Buch", "PL.NEUT": "Bücher"}, {"SG.FEM": "Tasse", "PL.FEM": "Tassen"}]
