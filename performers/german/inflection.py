"""German inflection: feature bundles, and article, determiner, pronoun and adjective declension.

Everything a German Zellig needs to *generate* a form, keyed by M2C-style feature bundles (UniMorph
feature names joined by dots, as Hlavnova & Ruder 2023 write them)::

    from performers.german import inflection as inf

    inf.article("SG.DEF.MASC.DAT")                # 'dem'
    inf.determiner("dieser", "SG.MASC.GEN")       # 'dieses'
    inf.determiner("euer", "PL.DAT")              # 'euren'
    inf.determiner_readings("Keinem")             # (DeterminerReading(lemma='kein', feature='NEG',
                                                  #   number='SG', gender='MASC', case='DAT'), ... NEUT ...)
    inf.adjective_ending("MIXED.SG.NEUT.NOM")     # 'es'
    inf.pronoun("3.PL.DAT")                       # 'ihnen'

Nouns are inflected by :mod:`performers.german.noun_inflection`, verbs by
:mod:`performers.german.verb_inflection`, with the feature names of this module.

Sources.  Determiner, pronoun and adjective tables are data (``data/declension.yaml``, after the Duden
Grammatik), checked for completeness when first loaded.

Feature names: number ``SG``/``PL``; gender ``MASC``/``FEM``/``NEUT``; case ``NOM``/``ACC``/``DAT``/``GEN``;
article features ``DEF``/``INDF``/``NEG``; adjective declension ``STRONG``/``WEAK``/``MIXED``; verb tense
``PRS``/``PST``, mood ``IND``/``SBJV`` (Konjunktiv I = ``PRS.SBJV``, Konjunktiv II = ``PST.SBJV``), person
``1``/``2``/``3``.  Plural bundles carry no gender.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from arena.sdk import DataError

logger = logging.getLogger(__name__)

DATA_DIR = Path(__file__).resolve().parent / "data"
DECLENSION_FILE = DATA_DIR / "declension.yaml"
NOUN_GENDER_FILE = DATA_DIR / "noun_gender.yaml"

NUMBERS = ("SG", "PL")
GENDERS = ("MASC", "FEM", "NEUT")
CASES = ("NOM", "ACC", "DAT", "GEN")
DECLENSIONS = ("STRONG", "WEAK", "MIXED")
PERSONS = (1, 2, 3)
TENSES = ("PRS", "PST")
MOODS = ("IND", "SBJV")


def slots(number: str | None = None) -> list[str]:
    """The ``NUMBER[.GENDER].CASE`` slots of a full nominal paradigm (or of one number)."""
    out = []
    for num in NUMBERS if number is None else (number,):
        for gender in GENDERS if num == "SG" else (None,):
            for case in CASES:
                out.append(".".join(part for part in (num, gender, case) if part))
    return out


def bundle(number: str, case: str, gender: str | None = None, feature: str | None = None) -> str:
    """Join features into a bundle: ``bundle("SG", "DAT", "MASC", "DEF") == "SG.DEF.MASC.DAT"``;
    the gender is dropped in the plural."""
    if number not in NUMBERS:
        raise ValueError(f"number must be one of {NUMBERS}, got {number!r}")
    if case not in CASES:
        raise ValueError(f"case must be one of {CASES}, got {case!r}")
    if number == "SG" and gender not in GENDERS:
        raise ValueError(f"a singular bundle needs a gender in {GENDERS}, got {gender!r}")
    parts = [number, feature, gender if number == "SG" else None, case]
    return ".".join(part for part in parts if part)


def parse_bundle(text: str) -> dict[str, str]:
    """Split a bundle into ``{"number", "gender", "case", "feature", "declension", "person"}`` (those present).

    Unknown feature names raise ``ValueError``.  Order inside the bundle does not matter.
    """
    out: dict[str, str] = {}
    for part in text.split("."):
        if part in NUMBERS:
            key = "number"
        elif part in GENDERS:
            key = "gender"
        elif part in CASES:
            key = "case"
        elif part in DECLENSIONS:
            key = "declension"
        elif part in {"1", "2", "3", "FORMAL"}:
            key = "person"
        elif part in {"DEF", "INDF", "NEG"}:
            key = "feature"
        else:
            raise ValueError(f"unknown feature {part!r} in bundle {text!r}")
        if key in out:
            raise ValueError(f"bundle {text!r} has two {key} features")
        out[key] = part
    return out


def match_case(template: str, word: str) -> str:
    """``word`` with the capitalisation of ``template`` (all caps, initial capital, or as is)."""
    if len(template) > 1 and template.isupper():
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


# ----------------------------------------------------------------------------------------------------
# tables


@dataclass(frozen=True)
class DeterminerReading:
    """One reading of an article word: ``lemma`` (``der``, ``ein``, ``kein``, ``dieser``, ``mein`` ...),
    the feature it contributes (``DEF``, ``INDF``, ``NEG``, ``DEM``, ``POSS.1.SG`` ...), and its
    number, gender (``None`` in the plural) and case."""

    lemma: str
    feature: str
    number: str
    gender: str | None
    case: str

    @property
    def slot(self) -> str:
        return ".".join(part for part in (self.number, self.gender, self.case) if part)


@dataclass(frozen=True)
class PronounReading:
    """One reading of a personal pronoun: person (``"1"``, ``"2"``, ``"3"`` or ``"FORMAL"``), number, gender, case."""

    person: str
    number: str
    gender: str | None
    case: str


class _Tables:
    def __init__(self, path: Path) -> None:
        from arena.sdk import load_yaml

        data = load_yaml(path)
        if not isinstance(data, dict):
            raise DataError(f"{path}: expected a mapping at the top level")
        for key in ("articles", "endings", "determiners", "pronouns", "adjectives"):
            if key not in data:
                raise DataError(f"{path}: missing top-level key {key!r}")
        self.path = path
        self.articles: dict[str, str] = {str(k): str(v) for k, v in data["articles"].items()}
        self.endings: dict[str, dict[str, str]] = {
            str(family): {str(k): "" if v is None else str(v) for k, v in table.items()}
            for family, table in data["endings"].items()
        }
        self.pronouns: dict[str, str] = {str(k): str(v) for k, v in data["pronouns"].items()}
        self.adjectives: dict[str, str] = {str(k): str(v) for k, v in data["adjectives"].items()}
        self.determiners: dict[str, dict[str, Any]] = {str(k): dict(v) for k, v in data["determiners"].items()}
        self._check()
        # every determiner's full paradigm: lemma -> slot -> form
        self.paradigms: dict[str, dict[str, str]] = {lemma: self._paradigm(lemma) for lemma in self.determiners}
        self.by_form: dict[str, list[DeterminerReading]] = {}
        for lemma, paradigm in self.paradigms.items():
            feature = str(self.determiners[lemma]["feature"])
            for slot, form in paradigm.items():
                features = parse_bundle(slot)
                reading = DeterminerReading(
                    lemma, feature, features["number"], features.get("gender"), features["case"]
                )
                self.by_form.setdefault(form, []).append(reading)
        self.pronoun_by_form: dict[str, list[PronounReading]] = {}
        for key, form in self.pronouns.items():
            features = parse_bundle(key)
            number = features.get("number", "PL" if features["person"] == "FORMAL" else "SG")
            pronoun = PronounReading(features["person"], number, features.get("gender"), features["case"])
            self.pronoun_by_form.setdefault(form, []).append(pronoun)

    def _check(self) -> None:
        where = str(self.path)
        for feature in ("DEF", "INDF", "NEG"):
            for slot in slots():
                number, *rest = slot.split(".")
                if feature == "INDF" and number == "PL":
                    continue
                key = ".".join([number, feature, *rest])
                if key not in self.articles:
                    raise DataError(f"{where}: articles: missing bundle {key}")
        for family, table in self.endings.items():
            missing = [slot for slot in slots() if slot not in table]
            if missing:
                raise DataError(f"{where}: endings.{family}: missing {', '.join(missing)}")
        for declension in DECLENSIONS:
            for slot in slots():
                if f"{declension}.{slot}" not in self.adjectives:
                    raise DataError(f"{where}: adjectives: missing bundle {declension}.{slot}")
        for lemma, entry in self.determiners.items():
            entry_family = entry.get("family")
            if entry_family not in ("article", *self.endings):
                raise DataError(f"{where}: determiners.{lemma}: unknown family {entry_family!r}")
            if entry_family != "article" and "stem" not in entry:
                raise DataError(f"{where}: determiners.{lemma}: missing key 'stem'")
            if str(entry.get("adjectives", "")).upper() not in DECLENSIONS:
                raise DataError(f"{where}: determiners.{lemma}: adjectives must be strong, weak or mixed")

    def _paradigm(self, lemma: str) -> dict[str, str]:
        entry = self.determiners[lemma]
        out: dict[str, str] = {}
        if entry["family"] == "article":
            feature = entry["feature"]
            for slot in slots():
                number, *rest = slot.split(".")
                key = ".".join([number, feature, *rest])
                if key in self.articles:
                    out[slot] = self.articles[key]
            return out
        endings = self.endings[entry["family"]]
        stem = str(entry["stem"])
        stem_before_ending = str(entry.get("stem_before_ending", stem))
        for slot in slots():
            if slot.startswith("PL") and entry.get("plural", True) is False:
                continue
            ending = endings[slot]
            out[slot] = (stem_before_ending if ending else stem) + ending
        return out


@lru_cache(maxsize=1)
def tables() -> _Tables:
    """The declension tables (loaded once from :data:`DECLENSION_FILE`)."""
    return _Tables(DECLENSION_FILE)


def article(bundle_text: str) -> str:
    """The article form for a bundle such as ``SG.DEF.MASC.DAT`` or ``PL.NEG.GEN``."""
    try:
        return tables().articles[bundle_text]
    except KeyError:
        raise ValueError(f"no article for bundle {bundle_text!r}") from None


def determiner(lemma: str, slot: str) -> str | None:
    """The form of the article word ``lemma`` (``der``, ``ein``, ``kein``, ``dieser``, ``mein`` ...) in
    ``slot`` (``NUMBER[.GENDER].CASE``); ``None`` where it has none (``ein`` in the plural)."""
    paradigm = tables().paradigms.get(lemma)
    if paradigm is None:
        raise ValueError(f"unknown determiner lemma {lemma!r}; known: {', '.join(sorted(tables().paradigms))}")
    return paradigm.get(slot)


def determiner_readings(word: str) -> tuple[DeterminerReading, ...]:
    """Every reading of ``word`` as an article word (case-insensitive); ``()`` if it is none."""
    return tuple(tables().by_form.get(word.lower(), ()))


def adjective_declension(lemma: str | None) -> str:
    """The adjective declension after the article word ``lemma`` (``STRONG`` when there is none)."""
    if lemma is None:
        return "STRONG"
    return str(tables().determiners[lemma]["adjectives"]).upper()


def adjective_ending(bundle_text: str) -> str:
    """The adjective ending for ``DECLENSION.NUMBER[.GENDER].CASE`` (``MIXED.SG.NEUT.NOM`` → ``es``)."""
    try:
        return tables().adjectives[bundle_text]
    except KeyError:
        raise ValueError(f"no adjective ending for bundle {bundle_text!r}") from None


def pronoun(bundle_text: str) -> str:
    """The personal pronoun for ``PERSON.NUMBER[.GENDER].CASE`` (``3.SG.FEM.DAT`` → ``ihr``) or ``FORMAL.CASE``."""
    try:
        return tables().pronouns[bundle_text]
    except KeyError:
        raise ValueError(f"no pronoun for bundle {bundle_text!r}") from None


def pronoun_readings(word: str) -> tuple[PronounReading, ...]:
    """Readings of ``word`` as a personal pronoun; a capitalised *Sie*/*Ihnen* also reads as FORMAL, and
    sentence-initial capitals are not distinguished (pass the word as written)."""
    found = list(tables().pronoun_by_form.get(word, ()))
    if word[:1].isupper():
        found += [r for r in tables().pronoun_by_form.get(word.lower(), ()) if r not in found]
    return tuple(found)
