"""Noun gender, number and case from german-nouns (Wiktionary-derived, ~100k lemmas; loaded lazily, once).

API::

    from performers.german.nouns import noun_readings, noun_entries, genders, decline

    noun_readings("Tages")   # (NounReading(lemma='Tag', gender='MASC', number='SG', case='GEN'), ...)
    genders("Börse")         # frozenset({'FEM'})   (by lemma or by any inflected form)
    decline("Tag", "GEN", "SG")   # ('Tages', 'Tags')  main form first, then variants
    noun_entries("Jahr")     # raw entries: NounEntry(lemma, genders, forms={'SG.GEN': ('Jahres', 'Jahrs'), ...})

Features use the M2C-style keys of :mod:`performers.german.inflection`: number ``SG``/``PL``, case
``NOM``/``GEN``/``DAT``/``ACC``, gender ``MASC``/``FEM``/``NEUT``; a form key is ``NUMBER.CASE``.
Look-ups are case-sensitive first (``Essen`` the noun) and fall back to case-insensitive matches.
Columns of german-nouns marked ``*`` or numbered (``genitiv singular*``, ``dativ singular 1``) are kept as
variants; numbered columns go with the numbered gender (``genus 1``) where the entry has one.
"""

from __future__ import annotations

import csv
import logging
from collections.abc import Mapping
from dataclasses import dataclass

logger = logging.getLogger(__name__)

CASES = {"nominativ": "NOM", "genitiv": "GEN", "dativ": "DAT", "akkusativ": "ACC"}
NUMBERS = {"singular": "SG", "plural": "PL"}
GENDERS = {"m": "MASC", "f": "FEM", "n": "NEUT"}


@dataclass(frozen=True)
class NounEntry:
    """One german-nouns entry: ``forms`` maps ``NUMBER.CASE`` to its forms (main form first)."""

    lemma: str
    genders: frozenset[str]
    forms: Mapping[str, tuple[str, ...]]
    pos: tuple[str, ...] = ()


@dataclass(frozen=True)
class NounReading:
    """One reading of an inflected form."""

    lemma: str
    gender: str | None
    number: str
    case: str


class _Lexicon:
    def __init__(self) -> None:
        from german_nouns.config import CSV_FILE_PATH

        self.entries: list[NounEntry] = []
        self.by_lemma: dict[str, list[int]] = {}
        self.by_form: dict[str, list[tuple[int, str | None, str, str]]] = {}
        with open(CSV_FILE_PATH, encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            header = next(reader)
            columns = []  # (index, number, case, variant number or None)
            for index, name in enumerate(header):
                parts = name.split()
                if len(parts) >= 2 and parts[0] in CASES and parts[1].rstrip("*") in NUMBERS:
                    variant = parts[2] if len(parts) > 2 and parts[2].isdigit() else None
                    columns.append((index, NUMBERS[parts[1].rstrip("*")], CASES[parts[0]], variant))
            genus_columns = {
                (name.split()[1] if " " in name else None): index
                for index, name in enumerate(header)
                if name.startswith("genus")
            }
            for row in reader:
                if not row or not row[0]:
                    continue
                pos = tuple(row[1].split(",")) if row[1] else ()
                numbered = {key: GENDERS[row[col]] for key, col in genus_columns.items() if row[col] in GENDERS}
                genders = frozenset(numbered.values())
                forms: dict[str, list[str]] = {}
                number_in = len(self.entries)
                for index, number, case, variant in columns:
                    form = row[index] if index < len(row) else ""
                    if not form or form == "—" or form == "-":
                        continue
                    key = f"{number}.{case}"
                    forms.setdefault(key, [])
                    if form not in forms[key]:
                        forms[key].append(form)
                    if number == "PL":
                        gender_set: tuple[str | None, ...] = (None,)
                    elif variant is not None and variant in numbered:
                        gender_set = (numbered[variant],)
                    else:
                        gender_set = tuple(sorted(genders)) or (None,)
                    for gender in gender_set:
                        reading = (number_in, gender, number, case)
                        bucket = self.by_form.setdefault(form, [])
                        if reading not in bucket:
                            bucket.append(reading)
                self.entries.append(NounEntry(row[0], genders, {k: tuple(v) for k, v in forms.items()}, pos))
                self.by_lemma.setdefault(row[0], []).append(number_in)
        self.lower_form: dict[str, list[str]] = {}
        for form in self.by_form:
            self.lower_form.setdefault(form.lower(), []).append(form)
        self.lower_lemma: dict[str, list[str]] = {}
        for lemma in self.by_lemma:
            self.lower_lemma.setdefault(lemma.lower(), []).append(lemma)
        logger.debug("german-nouns: %d entries, %d forms", len(self.entries), len(self.by_form))


_LEXICON: _Lexicon | None = None


def lexicon() -> _Lexicon:
    """The loaded lexicon (loads german-nouns' CSV on first use, ~1-2 s)."""
    global _LEXICON
    if _LEXICON is None:
        _LEXICON = _Lexicon()
    return _LEXICON


def _exact_or_folded(word: str, table: Mapping[str, list], folded: Mapping[str, list[str]]) -> list[str]:
    if word in table:
        return [word]
    return folded.get(word.lower(), [])


def noun_entries(lemma: str) -> tuple[NounEntry, ...]:
    """Entries whose lemma is ``lemma`` (case-insensitive fallback)."""
    lex = lexicon()
    keys = _exact_or_folded(lemma, lex.by_lemma, lex.lower_lemma)
    return tuple(lex.entries[i] for key in keys for i in lex.by_lemma[key])


def noun_readings(form: str) -> tuple[NounReading, ...]:
    """Every (lemma, gender, number, case) reading of the inflected form ``form``."""
    lex = lexicon()
    keys = _exact_or_folded(form, lex.by_form, lex.lower_form)
    out: list[NounReading] = []
    for key in keys:
        for index, gender, number, case in lex.by_form[key]:
            reading = NounReading(lex.entries[index].lemma, gender, number, case)
            if reading not in out:
                out.append(reading)
    return tuple(out)


def is_noun_form(word: str) -> bool:
    """Whether ``word`` is a known form of a german-nouns entry."""
    lex = lexicon()
    return word in lex.by_form or word.lower() in lex.lower_form


def genders(word: str) -> frozenset[str]:
    """Genders of ``word`` read as a lemma, else as an inflected singular form; empty when unknown."""
    found = frozenset(g for entry in noun_entries(word) for g in entry.genders)
    if found:
        return found
    return frozenset(r.gender for r in noun_readings(word) if r.gender is not None)


def decline(lemma: str, case: str, number: str, gender: str | None = None) -> tuple[str, ...]:
    """Forms of ``lemma`` in ``case`` and ``number`` (main form first), optionally for entries of ``gender``."""
    key = f"{number}.{case}"
    out: list[str] = []
    for entry in noun_entries(lemma):
        if gender is not None and entry.genders and gender not in entry.genders:
            continue
        for form in entry.forms.get(key, ()):
            if form not in out:
                out.append(form)
    return tuple(out)
