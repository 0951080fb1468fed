"""Word frequencies for LingEval97-style ``frequency`` metadata.

LingEval97 (Sennrich 2017) annotates each contrastive pair with the frequency *in the training data* of
the word the error is about, and reports accuracy by frequency bucket (the buckets are the arena metrics'
business, not this module's).  Two sources:

- :class:`CorpusFrequency` — raw counts from a user-given training corpus (plain text, one sentence a
  line, e.g. ``../shared/data/parallel-toy/train.de``): reproduces LingEval97's measure.  Counts are
  case-sensitive word counts over a simple Unicode word tokenisation (``\\w+`` with inner hyphens and
  apostrophes), computed once per file per process and cached.
- :class:`WordfreqFrequency` — wordfreq's Zipf frequency for German (log10 of occurrences per billion
  words; 0 for unknown words), when no corpus is given.  It is *not* a count: its ``unit`` says so.

Both offer ``frequency(word) -> float`` and a ``unit`` (``"count"`` or ``"zipf"``).  Zelligs take a
``training_corpus`` parameter and call :func:`frequency_meta`, which records ``meta["frequency"]`` (the
training-corpus count, LingEval97's measure, binned by the arena) only when a corpus is given, and always
``meta["zipf_frequency"]`` (wordfreq) — never a Zipf value under ``frequency``.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from arena.sdk import ConfigError

logger = logging.getLogger(__name__)

WORD = re.compile(r"\w+(?:[-'’]\w+)*")


class FrequencySource(Protocol):
    unit: str

    def frequency(self, word: str) -> float: ...


CACHE_LIMIT = 100_000  # words per WordfreqFrequency cache


class WordfreqFrequency:
    """wordfreq's Zipf frequency of a German word (``unit = "zipf"``)."""

    unit = "zipf"
    name = "wordfreq"

    def __init__(self, wordlist: str = "best") -> None:
        self.wordlist = wordlist
        self._cache: dict[str, float] = {}  # emptied at CACHE_LIMIT words: bounded in streaming use

    def frequency(self, word: str) -> float:
        value = self._cache.get(word)
        if value is None:
            from wordfreq import zipf_frequency

            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()
            _bound_wordfreq()
            value = self._cache[word] = float(zipf_frequency(word, "de", wordlist=self.wordlist))
        return value


def limit_words(words: int) -> None:
    """Keep at most ``words`` words in each frequency cache, wordfreq's own included (for
    streaming verbs: :func:`performers.german.analysis.limit_caches`)."""
    global CACHE_LIMIT
    CACHE_LIMIT = words
    _bound_wordfreq()


def _bound_wordfreq() -> None:
    """wordfreq keeps its own cache of up to ``wordfreq.CACHE_SIZE`` (100,000) results,
    emptied when full; it reads that module global on every call, so lowering it bounds it."""
    import sys

    wordfreq = sys.modules.get("wordfreq")
    if wordfreq is not None and getattr(wordfreq, "CACHE_SIZE", 0) > CACHE_LIMIT:
        setattr(wordfreq, "CACHE_SIZE", CACHE_LIMIT)  # noqa: B010 (a module global of a library without stubs)


class CorpusFrequency:
    """Case-sensitive counts of words in a training corpus (``unit = "count"``)."""

    unit = "count"

    def __init__(self, counts: Counter[str], name: str = "corpus") -> None:
        self.counts = counts
        self.name = name

    @classmethod
    def from_file(cls, path: str | Path) -> CorpusFrequency:
        return _corpus_from_file(str(Path(path).resolve()))

    @classmethod
    def from_lines(cls, lines, name: str = "corpus") -> CorpusFrequency:
        counts: Counter[str] = Counter()
        for line in lines:
            counts.update(WORD.findall(line))
        return cls(counts, name)

    def frequency(self, word: str) -> float:
        return self.counts.get(word, 0)


@lru_cache(maxsize=8)
def _corpus_from_file(path: str) -> CorpusFrequency:
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"training corpus {path!r} does not exist or is not a file")
    logger.info("counting words in %s", path)
    with file.open(encoding="utf-8") as handle:
        return CorpusFrequency.from_lines(handle, name=path)


_WORDFREQ = WordfreqFrequency()


def zipf(word: str) -> float:
    """wordfreq's Zipf frequency of ``word`` in German (cached)."""
    return _WORDFREQ.frequency(word)


def frequency_source(training_corpus: str | Path | None = None) -> FrequencySource:
    """Counts from ``training_corpus`` when given, else wordfreq's Zipf frequency."""
    if training_corpus is None or training_corpus == "":
        return _WORDFREQ
    return CorpusFrequency.from_file(training_corpus)


def training_counts(training_corpus: str | Path | None) -> CorpusFrequency | None:
    """The counts of ``training_corpus``, or ``None`` when no corpus is given (a Zellig parameter)."""
    if training_corpus is None or training_corpus == "":
        return None
    return CorpusFrequency.from_file(training_corpus)


def frequency_meta(counts: CorpusFrequency | None, *words: str) -> dict[str, float | int]:
    """LingEval97-style frequency metadata of the rarer of ``words``.

    Always ``zipf_frequency`` (wordfreq); ``frequency`` — the raw count in the training corpus, which
    is what LingEval97's bins expect — only when ``counts`` is given.  A Zipf value is never put under
    ``frequency``: the arena bins that key as a count.
    """
    meta: dict[str, float | int] = {"zipf_frequency": min(zipf(word) for word in words)}
    if counts is not None:
        meta["frequency"] = int(min(counts.frequency(word) for word in words))
    return meta
