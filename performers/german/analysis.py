"""Shared German analysis: tokens with character offsets, sentences, STTS part of speech, lemma.

One analysis per text, computed once and shared by every German Zellig through a cache.

API (all a Zellig needs)::

    from performers.german.analysis import analyze, analyze_many, morphemes

    a = analyze("Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.")
    a.text                  # the analysed text, unchanged
    a.tokens                # tuple[Token, ...] in text order
    a.sentences             # tuple[Sentence, ...]
    t = a.tokens[2]
    t.text, t.start, t.end  # 'Börse', 11, 16   (a.text[t.start:t.end] == t.text, always)
    t.pos, t.lemma          # 'NN', 'Börse'     (STTS tag, lemma)
    t.xpos                  # the backend's own tag ('ADJ(A)' from HanTa for STTS 'ADJA')
    t.sentence, t.index     # sentence number, position in a.tokens
    t.space_after           # whitespace follows the token in the text
    t.kind                  # SoMaJo token class: regular, number, abbreviation, symbol, URL, ...
    a.sentence_tokens(0)    # the tokens of sentence 0
    s = a.sentences[0]; s.start, s.end, s.first, s.last   # char span, token index range [first, last)

    analyze_many(texts, workers=2)   # batch: dedupes, fills the cache (process pool when workers > 1)
    morphemes("unerwartet")          # (('un', 'PREF_NEG'), ('erwart', 'VVnp'), ('et', 'SUF_PP')) — HanTa
                                     # morphology, cached per word; () where the backend has none

Sibling modules: :mod:`performers.german.nouns` (gender, number, case of nouns from german-nouns),
:mod:`performers.german.frequency` (training-corpus counts and wordfreq Zipf values for LingEval97's
``frequency``), :mod:`performers.german.negation` (negating *un-*, negation markers),
:mod:`performers.german.compounds` (noun compound splitting).

Tags are STTS (Schiller et al. 1999) as HanTa emits them, normalised: HanTa's ``ADJ(A)`` → ``ADJA``,
``VV(FIN)`` → ``VVFIN``; HanTa's extra noun classes ``NNA`` (nominalised adjective, *der Abgeordnete*)
and ``NNI`` are reported as ``NN`` with the original kept in ``xpos``.  Punctuation is tagged from its
characters (HanTa tags quotes ``XY``/``FM``/``$``): ``$,`` comma, ``$.`` for ``. ? ! ; : …``, ``$(`` for
quotes, brackets and dashes.  Lemmas come from HanTa
(which sometimes uses the pre-1996 spelling, e.g. *Geschäftsschluß*); nouns' lemmas are capitalised.

Backends.  :class:`Backend` is the small interface (``name`` and ``analyze(text) -> Analysis``,
optionally ``morphemes(word)``).  The default, ``somajo-hanta``, tokenises and splits sentences with
SoMaJo (``de_CMC``, character offsets) and tags with HanTa's German model, which ships in its wheel.
Stanza or spaCy backends can be registered with :func:`register_backend` where their German models are
installed; none is shipped here because no such model is available offline in this project.

Cost and caching.  HanTa is the cost (~2-3 ms a sentence; SoMaJo ~1 ms).  Results are cached per text
(LRU, :data:`CACHE_SIZE` texts) and HanTa's tags per token sequence, so Zelligs that analyse the same
reference share one analysis; :func:`analyze_many` with ``workers > 1`` analyses in a process pool and
puts the results into this process's cache, after which :func:`analyze` is a dictionary look-up.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, runtime_checkable

from arena.errors import ConfigError
from performers.german.memo import _memoise

logger = logging.getLogger(__name__)

DEFAULT_BACKEND = "somajo-hanta"
CACHE_SIZE = 100_000


@dataclass(frozen=True)
class Token:
    """One token of an analysed text; ``text == analysis.text[start:end]``."""

    index: int
    text: str
    start: int
    end: int
    pos: str
    lemma: str
    sentence: int
    xpos: str = ""
    space_after: bool = True
    kind: str = "regular"


@dataclass(frozen=True)
class Sentence:
    """One sentence: character span ``[start, end)`` and token index range ``[first, last)``."""

    index: int
    start: int
    end: int
    first: int
    last: int


@dataclass(frozen=True)
class Analysis:
    """The analysis of one text."""

    text: str
    tokens: tuple[Token, ...]
    sentences: tuple[Sentence, ...]
    backend: str = DEFAULT_BACKEND

    def sentence_tokens(self, sentence: int) -> tuple[Token, ...]:
        span = self.sentences[sentence]
        return self.tokens[span.first : span.last]

    def token_at(self, char: int) -> Token | None:
        """The token covering character offset ``char``, or ``None``."""
        for token in self.tokens:
            if token.start <= char < token.end:
                return token
            if token.start > char:
                break
        return None


@runtime_checkable
class Backend(Protocol):
    """A German analyser.  ``analyze`` must return tokens whose ``text`` equals the span of the input."""

    name: str

    def analyze(self, text: str) -> Analysis: ...


# ----------------------------------------------------------------------------------------------------
# the default backend: SoMaJo + HanTa

_HANTA_TAG_MAP = {"NNA": "NN", "NNI": "NN"}


def stts(tag: str) -> str:
    """Normalise a HanTa tag to STTS: ``ADJ(A)`` → ``ADJA``, ``VV(FIN)`` → ``VVFIN``, ``NNA`` → ``NN``."""
    if "(" in tag and tag[0] != "$":
        return tag.replace("(", "").replace(")", "")
    return _HANTA_TAG_MAP.get(tag, tag)


_SENTENCE_PUNCTUATION = frozenset(".?!;:…")


def punctuation_tag(word: str) -> str | None:
    """The STTS tag of a punctuation token (``$,``, ``$.`` for ``. ? ! ; : …``, ``$(`` for the rest:
    quotes, brackets, dashes), or ``None`` when ``word`` has a letter or digit."""
    if any(char.isalnum() for char in word):
        return None
    if word == ",":
        return "$,"
    if all(char in _SENTENCE_PUNCTUATION for char in word):
        return "$."
    return "$("


class SomajoHantaBackend:
    """SoMaJo tokenisation and sentence splitting (with character offsets) + HanTa STTS tags and lemmas."""

    name = "somajo-hanta"

    def __init__(self, sentence_cache_size: int = 200_000) -> None:
        from HanTa import HanoverTagger
        from somajo import SoMaJo

        self._tokenizer = SoMaJo("de_CMC", split_camel_case=False, character_offsets=True)
        self._tagger = HanoverTagger.HanoverTagger("morphmodel_ger.pgz")
        # HanTa recomputes each word's tag distribution (outside its precomputed lexicon) and each lemma's
        # morpheme Viterbi for every occurrence; both are pure functions of the model, so memoise them per
        # word on this instance (about 3x faster tagging of running text).
        self._tagger._tag_word = _memoise(self._tagger._tag_word)
        self._tagger._analyze = _memoise(self._tagger._analyze)
        self._sentence_cache: OrderedDict[tuple[str, ...], tuple[tuple[str, str], ...]] = OrderedDict()
        self._sentence_cache_size = sentence_cache_size
        self._morphemes = lru_cache(maxsize=200_000)(self._morphemes_uncached)

    def _tag(self, words: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        cached = self._sentence_cache.get(words)
        if cached is not None:
            self._sentence_cache.move_to_end(words)
            return cached
        tagged = tuple((lemma, tag) for _, lemma, tag in self._tagger.tag_sent(list(words)))
        self._sentence_cache[words] = tagged
        if len(self._sentence_cache) > self._sentence_cache_size:
            self._sentence_cache.popitem(last=False)
        return tagged

    def analyze(self, text: str) -> Analysis:
        tokens: list[Token] = []
        sentences: list[Sentence] = []
        for sentence in self._tokenizer.tokenize_text([text]) if text.strip() else ():
            spans = [token.character_offset for token in sentence]
            words = tuple(text[start:end] for start, end in spans)
            # HanTa expects SoMaJo's token text; it equals the span except for rare normalisations
            tagged = self._tag(tuple(token.text for token in sentence))
            first = len(tokens)
            number = len(sentences)
            for token, word, (start, end), (lemma, tag) in zip(sentence, words, spans, tagged):
                punctuation = punctuation_tag(word)
                tokens.append(
                    Token(
                        index=len(tokens),
                        text=word,
                        start=start,
                        end=end,
                        pos=punctuation or stts(tag),
                        lemma=lemma,
                        sentence=number,
                        xpos=tag,
                        space_after=bool(token.space_after),
                        kind=token.token_class,
                    )
                )
            sentences.append(Sentence(number, spans[0][0], spans[-1][1], first, len(tokens)))
        return Analysis(text, tuple(tokens), tuple(sentences), self.name)

    def limit(self, sentences: int, words: int) -> None:
        """Keep at most ``sentences`` tagged sentences and ``words`` results per word cache."""
        self._sentence_cache_size = sentences
        while len(self._sentence_cache) > sentences:
            self._sentence_cache.popitem(last=False)
        for method in (self._tagger._tag_word, self._tagger._analyze):
            method.limit = words
            while len(method.memo) > words:
                method.memo.popitem(last=False)
        if self._morphemes.cache_info().maxsize != words:
            self._morphemes = lru_cache(maxsize=words)(self._morphemes_uncached)

    def clear(self) -> None:
        """Forget the cached tags and morphemes."""
        self._sentence_cache.clear()
        self._morphemes.cache_clear()
        self._tagger._tag_word.memo.clear()
        self._tagger._analyze.memo.clear()

    def _morphemes_uncached(self, word: str) -> tuple[tuple[str, str], ...]:
        _, morphs, _ = self._tagger.analyze(word, taglevel=3)
        return tuple((morph, tag) for morph, tag in morphs)

    def morphemes(self, word: str) -> tuple[tuple[str, str], ...]:
        """HanTa's morpheme segmentation of ``word`` (lower-cased morphs with tags such as ``PREF_NEG``,
        ``NN``, ``FUGE``, ``SUF_PP``)."""
        return self._morphemes(word)


# ----------------------------------------------------------------------------------------------------
# backend registry and the cached entry points

_BACKEND_FACTORIES: dict[str, Callable[[], Backend]] = {"somajo-hanta": SomajoHantaBackend}
_BACKENDS: dict[str, Backend] = {}
_CACHE: OrderedDict[tuple[str, str], Analysis] = OrderedDict()
_LIMITS: tuple[int, int] | None = None  # (texts, words) of limit_caches, for backends loaded later


def register_backend(name: str, factory: Callable[[], Backend]) -> None:
    """Make a backend available under ``name`` (e.g. a stanza pipeline where its German model exists)."""
    _BACKEND_FACTORIES[name] = factory


def backends() -> list[str]:
    """Names of the registered backends."""
    return sorted(_BACKEND_FACTORIES)


def get_backend(name: str = DEFAULT_BACKEND) -> Backend:
    """The backend ``name``, built once per process."""
    backend = _BACKENDS.get(name)
    if backend is None:
        if name not in _BACKEND_FACTORIES:
            raise ConfigError(f"unknown German analysis backend {name!r}; known: {', '.join(backends())}")
        logger.debug("loading German analysis backend %s", name)
        backend = _BACKENDS[name] = _BACKEND_FACTORIES[name]()
        limit = getattr(backend, "limit", None)
        if _LIMITS is not None and callable(limit):
            limit(*_LIMITS)
    return backend


def _remember(key: tuple[str, str], analysis: Analysis) -> None:
    _CACHE[key] = analysis
    if len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)


def analyze(text: str, backend: str = DEFAULT_BACKEND) -> Analysis:
    """The (cached) analysis of ``text``."""
    if not isinstance(text, str):
        raise TypeError(f"analyze expects a str, got {type(text).__name__}")
    key = (backend, text)
    cached = _CACHE.get(key)
    if cached is not None:
        _CACHE.move_to_end(key)
        return cached
    analysis = get_backend(backend).analyze(text)
    _remember(key, analysis)
    return analysis


def _ignore_interrupts() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C


def _analyze_chunk(args: tuple[str, list[str]]) -> list[Analysis]:
    backend, texts = args
    engine = get_backend(backend)
    return [engine.analyze(text) for text in texts]


def analyze_many(
    texts: Iterable[str],
    backend: str = DEFAULT_BACKEND,
    workers: int = 1,
    chunk_size: int = 64,
    progress: bool = False,
) -> list[Analysis]:
    """Analyses of ``texts`` in order; duplicates and cached texts are analysed once.

    With ``workers > 1`` the missing analyses are computed in a process pool (each worker loads the
    backend once) and added to this process's cache.
    """
    texts = list(texts)
    missing = list(dict.fromkeys(text for text in texts if (backend, text) not in _CACHE))
    if missing:
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(missing), desc="analysing", unit="text")
        if workers > 1 and len(missing) > chunk_size:
            from concurrent.futures import ProcessPoolExecutor

            chunks = [missing[i : i + chunk_size] for i in range(0, len(missing), chunk_size)]
            pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
            try:  # on Ctrl-C: cancel what is queued instead of waiting for every chunk
                for chunk, results in zip(chunks, pool.map(_analyze_chunk, [(backend, c) for c in chunks])):
                    for text, analysis in zip(chunk, results):
                        _remember((backend, text), analysis)
                    if bar is not None:
                        bar.update(len(chunk))
            finally:
                pool.shutdown(wait=False, cancel_futures=True)
        else:
            engine = get_backend(backend)
            for text in missing:
                _remember((backend, text), engine.analyze(text))
                if bar is not None:
                    bar.update(1)
        if bar is not None:
            bar.close()
    return [analyze(text, backend) for text in texts]


def limit_caches(texts: int, words: int = 20_000) -> None:
    """Keep at most ``texts`` analyses (and tagged sentences) and ``words`` entries per word
    cache, in loaded and later backends: for streaming verbs (``arena corrupt``), which see
    each line once and would fill caches sized for a tournament (~1 GB at 200k lines)."""
    global CACHE_SIZE, _LIMITS
    CACHE_SIZE, _LIMITS = texts, (texts, words)
    while len(_CACHE) > texts:
        _CACHE.popitem(last=False)
    for backend in _BACKENDS.values():
        limit = getattr(backend, "limit", None)
        if callable(limit):
            limit(texts, words)


def clear_cache(backends: bool = False) -> None:
    """Forget every cached analysis; with ``backends``, also the loaded backends' own caches (HanTa's tags
    per sentence, morphemes per word) — for benchmarks of uncached analysis.  Backends stay loaded."""
    _CACHE.clear()
    if backends:
        for backend in _BACKENDS.values():
            clear = getattr(backend, "clear", None)
            if callable(clear):
                clear()


def morphemes(word: str, backend: str = DEFAULT_BACKEND) -> tuple[tuple[str, str], ...]:
    """Morpheme segmentation of ``word`` by the backend (cached), ``()`` where the backend has none."""
    engine = get_backend(backend)
    method = getattr(engine, "morphemes", None)
    return method(word) if method is not None else ()


def sentences_of(analyses: Sequence[Analysis]) -> int:
    """Total number of sentences in ``analyses`` (for throughput reports)."""
    return sum(len(analysis.sentences) for analysis in analyses)
