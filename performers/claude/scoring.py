"""The scoring Claude base: ``judge`` from ``score``, with deduplication and a cache.

The score convention (the one place it is written down)
-------------------------------------------------------
For a pair (source ``x``, target ``y``) the model's tokenizer turns ``y`` into the
token sequence ``y_1 … y_T`` that the model is trained to produce, *ending with the
end-of-sentence token*.  Tokens the decoder is given rather than asked for — the
decoder start token, and a forced target-language token (NLLB, M2M100, mBART-50
with ``target_lang``) — are context, not scored.  Then

- ``SequenceScore.logprob = Σ_t ln p(y_t | x, y_<t)`` (natural logarithm, t = 1…T),
- ``SequenceScore.tokens = T`` (end-of-sentence token included),
- ``SequenceScore.mean = logprob / T`` — the length-normalised score that
  DistilLingEval compares (fairseq reports the same mean in base 2; divide ours by
  ``ln 2`` to compare).

Higher is better.  ``judge`` compares the candidates of a pair by ``mean`` (the
default, as DistilLingEval) or by ``sum`` (``convention="sum"``, as BLiMP-style
monolingual evaluation), names the lowest-scoring candidate as the corrupted one, and
abstains (``Judgement(None, scores)``) when the lowest score is shared exactly; the
arena then flips a seeded coin.  ``Judgement.scores`` are the per-candidate scores in
the chosen convention.

A concrete Claude subclasses :class:`ScoringClaude` and implements

- :meth:`ScoringClaude._score_uncached` — yields ``(index, logprob, tokens)`` results
  for a list of distinct (source, target) pairs, batch by batch;
- :meth:`ScoringClaude._translate_uncached` — yields ``(index, translation)`` results;
- :meth:`ScoringClaude.identity` — what the scores depend on (model weights or name
  and revision, tokenizer, dtype, convention), the key of the persistent cache.

Everything else — dropping duplicate requests, serving what the cache has, committing
results in chunks so that an interrupted evaluation resumes where it stopped,
progress bars — lives here.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from arena.sdk import (
    ConfigError,
    Judgement,
    Pair,
    ScoreConvention,
    SequenceScore,
    TokenScores,
    candidate_score,
    judgement_from_scores,
)

log = logging.getLogger(__name__)

# what the token accounting above is called in cache keys; bump when it changes
SCORE_CONVENTION = "ln-prob;eos-scored;forced-prefix-unscored;v1"

# 1-best decoding stops after ``MAX_LEN_A · |source tokens| + MAX_LEN_B`` new tokens
# (fairseq's max_len_a / max_len_b), rounded up to a multiple of ``LENGTH_BUCKET`` and
# never past the model's own limit; an explicit ``max_length`` overrides it.  Weak
# models loop on hard sentences, and without a cap relative to the source every such
# loop runs (with its whole beam batch) to the model's position limit.  Decoders batch
# only sources with the same cap, so a sentence's 1-best never depends on which other
# sentences are translated with it.
MAX_LEN_A = 2.0
MAX_LEN_B = 10
LENGTH_BUCKET = 8


def length_cap(source_tokens: int, limit: int, max_length: int | None = None) -> int:
    """New tokens a 1-best translation of a source of ``source_tokens`` tokens may have."""
    if max_length is not None:
        return max_length
    cap = math.ceil((MAX_LEN_A * source_tokens + MAX_LEN_B) / LENGTH_BUCKET) * LENGTH_BUCKET
    return max(1, min(limit, cap))


def translation_order(lengths: Sequence[int], max_positions: int | None, name: str) -> tuple[list[int], list[int]]:
    """Source indices sorted by length for batching, and the indices of sources longer
    than the model's positions (translated as ``""``, with one counted warning)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    if max_positions is None:
        return order, []
    unreadable = [i for i in order if lengths[i] > max_positions]
    if unreadable:
        log.warning("%s: %d of %d sources exceed the model's %d positions; their translation is empty "
                    "(e.g. source %d)", name, len(unreadable), len(lengths), max_positions, unreadable[0])
    return [i for i in order if lengths[i] <= max_positions], unreadable


