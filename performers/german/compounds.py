"""Noun compound splitting (*Bundesverfassungsgericht* → *Bundes* | *verfassungs* | *gericht*).

API::

    from performers.german.compounds import split_compound
    split_compound("Bundesverfassungsgericht")   # ('Bundes', 'verfassungs', 'gericht')
    split_compound("Wirtschaftskrise")           # ('Wirtschafts', 'krise')
    split_compound("Haus")                       # None (no split)

Segments keep the word's own characters (``"".join(segments) == word``), each non-final segment with
its linking element (*Fugenelement*: ``s``, ``es``, ``n``, ``en``, ``er``, ``e``, ``ens``).  Every
non-final part must be a german-nouns lemma of at least :data:`MIN_PART` letters (shorter ones, such as
*Des* or *Bun*, make false splits: *Bun* | *des* | *verfassungs* ...), the final part a form of a
german-nouns noun of at least :data:`MIN_PART` letters, and every part attested (wordfreq Zipf ≥
:data:`MIN_ZIPF`, for an inflected final part that of its lemma).  Among the possible splits the one
with the highest mean Zipf frequency of its parts wins (Koehn & Knight 2003's geometric-mean criterion, without the option of not splitting), so
*Wirtschaftskrise* splits into *Wirtschaft* + *Krise*, not *Wirt* + *Schaft* + *Krise*.  Only
alphabetic words are split (hyphenated compounds are left alone).
"""

from __future__ import annotations

import csv
from functools import lru_cache

from performers.german.frequency import zipf
from performers.german.memo import word_cache

LINKS = ("", "s", "es", "n", "en", "er", "e", "ens")
MIN_PART = 4
MIN_ZIPF = 3.0
_EXCLUDED_POS = frozenset(
    {"Abkürzung", "Affix", "Gebundenes Lexem", "Suffix", "Präfix", "Vorname", "Nachname", "Familienname",
     "Eigenname", "Toponym", "Straßenname", "Buchstabe", "Wortverbindung", "Ortsnamengrundwort"}
)  # fmt: skip


SUFFIX_HOMOGRAPHS = frozenset({"schaft", "heit", "keit", "tum", "ling", "nis"})
"""Derivational suffixes that are also nouns (*Schaft*): never a compound part (*Staatsbürgerschaft* is
*Staats* | *bürgerschaft*, not *Staats* | *bürger* | *schaft*)."""


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """(lower-case common-noun lemmas, lower-case forms of those nouns)."""
    from performers.german.nouns import lexicon

    lex = lexicon()
    lemmas: set[str] = set()
    forms: set[str] = set()
    columns, _ = lex._columns()
    for row in csv.reader(lex.lines):
        if not row or not row[0].isalpha():
            continue
        pos = set(row[1].split(",")) if row[1] else set()
        if "Substantiv" not in pos or pos & _EXCLUDED_POS:
            continue
        if row[0].lower() in SUFFIX_HOMOGRAPHS:
            continue
        lemmas.add(row[0].lower())
        for index, form in enumerate(row):
            if index in columns and form.isalpha():
                forms.add(form.lower())
    return frozenset(lemmas), frozenset(forms)


_ENDINGS = ("s", "es", "n", "en", "e", "er", "ern", "ns")


def _final_score(form: str, lemmas: frozenset[str]) -> float:
    """Zipf frequency of a final part: of the form itself or, if higher, of its lemma (*fahrscheins*)."""
    score = zipf(form)
    for ending in _ENDINGS:
        if form.endswith(ending) and form[: -len(ending)] in lemmas:
            score = max(score, zipf(form[: -len(ending)]))
    return score


@word_cache(100_000)
def split_compound(word: str) -> tuple[str, ...] | None:
    """The best split of ``word`` into two or more noun parts, or ``None``."""
    if not word.isalpha() or len(word) < 2 * MIN_PART + 1:
        return None
    lemmas, forms = _vocabulary()
    lower = word.lower()
    length = len(lower)
    # best[i]: (sum of Zipf, number of parts, boundaries) of the best split of lower[i:]
    best: list[tuple[float, int, tuple[int, ...]] | None] = [None] * (length + 1)
    for start in range(length - MIN_PART, -1, -1):
        candidates: list[tuple[float, int, tuple[int, ...]]] = []
        rest = lower[start:]
        if start > 0 and len(rest) >= MIN_PART and rest in forms:
            score = _final_score(rest, lemmas)
            if score >= MIN_ZIPF:
                candidates.append((score, 1, ()))
        for end in range(start + MIN_PART, length - MIN_PART + 1):
            follow = best[end]
            if follow is None:
                continue
            piece = lower[start:end]
            for link in LINKS:
                if link and not piece.endswith(link):
                    continue
                stem = piece[: len(piece) - len(link)] if link else piece
                if len(stem) < MIN_PART or stem not in lemmas:
                    continue
                score = zipf(stem)
                if score < MIN_ZIPF:
                    continue
                candidates.append((score + follow[0], follow[1] + 1, (end,) + follow[2]))
                break
        if candidates:
            best[start] = max(candidates, key=lambda c: (c[0] / c[1], -c[1]))
    found = best[0]
    if found is None or found[1] < 2:
        return None
    cuts = (0,) + found[2] + (length,)
    return tuple(word[cuts[i] : cuts[i + 1]] for i in range(len(cuts) - 1))
