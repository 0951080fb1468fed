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
Analyses and morphemes are also kept on disk per text and word (:mod:`performers.german.analysis_store`,
``$ARENA_CACHE_DIR/german-analysis.sqlite``), keyed by the backend's name and version, so other runs,
Zelligs and processes (Ray workers) read them instead of recomputing them; ``ARENA_ANALYSIS_CACHE=off``
switches that off.
"""

from __future__ import annotations

import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from arena.sdk import ConfigError
from performers.german.analysis_store import AnalysisStore, disable, store_for
from performers.german.somajo_hanta import SomajoHantaBackend, punctuation_tag, stts
from performers.german.tokens import DEFAULT_BACKEND, Analysis, Sentence, Token

__all__ = ["DEFAULT_BACKEND", "Analysis", "Backend", "Sentence", "SomajoHantaBackend", "Token", "analyze",
           "analyze_many", "morphemes", "punctuation_tag", "stts"]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
CACHE_SIZE = 100_000


@runtime_checkable
class Backend(Protocol):
    """A German analyser.  ``analyze`` must return tokens whose ``text`` equals the span of the input."""

    name: str

    def analyze(self, text: str) -> Analysis: ...


# ----------------------------------------------------------------------------------------------------
# backend registry and the cached entry points

_BACKEND_FACTORIES: dict[str, Callable[[], Backend]] = {"somajo-hanta": SomajoHantaBackend}
_BACKENDS: dict[str, Backend] = {}
_CACHE: OrderedDict[tuple[str, str], Analysis] = OrderedDict()
_MORPHEMES: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
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


def _disk(backend: str, call: Callable[[AnalysisStore], _T], default: _T) -> _T:
    """``call(store)`` on the backend's on-disk store; ``default`` when it is off or fails."""
    store = store_for(backend, get_backend(backend))
    if store is None:
        return default
    try:
        return call(store)
    except sqlite3.Error as error:
        disable(store, error)
        return default


def _store(backend: str, text: str, analysis: Analysis) -> None:
    """Put ``analysis`` of ``text`` in the backend's on-disk store (nothing when it is off)."""
    _disk(backend, lambda store: store.put(text, analysis), None)


def analyze(text: str, backend: str = DEFAULT_BACKEND) -> Analysis:
    """The (cached) analysis of ``text``: from memory, else from the on-disk store
    (:mod:`performers.german.analysis_store`), else computed and stored."""
    if not isinstance(text, str):
        raise TypeError(f"analyze expects a str, got {type(text).__name__}")
    key = (backend, text)
    cached = _CACHE.get(key)
    if cached is not None:
        _CACHE.move_to_end(key)
        return cached
    analysis = _disk(backend, lambda store: store.get(text), None)
    if analysis is None:
        analysis = get_backend(backend).analyze(text)
        _disk(backend, lambda store: store.put(text, analysis), None)
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
        stored: dict[str, Analysis] = {}
        stored = _disk(backend, lambda store: store.get_many(missing), stored)
        for text, analysis in stored.items():
            _remember((backend, text), analysis)
        missing = [text for text in missing if (backend, text) not in _CACHE]
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
                        _store(backend, text, analysis)
                    if bar is not None:
                        bar.update(len(chunk))
            finally:
                pool.shutdown(wait=False, cancel_futures=True)
        else:
            engine = get_backend(backend)
            for text in missing:
                analysis = engine.analyze(text)
                _remember((backend, text), analysis)
                _store(backend, text, analysis)
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
    from performers.german.frequency import limit_words
    from performers.german.memo import limit_word_caches

    limit_word_caches(words)  # compound splits, verb paradigms
    limit_words(words)  # Zipf frequencies (ours and wordfreq's)


def clear_cache(backends: bool = False) -> None:
    """Forget every cached analysis; with ``backends``, also the loaded backends' own caches (HanTa's tags
    per sentence, morphemes per word) — for benchmarks of uncached analysis.  Backends stay loaded."""
    _CACHE.clear()
    _MORPHEMES.clear()
    if backends:
        for backend in _BACKENDS.values():
            clear = getattr(backend, "clear", None)
            if callable(clear):
                clear()


def morphemes(word: str, backend: str = DEFAULT_BACKEND) -> tuple[tuple[str, str], ...]:
    """Morpheme segmentation of ``word`` by the backend (cached in memory and on disk), ``()`` where the
    backend has none."""
    key = (backend, word)
    found = _MORPHEMES.get(key)
    if found is not None:
        return found
    method = getattr(get_backend(backend), "morphemes", None)
    if method is None:
        return ()
    found = _disk(backend, lambda store: store.get_morphemes(word), None)
    if found is None:
        found = method(word)
        _disk(backend, lambda store: store.put_morphemes(word, found), None)
    if len(_MORPHEMES) >= CACHE_SIZE:
        _MORPHEMES.clear()
    _MORPHEMES[key] = found
    return found


def sentences_of(analyses: Sequence[Analysis]) -> int:
    """Total number of sentences in ``analyses`` (for throughput reports)."""
    return sum(len(analysis.sentences) for analysis in analyses)
