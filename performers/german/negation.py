"""Negation in German (and a little English, for detectors that look at the source).

- :func:`strip_un` — the word without its negating prefix *un-* (*unerwartet* → *erwartet*,
  *Unklarheit* → *Klarheit*), or ``None`` where *un-* is not a negation prefix or the rest is no word.
- :func:`add_un` — the word with a negating *un-* (*wichtig* → *unwichtig*), or ``None``.
- :func:`negation_count` — how many negation markers an analysed German text has.
- :func:`english_negations` — negation markers of an English source (``not``, ``n't``, ``no``,
  ``never``, ``un-`` words ...).

Decisions.  *un-* negates when the word is an adjective, adverb, participle or noun (STTS ``ADJA``,
``ADJD``, ``ADV``, ``VVPP``, ``NN``), the rest is attested as a German word (wordfreq Zipf ≥
:data:`MIN_ZIPF_REST`; ``klar``, ``schätzbar``), and the word does not start with one of
:data:`NOT_NEGATING` — *unter-*, *Union*, *Uni-*, *unser* (*und*, *uns* are no adjectives) and lexicalised *un-* nouns whose
base is no antonym (*Unfall*, *Unmenge*, *Unkosten*, *Unwetter*, ...).  HanTa's morphology
(``PREF_NEG``) is not required (it leaves *Unklarheit* or *Unschuld* unsegmented) but is required for
insertion of *un-*, together with a stricter attestation of the new word (:data:`MIN_ZIPF_INSERTED`).
"""

from __future__ import annotations

import re

from performers.german.analysis import DEFAULT_BACKEND, Analysis, morphemes
from performers.german.frequency import zipf

UN_POS = frozenset({"ADJA", "ADJD", "ADV", "VVPP", "NN"})
INSERT_POS = frozenset({"ADJA", "ADJD", "NN"})
MIN_ZIPF_REST = 1.0
MIN_ZIPF_INSERTED = 2.0

NOT_NEGATING: tuple[str, ...] = (
    # not the prefix un- at all
    "unter", "union", "uni", "unser", "unsr", "unten", "ungar", "unesco", "unicef", "unze", "unke",
    # lexicalised un- words whose base is no antonym (Unfall is no "not-Fall")
    "unfall", "unfäll", "unwetter", "unmenge", "unzahl", "unsumme", "unkosten", "unmut", "unding", "unwesen",
    "untat", "unkraut", "ungeheuer", "unrat", "untiefe", "ungeziefer", "unbill", "ungefähr",
    "unverzüglich", "unentwegt",
)  # fmt: skip
"""Lower-case word beginnings for which *un-* is no negation prefix to delete or insert."""

GERMAN_NEGATIONS = frozenset(
    {"nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals", "nichts", "niemand",
     "nirgends", "nirgendwo", "weder", "ohne"}
)  # fmt: skip

_UN = re.compile(r"^[Uu]n[a-zäöüß]{3,}$")


def _not_negating(word: str) -> bool:
    return word.lower().startswith(NOT_NEGATING)


def strip_un(word: str, pos: str) -> str | None:
    """``word`` without its negating *un-* (capitalised like ``word``), or ``None``."""
    if pos not in UN_POS or not _UN.match(word) or _not_negating(word):
        return None
    rest = word[2:]
    if word[0].isupper():
        rest = rest[:1].upper() + rest[1:]
    if zipf(rest) < MIN_ZIPF_REST:
        return None
    return rest


def add_un(word: str, pos: str, sentence_initial: bool = False, backend: str = DEFAULT_BACKEND) -> str | None:
    """``word`` with a negating *un-* prefixed, or ``None`` where that gives no attested negated word."""
    if pos not in INSERT_POS or len(word) < 3 or not word.isalpha() or word.lower().startswith("un"):
        return None
    if pos == "NN" or (sentence_initial and word[0].isupper()):
        if not word[0].isupper():
            return None
        new = "Un" + word[0].lower() + word[1:]
        if pos != "NN" and zipf(word[0].lower() + word[1:]) < MIN_ZIPF_REST:
            return None
    else:
        if not word[0].islower():
            return None
        new = "un" + word
    if _not_negating(new) or zipf(new) < MIN_ZIPF_INSERTED:
        return None
    morphs = morphemes(new, backend)
    if pos != "NN" and (not morphs or morphs[0][1] != "PREF_NEG"):
        return None
    return new


def negation_count(analysis: Analysis) -> int:
    """Negation markers in an analysed German text: *nicht*, *kein-*, *nie*, *ohne*, ... and words with a
    negating *un-*."""
    count = 0
    for token in analysis.tokens:
        lower = token.text.lower()
        if lower in GERMAN_NEGATIONS or token.pos == "PTKNEG":
            count += 1
        elif strip_un(token.text, token.pos) is not None:
            count += 1
    return count


ENGLISH_NOT = re.compile(r"\b(?:not|no|never|none|nothing|nobody|neither|nor|without|cannot)\b|n't\b", re.I)
_ENGLISH_UN = re.compile(r"\b(un|non-?)([a-z]{3,})\b", re.I)
# words whose un- is no prefix although the rest is a word (the zipf test below leaves out *unique*,
# *university*, *uniform*: their rests are no words); not "uni" as a whole, which lost *unimportant*,
# *unidentified*, *unintended*
_ENGLISH_NOT_NEGATING = ("under", "union", "units", "unix", "until", "unless", "unleash", "unto")


def english_un_words(source: str) -> list[str]:
    """English words with a negating *un-*/*non-* prefix (*unexpected*, *non-binding*)."""
    from wordfreq import zipf_frequency

    found = []
    for match in _ENGLISH_UN.finditer(source):
        word = match.group(0)
        if word.lower().startswith(_ENGLISH_NOT_NEGATING):
            continue
        if zipf_frequency(match.group(2), "en") >= 3.0:
            found.append(word)
    return found


def english_negations(source: str) -> int:
    """Negation markers of an English text: negative particles and determiners, and *un-*/*non-* words."""
    return len(ENGLISH_NOT.findall(source)) + len(english_un_words(source))


def negation_free(source: str | None) -> bool:
    """An English source with no negation marker at all: a translation of it that negates has inserted
    a negation (the condition of the insertion Zelligs' detectors)."""
    return source is not None and bool(source.strip()) and english_negations(source) == 0


GERMAN_PARTICLES = frozenset({"nicht", "nie", "niemals"})
GERMAN_DETERMINERS = frozenset(
    {"kein", "keine", "keinen", "keinem", "keiner", "keines", "keinerlei", "nichts", "niemand", "niemanden",
     "niemandem", "niemands"}
)  # fmt: skip
