"""Is a machine translation garbled — too broken to show any linguistic phenomenon?

A detector asks whether a translation *shows* an error (a dropped negation, …).  A
weak model's 1-best output is sometimes no German sentence at all: a loop of one
word or phrase, the English source copied through, a fragment of a long source.  Such
output has no negation either, so a detector of missing negation would count it as a
hit; :func:`garbled` names why a translation is garbage, so that detectors can leave
it out.

Rules (each returns its reason):

- ``loop``: a word, or a phrase of up to 4 words, repeated 3 or more times in a row
  (*die Kommission, die Kommission, die Kommission*);
- ``copied``: at least half of the translation's words of 4 or more letters are words
  of the English source (an untranslated or half-translated sentence);
- ``length``: fewer than 0.4 or more than 2.5 words per source word (a fragment, or
  run-on output), judged only for sources of 5 or more words.
"""

from __future__ import annotations

import re

WORD = re.compile(r"\w+", re.UNICODE)
MIN_RATIO, MAX_RATIO = 0.4, 2.5
MIN_SOURCE_WORDS = 5


def _looping(words: list[str], longest: int = 4, times: int = 3) -> bool:
    for size in range(1, longest + 1):
        for start in range(0, len(words) - size * times + 1):
            phrase = words[start : start + size]
            if all(words[start + k * size : start + (k + 1) * size] == phrase for k in range(1, times)):
                return True
    return False


def garbled(text: str, source: str | None = None) -> str | None:
    """Why ``text`` is garbage (``loop``, ``copied``, ``length``), or ``None``."""
    words = [w.lower() for w in WORD.findall(text)]
    if _looping(words):
        return "loop"
    if source is None:
        return None
    source_words = [w.lower() for w in WORD.findall(source)]
    long_words = [w for w in words if len(w) >= 4 and not w.isdigit()]
    english = set(source_words)
    if long_words and sum(w in english for w in long_words) * 2 >= len(long_words):
        return "copied"
    if len(source_words) >= MIN_SOURCE_WORDS:
        ratio = len(words) / len(source_words)
        if ratio < MIN_RATIO or ratio > MAX_RATIO:
            return "length"
    return None
