"""German noun inflection: case forms of a noun, its genders, genitives of datives.

    from performers.german import noun_inflection as noun_inf

    noun_inf.noun_forms("Tag", "GEN", "SG", "MASC")    # ('Tages', 'Tags')   german-nouns, rules otherwise
    noun_inf.to_genitive("Morden", "PL")               # ('Morde',)
    noun_inf.noun_genders("See")                       # frozenset({'MASC', 'FEM'})

Noun forms come from german-nouns (Wiktionary) through :mod:`performers.german.nouns`; for nouns it
lacks, the head of a compound is looked up (*Landesdenkmalschutzgesetz* → *Gesetz*) and otherwise
regular endings are applied (-es after sibilants, -s otherwise; weak masculines and feminines unchanged).
Feature names are those of :mod:`performers.german.inflection`.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

from arena.sdk import DataError
from performers.german.inflection import GENDERS, NOUN_GENDER_FILE, match_case

logger = logging.getLogger(__name__)


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


def head_split(word: str) -> tuple[str, str] | None:
    """``(prefix, head)`` with ``head`` the longest known noun at the end of the compound ``word``."""
    from performers.german.nouns import is_noun_form

    if "-" in word.strip("-"):
        prefix, _, last = word.rpartition("-")
        if last[:1].isupper() and is_noun_form(last):
            return prefix + "-", last
        word_head = head_split(last) if len(last) > 4 else None
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
    split = head_split(noun)
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
    split = head_split(noun)
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
    from arena.sdk import load_yaml

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
    split = head_split(noun)
    return split is not None and split[1] in double


def noun_genders(noun: str) -> frozenset[str]:
    """Genders of ``noun`` (lemma or inflected form; via its compound head if unknown; else by suffix)."""
    from performers.german.nouns import genders

    found = genders(noun)
    if found:
        return found
    split = head_split(noun)
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