def length_settings() -> dict[str, Any]:
    """The length-cap constants, part of every translation cache key."""
    return {"max_len_a": MAX_LEN_A, "max_len_b": MAX_LEN_B, "length_bucket": LENGTH_BUCKET}
# results are committed to the cache at least this often (seconds) while scoring
COMMIT_SECONDS = 10.0
# distinct requests handed to a backend at once: tokens, plans and batches exist for one
# chunk at a time, so memory stays bounded from a thousand to millions of pairs; large
# enough that sorting by length and grouping by source lose nothing measurable
CHUNK_REQUESTS = 8192


def judgements_from_scores(
    pairs: Sequence[Pair], scores: Sequence[SequenceScore], convention: str
) -> list[Judgement]:
    """Judgements for ``pairs`` given the scores of their candidates, flattened in pair
    order (all candidates of pair 0, then pair 1, …), by the arena's one rule
    (:func:`arena.record.scoring_rule.judgement_from_scores`)."""
    judgements, position = [], 0
    for pair in pairs:
        chosen = scores[position : position + len(pair.candidates)]
        position += len(pair.candidates)
        judgements.append(judgement_from_scores([candidate_score(s, convention) for s in chosen]))
    return judgements


def check_texts(sources: Sequence[str], targets: Sequence[str] | None = None) -> None:
    if targets is not None and len(sources) != len(targets):
        raise ValueError(f"score: {len(sources)} sources but {len(targets)} targets")
    for name, texts in (("source", sources), ("target", targets or ())):
        for index, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"{name} {index} is a {type(text).__name__}, not a str")


def distinct_token_scores(sources: Sequence[str], targets: Sequence[str], compute) -> list[TokenScores]:
    """Per-token scores of each (source, target), ``compute`` called once on the distinct pairs
    (sorted by source, so that each source is encoded once) and returning one
    :class:`TokenScores` per pair in its order."""
    check_texts(sources, targets)
    distinct = sorted(dict.fromkeys(zip(sources, targets)))
    computed = dict(zip(distinct, compute(distinct))) if distinct else {}
    return [computed[pair] for pair in zip(sources, targets)]


_T = TypeVar("_T")


def _check_complete(results: Sequence[_T | None], what: str) -> list[_T]:
    """``results`` when every one is there."""
    complete = [value for value in results if value is not None]
    missing = len(results) - len(complete)
    if missing:
        raise RuntimeError(f"{what}: the backend returned no result for {missing} of {len(results)} requests")
    return complete


def _filled(value: _T | None, what: str) -> _T:
    if value is None:
        raise RuntimeError(f"{what}: the backend returned no result")
    return value


def in_chunks(compute, requests: Sequence[Any], size: int | None = None) -> Iterator[list[tuple]]:
    """``compute``'s result batches over ``requests`` handed over ``size`` (default
    ``CHUNK_REQUESTS``) at a time, with each result's index mapped back into ``requests``."""
    size = size or CHUNK_REQUESTS
    for start in range(0, len(requests), size):
        for batch in compute(requests[start : start + size]):
            yield [(start + local, *value) for local, *value in batch]


