"""German verb inflection with **ablaut** (PyPI, MIT/Apache: a rule engine with exception tables
for strong, irregular and modal verbs; no data files, no network): readings of a finite form,
conjugation, number swaps, auxiliaries and participles.

    from performers.german import verb_inflection as verb_inf

    verb_inf.verb_readings("hatten", "haben")          # VerbReading(..., tense='PST', mood='IND', person=1, number='PL')...
    verb_inf.conjugate("haben", "PST", "IND", 3, "SG") # 'hatte'
    verb_inf.swap_number("stehen", "stehen", person=1) # ('stehe',)
    verb_inf.auxiliary("gehen")                        # 'sein'

The lemma is HanTa's (via the analysis layer); the person/number/tense/mood reading is found by
generating the lemma's paradigm and locating the form in it.  Separable verbs are handled both split
(*stehe … auf*: the finite token is *stehe*) and fused in verb-final position (*aufstehe*).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from performers.german.inflection import match_case
from performers.german.memo import word_cache

logger = logging.getLogger(__name__)


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


@word_cache(50_000)
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

