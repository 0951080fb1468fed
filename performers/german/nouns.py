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
import io
import logging
import os
import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

CASES = {"nominativ": "NOM", "genitiv": "GEN", "dativ": "DAT", "akkusativ": "ACC"}
NUMBERS = {"singular": "SG", "plural": "PL"}
GENDERS = {"m": "MASC", "f": "FEM", "n": "NEUT"}
_FORMAT = 2  # bump when _Lexicon's fields change (invalidates the on-disk cache)


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


_GENDER_CODES = (None, "MASC", "FEM", "NEUT")
_NUMBER_CODES = ("SG", "PL")
_CASE_CODES = ("NOM", "GEN", "DAT", "ACC")


def _pack(entry: int, gender: str | None, number: str, case: str) -> int:
    return entry << 5 | _GENDER_CODES.index(gender) << 3 | _NUMBER_CODES.index(number) << 2 | _CASE_CODES.index(case)


def _unpack(code: int) -> tuple[int, str | None, str, str]:
    return code >> 5, _GENDER_CODES[code >> 3 & 3], _NUMBER_CODES[code >> 2 & 1], _CASE_CODES[code & 3]


class _Lexicon:
    """Compact index over german-nouns: the raw CSV lines (parsed into :class:`NounEntry` on demand)
    and form → packed (entry, gender, number, case) readings."""

    def __init__(self) -> None:
        from german_nouns.config import CSV_FILE_PATH

        with open(CSV_FILE_PATH, encoding="utf-8", newline="") as handle:
            raw = handle.read().splitlines()
        self.header = next(csv.reader(raw[:1]))
        self.lines: list[str] = []
        by_lemma: dict[str, list[int]] = {}
        by_form: dict[str, list[int]] = {}
        columns, genus_columns = self._columns()
        for row in csv.reader(raw[1:]):
            if not row or not row[0]:
                continue
            entry = len(self.lines)
            self.lines.append(_join(row))
            numbered = {key: GENDERS[row[col]] for key, col in genus_columns.items() if row[col] in GENDERS}
            all_genders = tuple(sorted(set(numbered.values()))) or (None,)
            for index, form in enumerate(row):
                column = columns.get(index)
                if column is None or not form or form in ("—", "-"):
                    continue
                number, case, variant = column
                if number == "PL":
                    gender_set: tuple[str | None, ...] = (None,)
                elif variant is not None and variant in numbered:
                    gender_set = (numbered[variant],)
                else:
                    gender_set = all_genders
                bucket = by_form.setdefault(form, [])
                for gender in gender_set:
                    code = _pack(entry, gender, number, case)
                    if code not in bucket:
                        bucket.append(code)
            by_lemma.setdefault(row[0], []).append(entry)
        self.by_form = {form: tuple(codes) for form, codes in by_form.items()}
        self.by_lemma = {lemma: tuple(entries) for lemma, entries in by_lemma.items()}
        self.lower_form: dict[str, list[str]] = {}
        for form in self.by_form:
            self.lower_form.setdefault(form.lower(), []).append(form)
        self.lower_lemma: dict[str, list[str]] = {}
        for lemma in self.by_lemma:
            self.lower_lemma.setdefault(lemma.lower(), []).append(lemma)
        self._entries: dict[int, NounEntry] = {}
        logger.debug("german-nouns: %d entries, %d forms", len(self.lines), len(self.by_form))

    def _columns(self) -> tuple[dict[int, tuple[str, str, str | None]], dict[str | None, int]]:
        columns: dict[int, tuple[str, str, str | None]] = {}  # index -> (number, case, variant number)
        for index, name in enumerate(self.header):
            parts = name.split()
            if len(parts) >= 2 and parts[0] in CASES and parts[1].rstrip("*") in NUMBERS:
                variant = parts[2] if len(parts) > 2 and parts[2].isdigit() else None
                columns[index] = (NUMBERS[parts[1].rstrip("*")], CASES[parts[0]], variant)
        genus_columns = {
            (name.split()[1] if " " in name else None): index
            for index, name in enumerate(self.header)
            if name.startswith("genus")
        }
        return columns, genus_columns

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_entries"] = {}
        return state

    def entry(self, index: int) -> NounEntry:
        found = self._entries.get(index)
        if found is None:
            row = next(csv.reader([self.lines[index]]))
            columns, genus_columns = self._columns()
            genders = frozenset(GENDERS[row[col]] for col in genus_columns.values() if row[col] in GENDERS)
            forms: dict[str, list[str]] = {}
            for column, form in enumerate(row):
                if column in columns and form and form not in ("—", "-"):
                    number, case, _ = columns[column]
                    bucket = forms.setdefault(f"{number}.{case}", [])
                    if form not in bucket:
                        bucket.append(form)
            pos = tuple(row[1].split(",")) if row[1] else ()
            found = self._entries[index] = NounEntry(row[0], genders, {k: tuple(v) for k, v in forms.items()}, pos)
        return found


def _join(row: list[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow(row)
    return buffer.getvalue()


_LEXICON: _Lexicon | None = None


def _cache_path() -> Path:
    from importlib.metadata import version

    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "arena" / f"german-nouns-{version('german-nouns')}-lexicon-v{_FORMAT}.pickle"


def lexicon() -> _Lexicon:
    """The loaded lexicon.  Parsing german-nouns' CSV takes a few seconds, so the parsed lexicon is
    kept in a pickle under ``$XDG_CACHE_HOME/arena`` (``~/.cache/arena``) keyed by the package version;
    later processes load it in about a second."""
    global _LEXICON
    if _LEXICON is None:
        path = _cache_path()
        try:
            with path.open("rb") as handle:
                _LEXICON = pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
            _LEXICON = _Lexicon()
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                temporary = path.with_suffix(f".{os.getpid()}.tmp")
                with temporary.open("wb") as handle:
                    pickle.dump(_LEXICON, handle, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(temporary, path)
            except OSError as error:
                logger.debug("could not cache the german-nouns lexicon at %s: %s", path, error)
    return _LEXICON


def _exact_or_folded(word: str, table: Mapping[str, object], folded: Mapping[str, list[str]]) -> list[str]:
    if word in table:
        return [word]
    return folded.get(word.lower(), [])


def noun_entries(lemma: str) -> tuple[NounEntry, ...]:
    """Entries whose lemma is ``lemma`` (case-insensitive fallback)."""
    lex = lexicon()
    keys = _exact_or_folded(lemma, lex.by_lemma, lex.lower_lemma)
    return tuple(lex.entry(i) for key in keys for i in lex.by_lemma[key])


def noun_readings(form: str) -> tuple[NounReading, ...]:
    """Every (lemma, gender, number, case) reading of the inflected form ``form``."""
    lex = lexicon()
    keys = _exact_or_folded(form, lex.by_form, lex.lower_form)
    out: list[NounReading] = []
    for key in keys:
        for code in lex.by_form[key]:
            index, gender, number, case = _unpack(code)
            reading = NounReading(lex.entry(index).lemma, gender, number, case)
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