class ScoringClaude:
    """Base class of the Claudes backed by a conditional language model (see the
    module docstring for the score convention).

    ``convention``: ``"mean"`` (default) or ``"sum"`` of token log-probabilities for
    judging.  ``cache``: ``True`` for the default score cache
    (``$ARENA_CACHE_DIR/scores.sqlite``, else ``~/.cache/arena/scores.sqlite``), a
    directory or ``.sqlite`` file path, or ``False``/``None`` for no cache.
    ``progress``: show progress bars on stderr for long work.
    """

    version = "1"
    # how many distinct requests make a progress bar worth showing
    progress_threshold = 64

    def __init__(self, *, convention: ScoreConvention = "mean", cache: bool | str | None = True,
                 progress: bool = True) -> None:
        self.convention = convention  # declared by the subclass's annotation, checked before it is built
        self.progress = bool(progress)
        self._cache_setting = cache
        self._cache: Any = None
        self._model_id: int | None = None
        self._replayed = 0.0

    # -- model fingerprint (run signatures; arena.roles.Fingerprinted) -------------------
    @classmethod
    def model_sources(cls, params: Mapping[str, Any]) -> list[str | None]:
        """The hub names or directories of the model(s) and tokenizer ``params`` name."""
        return [params.get("model"), params.get("tokenizer")]

    @classmethod
    def check_available(cls, params: Mapping[str, Any]) -> None:
        """Raise :class:`arena.errors.EnvError` unless every model ``params`` name is a local
        directory, in the Hugging Face cache, or downloadable now (``arena validate``; nothing loads)."""
        from arena.sdk import EnvError
        from performers.claude.hub import require_model

        for source in dict.fromkeys(s for s in cls.model_sources(params) if s):
            try:
                require_model(str(source), params.get("revision"), "model")
            except ValueError as error:
                raise EnvError(str(error), key="model") from None

    @classmethod
    def fingerprint(cls, params: Mapping[str, Any]) -> str:
        """A digest of the model files ``params`` name, without loading the model."""
        from performers.claude.fingerprint import sources_fingerprint

        return sources_fingerprint(cls.model_sources(params), params.get("revision"), params.get("cache", True))

    # -- to implement -------------------------------------------------------------
    def identity(self) -> Mapping[str, Any]:
        """What the scores depend on; the persistent cache's key."""
        raise NotImplementedError

    def _score_uncached(self, pairs: Sequence[tuple[str, str]]) -> Iterator[list[tuple[int, float, int]]]:
        """Score distinct pairs; yield batches of ``(index into pairs, logprob, tokens)``."""
        raise NotImplementedError

    def _translate_uncached(
        self, sources: Sequence[str], beam: int, max_length: int | None
    ) -> Iterator[list[tuple[int, str]]]:
        """Translate distinct sources; yield batches of ``(index into sources, translation)``."""
        raise NotImplementedError

    def translation_settings(self) -> Mapping[str, Any]:
        """Decoding settings beyond beam and max_length that change 1-best outputs
        (part of the translation cache key)."""
        return {}

    # -- cache ----------------------------------------------------------------------
    @property
    def cache(self):
        """The :class:`~performers.claude.score_cache.ScoreCache` in use, or ``None``."""
        if self._cache is None and self._cache_setting not in (None, False):
            from performers.claude.score_cache import ScoreCache

            self._cache = ScoreCache.open(self._cache_setting)
        return self._cache

    def _cache_model(self) -> int | None:
        if self.cache is None:
            return None
        if self._model_id is None:
            key = dict(self.identity())
            key["claude"] = f"{type(self).__module__}:{type(self).__qualname__}@{self.version}"
            key["score_convention"] = SCORE_CONVENTION
            self._model_id = self.cache.model_id(key)
        return self._model_id

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_cache"] = None  # an SQLite connection does not travel to another process
        return state

    # -- the honest clock (arena.roles.Clocked) ----------------------------------------
    def replayed_seconds(self) -> float:
        """Seconds that the scores served from the persistent cache so far took to
        compute when they were computed: a budgeted game adds the change over a
        ``judge`` call to its wall time, so a warm cache does not make a slow Claude
        punctual.  Scores whose cost the cache did not record are computed again
        (and then recorded), so every served score has a price."""
        return self._replayed

    # -- public API ---------------------------------------------------------------
    def score(self, sources: Sequence[str], targets: Sequence[str]) -> list[SequenceScore]:
        """Log-probability of each target given its source (see the module docstring)."""
        check_texts(sources, targets)
        if not sources:
            return []
        distinct: dict[tuple[str, str], int] = {}
        for pair in zip(sources, targets):
            distinct.setdefault(pair, len(distinct))
        pairs = list(distinct)
        results: list[tuple[float, int] | None] = [None] * len(pairs)
        seconds: list[float | None] = [None] * len(pairs)
        model = self._cache_model()
        if model is not None:
            for index, (logprob, tokens, cost) in self.cache.get_timed_scores(model, pairs).items():
                if cost is not None:  # an unpriced (older) entry is computed again
                    results[index], seconds[index] = (logprob, tokens), cost
                    self._replayed += cost
        # pairs of one source stay in one chunk (it is encoded once)
        missing = sorted((index for index, value in enumerate(results) if value is None), key=lambda i: pairs[i][0])
        log.debug("score: %d requests, %d distinct, %d to compute", len(sources), len(pairs), len(missing))
        if missing:
            self._run(
                in_chunks(self._score_uncached, [pairs[i] for i in missing]),
                missing,
                lambda index, logprob, tokens: results.__setitem__(index, (float(logprob), int(tokens))),
                lambda done: self.cache.put_scores(model, [(pairs[i], *_filled(results[i], "score"), seconds[i]) for i in done]),
                total=len(missing),
                desc="score",
                unit="sentence",  # each a candidate translation of its source, not a minimal pair
                persist=model is not None,
                cost=seconds.__setitem__,
            )
        scored = _check_complete(results, "score")  # (those from the cache are all there)
        return [SequenceScore(*scored[distinct[pair]]) for pair in zip(sources, targets)]

    def translate(self, sources: Sequence[str], beam: int = 5, max_length: int | None = None) -> list[str]:
        """The 1-best translation (beam search) of each source, cached per source."""
        check_texts(sources)
        if not isinstance(beam, int) or beam < 1:
            raise ConfigError(f"beam must be a positive integer, not {beam!r}")
        if max_length is not None and (not isinstance(max_length, int) or max_length < 1):
            raise ConfigError(f"max_length must be a positive integer or None, not {max_length!r}")
        if not sources:
            return []
        distinct = list(dict.fromkeys(sources))
        results: list[str | None] = [None] * len(distinct)
        model = self._cache_model()
        settings = {"beam": beam, "max_length": max_length, **length_settings(), **self.translation_settings()}
        if model is not None:
            for index, value in self.cache.get_translations(model, settings, distinct).items():
                results[index] = value
        missing = [index for index, value in enumerate(results) if value is None]
        log.debug("translate: %d sources, %d distinct, %d to decode", len(sources), len(distinct), len(missing))
        if missing:
            self._run(
                in_chunks(lambda chunk: self._translate_uncached(chunk, beam, max_length), [distinct[i] for i in missing]),
                missing,
                lambda index, text: results.__setitem__(index, text),
                lambda done: self.cache.put_translations(model, settings, [(distinct[i], results[i]) for i in done]),
                total=len(missing),
                desc=f"translate (beam {beam})",
                unit="sentence",
                persist=model is not None,
            )
        translated = _check_complete(results, "translate")  # (those from the cache are all there)
        position = {source: index for index, source in enumerate(distinct)}
        return [translated[position[source]] for source in sources]

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        """One judgement per pair: the candidate with the lowest score (in this Claude's
        ``convention``) is the corrupted one; an exact tie abstains."""
        if not pairs:
            return []
        sources = [pair.source for pair in pairs for _ in pair.candidates]
        targets = [candidate for pair in pairs for candidate in pair.candidates]
        for pair in pairs:
            if len(pair.candidates) < 2:
                raise ConfigError(f"pair {pair.id}: a Claude needs at least two candidates, got {len(pair.candidates)}")
        return judgements_from_scores(pairs, self.score(sources, targets), self.convention)

    # -- driver ---------------------------------------------------------------------
    def _run(
        self, batches: Iterable[list[tuple]], index_map, store, persist_fn, total, desc, unit, persist, cost=None
    ) -> None:
        """Consume a backend's result batches: map local indices to the caller's,
        store each result, and commit to the cache at least every ``COMMIT_SECONDS``
        (so that a killed run loses at most that much work).  ``cost(index, seconds)``,
        if given, receives each result's share of the time its batch took."""
        from arena.sdk import progress_bar

        pending: list[int] = []
        last_commit = time.monotonic()
        enabled = self.progress and total >= self.progress_threshold
        with progress_bar(total=total, desc=desc, enabled=enabled, unit=unit) as bar:
            try:
                started = time.perf_counter()
                for batch in batches:
                    share = (time.perf_counter() - started) / max(len(batch), 1)
                    for local, *value in batch:
                        index = index_map[local]
                        store(index, *value)
                        if cost is not None:
                            cost(index, share)
                        pending.append(index)
                    bar.update(len(batch))
                    if persist and pending and time.monotonic() - last_commit >= COMMIT_SECONDS:
                        persist_fn(pending)
                        pending, last_commit = [], time.monotonic()
                    started = time.perf_counter()
            finally:
                if persist and pending:
                    persist_fn(pending)
