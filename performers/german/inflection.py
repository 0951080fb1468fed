"""German inflection: article, determiner, pronoun and adjective declension; noun case forms; verb forms.

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
    inf.noun_forms("Tag", "GEN", "SG", "MASC")    # ('Tages', 'Tags')   german-nouns, rules otherwise
    inf.to_genitive("Morden", "PL")               # ('Morde',)
    inf.verb_readings("hatten", "haben")          # VerbReading(..., tense='PST', mood='IND', person=1, number='PL')...
    inf.conjugate("haben", "PST", "IND", 3, "SG") # 'hatte'
    inf.swap_number("stehen", "stehen", person=1) # ('stehe',)
    inf.auxiliary("gehen")                        # 'sein'

Sources.  Determiner, pronoun and adjective tables are data (``data/declension.yaml``, after the Duden
Grammatik), checked for completeness when first loaded.  Noun forms come from german-nouns (Wiktionary)
through :mod:`performers.german.nouns`; for nouns it lacks, the head of a compound is looked up
(*Landesdenkmalschutzgesetz* → *Gesetz*) and otherwise regular endings are applied (-es after sibilants,
-s otherwise; weak masculines and feminines unchanged).  Verb forms come from **ablaut** (PyPI, MIT/Apache,
a rule engine with exception tables for strong, irregular and modal verbs, verified against two lexicons;
it ships no data files and needs no network): the lemma is HanTa's (via the analysis layer), the
person/number/tense/mood reading is found by generating the lemma's paradigm and locating the form in it.
Separable verbs are handled both split (*stehe … auf*: the finite token is *stehe*) and fused in verb-final
clauses (*aufstehe*).

Feature names: number ``SG``/``PL``; gender ``MASC``/``FEM``/``NEUT``; case ``NOM``/``ACC``/``DAT``/``GEN``;
article features ``DEF``/``INDF``/``NEG``; adjective declension ``STRONG``/``WEAK``/``MIXED``; verb tense
``PRS``/``PST``, mood ``IND``/``SBJV`` (Konjunktiv I = ``PRS.SBJV``, Konjunktiv II = ``PST.SBJV``), person
``1``/``2``/``3``.  Plural bundles carry no gender.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from arena.errors import DataError

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
        from arena.specs.yamlio import load_yaml

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
            reading = PronounReading(features["person"], number, features.get("gender"), features["case"])
            self.pronoun_by_form.setdefault(form, []).append(reading)

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
            family = entry.get("family")
            if family not in ("article", *self.endings):
                raise DataError(f"{where}: determiners.{lemma}: unknown family {family!r}")
            if family != "article" and "stem" not in entry:
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


# ----------------------------------------------------------------------------------------------------
# nouns

_SIBILANT = re.compile(r"(s|ß|x|z|tz|sch)$")


def genitive_singular_rule(noun: str, gender: str) -> tuple[str, ...]:
    """Regular genitive singular of a noun german-nouns does not know: feminines unchanged; masculine and
    neuter nouns in -e, -en (weak or nominalised) keep the form given; -es after a sibilant, -s otherwise."""
    if gender == "FEM":
        return (noun,)
    if noun.endswith(("s", "ß", "x", "z")) and noun.endswith(("nis",)):
        return (noun + "ses",)
    if _SIBILANT.search(noun):
        return (noun + "es",)
    if noun.endswith(("en", "em")) and gender == "MASC":
        return (noun,)
    return (noun + "s",)


def _head_split(word: str) -> tuple[str, str] | None:
    """``(prefix, head)`` with ``head`` the longest known noun at the end of the compound ``word``."""
    from performers.german.nouns import is_noun_form

    if "-" in word.strip("-"):
        prefix, _, last = word.rpartition("-")
        if last[:1].isupper() and is_noun_form(last):
            return prefix + "-", last
        word_head = _head_split(last) if len(last) > 4 else None
        return (prefix + "-" + word_head[0], word_head[1]) if word_head else None
    from performers.german.frequency import zipf

    for start in range(2, len(word) - 2):
        head = word[start].upper() + word[start + 1 :]
        if is_noun_form(head) and (len(head) > 3 or zipf(head) >= 3.5):  # short heads only if common (Rat, not Ase)
            return word[:start], head
    return None


def noun_forms(noun: str, case: str, number: str, gender: str | None = None) -> tuple[str, ...]:
    """Forms of the noun whose lemma or inflected form is ``noun`` in ``case``/``number`` (main form first).

    german-nouns where it knows the word (as lemma, else via its readings' lemmas), the head of a compound
    otherwise (the prefix is kept), and for a singular genitive of an unknown noun the regular rule;
    ``()`` when nothing applies.
    """
    from performers.german.nouns import decline, noun_readings

    forms = decline(noun, case, number, gender)
    if forms:
        return forms
    out: list[str] = []
    for reading in noun_readings(noun):
        if gender is not None and reading.gender not in (None, gender):
            continue
        for form in decline(reading.lemma, case, number, gender):
            if form not in out:
                out.append(form)
    if out:
        return tuple(out)
    split = _head_split(noun)
    if split is not None:
        prefix, head = split
        head_forms = noun_forms(head, case, number, gender)
        if head_forms:
            return tuple(prefix + form[0].lower() + form[1:] for form in head_forms)
    if case == "GEN" and number == "SG" and gender is not None:
        return genitive_singular_rule(noun, gender)
    return ()


def _readings_with_head(noun: str):
    from performers.german.nouns import noun_readings

    readings = noun_readings(noun)
    if readings:
        return "", noun, readings
    split = _head_split(noun)
    if split is not None:
        prefix, head = split
        return prefix, head, noun_readings(head)
    return "", noun, ()


def noun_analyses(noun: str) -> tuple[tuple[str, str | None, str], ...]:
    """``(number, gender, case)`` readings of an inflected noun (via its compound head if unknown);
    ``()`` when german-nouns knows neither the word nor its head."""
    _, _, readings = _readings_with_head(noun)
    out: list[tuple[str, str | None, str]] = []
    for reading in readings:
        key = (reading.number, reading.gender, reading.case)
        if key not in out:
            out.append(key)
    return tuple(out)


@lru_cache(maxsize=1)
def _gender_data() -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
    from arena.specs.yamlio import load_yaml

    data = load_yaml(NOUN_GENDER_FILE)
    if not isinstance(data, dict) or "suffixes" not in data or "double_gender" not in data:
        raise DataError(f"{NOUN_GENDER_FILE}: expected the keys 'suffixes' and 'double_gender'")
    suffixes = []
    for suffix, gender in data["suffixes"].items():
        if gender not in GENDERS:
            raise DataError(f"{NOUN_GENDER_FILE}: suffixes.{suffix}: gender must be one of {GENDERS}, got {gender!r}")
        suffixes.append((str(suffix), str(gender)))
    suffixes.sort(key=lambda item: -len(item[0]))
    return tuple(suffixes), frozenset(str(noun) for noun in data["double_gender"])


def suffix_gender(noun: str) -> str | None:
    """Gender implied by a derivational suffix (*-ung* FEM, *-chen* NEUT, *-ismus* MASC ...), else ``None``."""
    lower = noun.lower()
    for suffix, gender in _gender_data()[0]:
        if lower.endswith(suffix) and len(lower) > len(suffix) + 2:
            return gender
    return None


def has_double_gender(noun: str) -> bool:
    """Whether ``noun`` has more than one standard gender (*der/das Teil*; not its compounds such as *das
    Urteil*, which german-nouns lists); for a compound german-nouns does not know, its head decides."""
    from performers.german.nouns import is_noun_form

    double = _gender_data()[1]
    if noun in double:
        return True
    if is_noun_form(noun):
        return False
    split = _head_split(noun)
    return split is not None and split[1] in double


def noun_genders(noun: str) -> frozenset[str]:
    """Genders of ``noun`` (lemma or inflected form; via its compound head if unknown; else by suffix)."""
    from performers.german.nouns import genders

    found = genders(noun)
    if found:
        return found
    split = _head_split(noun)
    if split is not None:
        found = genders(split[1])
        if found:
            return found
    guessed = suffix_gender(noun)
    return frozenset({guessed}) if guessed else frozenset()


def to_genitive(noun: str, number: str, gender: str | None = None, case: str = "DAT") -> tuple[str, ...]:
    """Genitive forms of ``noun``, read as a ``case`` form (dative by default) of ``number`` and ``gender``.

    The word is looked up in german-nouns (or its compound head is); the genitive forms of every matching
    lemma are returned, main form first.  For a dative-with-*-e* (*dem Tage*) the lemma's genitive is used.
    Unknown nouns get the regular singular rule; unknown plurals in -ern/-eln lose the dative -n, other
    unknown plurals are returned unchanged.  Capitalisation follows ``noun``.
    """
    prefix, head, readings = _readings_with_head(noun)
    from performers.german.nouns import decline

    out: list[str] = []
    for reading in readings:
        if reading.number != number or reading.case != case:
            continue
        if gender is not None and reading.gender not in (None, gender):
            continue
        for form in decline(reading.lemma, "GEN", number, reading.gender if number == "SG" else None):
            full = prefix + (form[0].lower() + form[1:] if prefix else form)
            full = match_case(noun, full)
            if full not in out:
                out.append(full)
    if out:
        return tuple(out)
    if number == "SG":
        return genitive_singular_rule(noun, gender) if gender is not None else ()
    if noun.endswith(("ern", "eln")):
        return (noun[:-1],)
    return (noun,)


# ----------------------------------------------------------------------------------------------------
# verbs (ablaut)

_TABLES = {
    ("PRS", "IND"): "present",
    ("PST", "IND"): "preterite",
    ("PRS", "SBJV"): "konjunktiv1",
    ("PST", "SBJV"): "konjunktiv2",
}
_SLOT_FEATURES = [(1, "SG"), (2, "SG"), (3, "SG"), (1, "PL"), (2, "PL"), (3, "PL")]


@dataclass(frozen=True)
class VerbReading:
    """One reading of a finite verb form: lemma (infinitive), tense, mood, person and number, and the
    separable particle when the form is written fused with it (*aufstehe*), else ``""``."""

    lemma: str
    tense: str
    mood: str
    person: int
    number: str
    particle: str = ""


@lru_cache(maxsize=50_000)
def _paradigm(lemma: str) -> Any:
    import ablaut

    try:
        return ablaut.conjugate(lemma)
    except ValueError:
        return None


def _lemma_candidates(lemma: str) -> list[str]:
    """HanTa sometimes gives pre-1996 spellings (*mißbrauchen*) or capitalised lemmas."""
    out = [lemma.lower()] if lemma else []
    if "ß" in lemma:
        out.append(lemma.lower().replace("ß", "ss"))
    return out


def paradigm(lemma: str) -> Any:
    """ablaut's conjugation object for the infinitive ``lemma`` (``None`` if ablaut rejects it); cached."""
    for candidate in _lemma_candidates(lemma):
        found = _paradigm(candidate)
        if found is not None:
            return found
    return None


def _split(entry: str) -> tuple[str, str]:
    """ablaut writes separable verbs split (``stehe auf``): return (finite part, particle)."""
    finite, _, particle = entry.partition(" ")
    return finite, particle


def conjugate(lemma: str, tense: str, mood: str, person: int, number: str, fused: bool = False) -> str | None:
    """The finite form of ``lemma``; with ``fused`` a separable particle is prefixed (verb-final clauses:
    *aufstehe*), otherwise only the finite part is returned (*stehe*).  ``None`` if ablaut cannot conjugate it."""
    table = paradigm(lemma)
    if table is None:
        return None
    if (tense, mood) not in _TABLES:
        raise ValueError(f"unknown tense/mood {tense}.{mood}; use PRS/PST and IND/SBJV")
    entry = getattr(table, _TABLES[tense, mood])[_SLOT_FEATURES.index((person, number))]
    finite, particle = _split(entry)
    return particle + finite if fused and particle else finite


def verb_readings(form: str, lemma: str) -> tuple[VerbReading, ...]:
    """Every (tense, mood, person, number) reading of the finite ``form`` of ``lemma`` (case-insensitive);
    a pre-1996 lemma spelling (*mißbrauchen*) is retried with *ss*."""
    for candidate in _lemma_candidates(lemma):
        found = _verb_readings(form, candidate)
        if found:
            return found
    return ()


def _verb_readings(form: str, lemma: str) -> tuple[VerbReading, ...]:
    table = _paradigm(lemma)
    if table is None:
        return ()
    word = form.lower()
    infinitive = table.infinitive
    out: list[VerbReading] = []
    for (tense, mood), name in _TABLES.items():
        for index, entry in enumerate(getattr(table, name)):
            finite, particle = _split(entry)
            person, number = _SLOT_FEATURES[index]
            if word == finite:
                out.append(VerbReading(infinitive, tense, mood, person, number, ""))
            elif particle and word == particle + finite:
                out.append(VerbReading(infinitive, tense, mood, person, number, particle))
    return tuple(out)


_ENDINGS = ("test", "ten", "tet", "te", "est", "et", "st", "en", "t", "e", "n", "")


def _is_infinitive(word: str) -> bool:
    """HanTa's morphology reads ``word`` as an infinitive (its last morpheme is ``SUF_INF``), so participles
    (*geboten*) and adjectives (*modern*) are not taken for infinitives."""
    from performers.german.analysis import morphemes

    parts = morphemes(word)
    return bool(parts) and parts[-1][1] == "SUF_INF"


def guess_verb_lemmas(form: str, min_zipf: float = 2.0) -> tuple[str, ...]:
    """Infinitives whose paradigm contains ``form`` as a finite form, found by stripping a regular ending
    and adding *-en*/*-n*; for tokens the tagger took for an adjective or infinitive (*umfasst* ADJD,
    *enthüllte* ADJA).  Only infinitives with a wordfreq Zipf frequency of at least ``min_zipf`` count,
    and only those HanTa's morphology analyses as infinitives, so that made-up stems, participles and
    adjectives are not taken for verbs.  Strong-verb ablaut forms are not recovered."""
    from performers.german.frequency import zipf

    word = form.lower()
    out: list[str] = []
    for ending in _ENDINGS:
        if ending and not word.endswith(ending):
            continue
        stem = word[: len(word) - len(ending)] if ending else word
        if len(stem) < 2:
            continue
        for infinitive in (stem + "en", stem + "n"):
            if infinitive in out or zipf(infinitive) < min_zipf:
                continue
            if verb_readings(form, infinitive) and _is_infinitive(infinitive):
                out.append(infinitive)
    return tuple(out)


def swap_number(form: str, lemma: str, person: int | None = None) -> tuple[str, ...]:
    """Forms of ``lemma`` with the other grammatical number and the same person, tense and mood as ``form``.

    With ``person`` given only readings of that person are used (the subject decides: *wir stehen* →
    *stehe*, *sie stehen* → *steht*); forms identical to ``form`` are dropped.  Capitalisation follows
    ``form``.
    """
    out: list[str] = []
    for reading in verb_readings(form, lemma):
        if person is not None and reading.person != person:
            continue
        other = "PL" if reading.number == "SG" else "SG"
        new = conjugate(reading.lemma, reading.tense, reading.mood, reading.person, other, fused=bool(reading.particle))
        if new is None:
            continue
        new = match_case(form, new)
        if new.lower() != form.lower() and new not in out:
            out.append(new)
    return tuple(out)


def auxiliary(lemma: str) -> str | None:
    """The perfect auxiliary (``haben`` or ``sein``) of ``lemma`` per ablaut; ``None`` if unknown."""
    table = paradigm(lemma)
    return None if table is None else str(table.auxiliary)


def past_participle(lemma: str) -> str | None:
    """The past participle of ``lemma`` per ablaut (``None`` if unknown)."""
    table = paradigm(lemma)
    return None if table is None else str(table.past_participle)
