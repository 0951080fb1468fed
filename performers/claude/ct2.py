"""``ctranslate2``: a scoring Claude on CTranslate2 (fast CPU/GPU inference, int8).

``model`` is a CTranslate2 model directory, or a Hugging Face model (hub name or
directory) that is converted on first use and cached (:mod:`performers.claude.ct2_convert`;
Marian models are converted *exactly* as Transformers computes them, so that float32
scores equal the ``hf-seq2seq`` Claude's).  ``compute_type`` picks the precision at
load time: ``int8`` (default), ``int8_float32``, ``float32``, ``float16``,
``bfloat16``, ``int8_float16``.  Scores follow the convention of
:mod:`performers.claude.scoring` (``score_batch`` log-probabilities, end-of-sentence
token included, a forced target-language token unscored); 1-best translations come
from ``translate_batch``.

Examples::

    ctranslate2:model=Helsinki-NLP/opus-mt-en-de
    ctranslate2:model=/models/opus-mt-en-de-ct2,tokenizer=Helsinki-NLP/opus-mt-en-de,compute_type=float32
    ctranslate2:model=facebook/nllb-200-distilled-600M,source_lang=eng_Latn,target_lang=deu_Latn,device=cuda
"""

from __future__ import annotations

import logging
import math
import sys
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.sdk import ConfigError, EnvError, TokenScores
from performers.claude.hub import require_model
from performers.claude.model_settings import ModelSettings, takes_settings
from performers.claude.params import BatchTokens, ComputeType, ModelName, Positions
from performers.claude.scoring import ScoringClaude, distinct_token_scores
from performers.claude.token_ids import token_ids

log = logging.getLogger(__name__)



def _checked_device(ctranslate2: Any, device: str) -> str:
    """Resolve ``device=auto`` and check a CUDA device is there (``compute_type`` and
    ``batch_tokens`` are checked by their annotations before the Claude is built)."""
    if device == "auto":
        device = "cuda" if ctranslate2.get_cuda_device_count() > 0 else "cpu"
    if device.startswith("cuda") and ctranslate2.get_cuda_device_count() == 0:
        raise EnvError(f"device {device!r} requested, but CTranslate2 sees no CUDA device")
    return device


class CTranslate2Claude(ScoringClaude):
    """Scoring Claude backed by a CTranslate2 ``Translator``.

    Params: ``model`` (CTranslate2 directory, or Hugging Face name/directory to
    convert), ``tokenizer`` (Hugging Face tokenizer; default: the model's own files),
    ``revision`` (hub branch, tag or commit), ``compute_type`` (CTranslate2's weight
    and compute precision, e.g. ``int8``, ``float32``), ``device`` (``cpu``, ``cuda``,
    ``auto``), ``threads`` (on a CPU, batches run side by side with one thread each;
    default: the CPUs this process may use, see
    :mod:`performers.claude.threads`), ``batch_tokens`` (token budget per batch),
    ``source_lang``/``target_lang`` (multilingual models), ``source_prefix`` (text put
    before every source, e.g. for T5), ``exact`` (exact Marian
    conversion, default true), ``max_positions`` (the model's positions, for a CTranslate2
    directory that does not record them; converted models know them), ``convention``, ``cache``,
    ``progress``.
    """

    version = "1"

    @classmethod
    def decoder_signature(cls, params: Mapping[str, Any], beam: int) -> str:
        """CTranslate2 in ``compute_type`` (:class:`arena.roles.Decoding`), nothing loaded."""
        from performers.claude.decoding import ct2_signature

        return ct2_signature(cls.model_sources(params)[0], params, beam)

    @takes_settings("model", "tokenizer", "revision", "compute_type", "device", "threads", "batch_tokens",
                    "source_lang", "target_lang", "source_prefix", "exact", "max_positions", "convention", "cache",
                    "progress")
    def __init__(
        self,
        settings: ModelSettings,
        model: ModelName,
        compute_type: ComputeType = "int8",
        batch_tokens: BatchTokens = 4096,
        exact: bool = True,
        max_positions: Positions | None = None,
    ) -> None:
        self._setup(model, settings, compute_type, batch_tokens, exact=exact, max_positions=max_positions)

    def _setup(self, model: str, settings: ModelSettings, compute_type: ComputeType, batch_tokens: BatchTokens, *,
               exact: bool = True, max_positions: Positions | None = None) -> None:
        """The constructor's work, for this Claude and ``toy-en-de-ct2``."""
        super().__init__(convention=settings.convention, cache=settings.cache, progress=settings.progress)
        tokenizer, revision, device, threads = settings.tokenizer, settings.revision, settings.device, settings.threads
        source_lang, target_lang, source_prefix = settings.source_lang, settings.target_lang, settings.source_prefix
        from performers.claude.threads import prepare, resolve_threads

        self.threads = resolve_threads(threads)
        prepare()  # before CTranslate2 loads its OpenMP runtime
        import ctranslate2

        from performers.claude.ct2_convert import is_ct2_dir
        from performers.claude.engine_settings import loading_bars

        device = _checked_device(ctranslate2, device)
        self.model_name, self.compute_type, self.device, self.batch_tokens = str(model), compute_type, device, batch_tokens
        self.source_prefix, self.source_lang, self.target_lang = source_prefix or "", source_lang, target_lang
        self.exact = bool(exact)
        self.max_positions: int | None = None  # known for conversions from Transformers (and arena's own)
        with loading_bars(self.progress):
            if is_ct2_dir(self.model_name):
                tokenizer_source = self._use_ct2_dir(tokenizer, max_positions)
            else:
                tokenizer_source = self._convert(tokenizer, revision, max_positions)
            self._load_tokenizer(tokenizer_source, revision)
        self._load_translator(ctranslate2)
        self.forced_prefix = [target_lang] if target_lang else None
        # beam search as the source model's generation config asks (converted models only)
        self.search = {"length_penalty": 1.0} if is_ct2_dir(self.model_name) else search_options(
            self.model_name, revision, self.tokenizer)
        log.info("%s: CTranslate2 %s on %s from %s", self.model_name, compute_type, device, self.model_dir)

    def _use_ct2_dir(self, tokenizer: ModelName | None, max_positions: Positions | None) -> str | ModelName:
        """A CTranslate2 directory as given; returns where its tokenizer comes from."""
        from performers.claude.ct2_convert import stored_positions
        from performers.claude.fingerprint import source_identity

        self.model_dir = Path(self.model_name)
        self.max_positions = max_positions or stored_positions(self.model_dir)
        self._model_identity: dict[str, Any] = {"ct2": source_identity(self.model_name, None, ("model.bin", "*.json", "*.txt"),
                                                       self.cache)}
        tokenizer_source = tokenizer or (self.model_name if _has_tokenizer(self.model_dir) else None)
        if tokenizer_source is None:
            raise ConfigError(
                f"{self.model_name} is a CTranslate2 directory without tokenizer files; "
                "pass tokenizer=<Hugging Face name or directory>"
            )
        return tokenizer_source

    def _convert(self, tokenizer: ModelName | None, revision: str | None, max_positions: Positions | None) -> str | ModelName:
        """A Hugging Face model converted to CTranslate2 (cached); returns where its tokenizer comes from."""
        import transformers

        from performers.claude.ct2_convert import cached_conversion, stored_precision
        from performers.claude.engine_settings import config_positions
        from performers.claude.fingerprint import WEIGHT_PATTERNS, source_identity
        from performers.claude.score_cache import default_cache_dir

        require_model(self.model_name, revision)
        source = source_identity(self.model_name, revision, WEIGHT_PATTERNS, self.cache)
        try:
            self.model_dir = cached_conversion(
                self.model_name, source, revision, stored_precision(self.compute_type), self.exact, default_cache_dir()
            )
        except (OSError, ValueError, NotImplementedError) as error:
            raise ConfigError(f"cannot convert {self.model_name!r} to CTranslate2: {error}") from error
        self._model_identity = {"converted_from": source, "exact": self.exact,
                                "stored": stored_precision(self.compute_type)}
        self.max_positions = max_positions or config_positions(
            transformers.AutoConfig.from_pretrained(self.model_name, revision=revision))
        return tokenizer or self.model_name

    def _load_tokenizer(self, tokenizer_source: str | ModelName, revision: str | None) -> None:
        """The Hugging Face tokenizer (with the model's revision when it is the model's own) and its identity."""
        import transformers

        from performers.claude.fingerprint import TOKENIZER_PATTERNS, source_identity

        tokenizer_kwargs: dict[str, Any] = {}
        if self.source_lang:
            tokenizer_kwargs["src_lang"] = self.source_lang
        if self.target_lang:
            tokenizer_kwargs["tgt_lang"] = self.target_lang
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(
                str(tokenizer_source), revision=revision if tokenizer_source == self.model_name else None,
                **tokenizer_kwargs,
            )
        except (OSError, ValueError) as error:
            raise ConfigError(f"cannot load tokenizer {tokenizer_source!r}: {error}") from error
        self._tokenizer_identity = {
            **source_identity(str(tokenizer_source), revision, TOKENIZER_PATTERNS, self.cache),
            "class": type(self.tokenizer).__name__, "source_lang": self.source_lang, "target_lang": self.target_lang,
            "source_prefix": self.source_prefix,
        }

    def _load_translator(self, ctranslate2: Any) -> None:
        """The CTranslate2 ``Translator``, threaded for the device; PyTorch's thread count kept."""
        torch = sys.modules.get("torch")
        torch_threads = torch.get_num_threads() if torch is not None else None
        # On a CPU, ``threads`` batches run side by side with one thread each: no OpenMP
        # barrier per small matrix product, so passive waiting costs nothing (beam search
        # with two intra-op threads took 2.8x the wall and 1.9x the CPU time; README-claude).
        parallel = {"inter_threads": self.threads, "intra_threads": 1} if self.device == "cpu" else {
            "intra_threads": self.threads}
        self.translator = ctranslate2.Translator(str(self.model_dir), device=self.device,
                                                 compute_type=self.compute_type, **parallel)
        if torch is not None and torch.get_num_threads() != torch_threads:
            torch.set_num_threads(torch_threads)  # creating a Translator resets PyTorch's thread count

    def identity(self) -> Mapping[str, Any]:
        return {
            "model": self._model_identity,
            "tokenizer": self._tokenizer_identity,
            "compute_type": self.compute_type,
            "device": self.device.split(":")[0],
        }

    def translation_settings(self) -> Mapping[str, Any]:
        return {"forced_prefix": self.forced_prefix, **self.search}

    def default_max_length(self) -> int:
        """256 tokens, or fewer where the model has fewer positions (as hf-seq2seq)."""
        if self.max_positions is None:
            return 256
        return max(1, min(256, self.max_positions - 2))

    def _result(self, job):
        """An asynchronous job's result; a position overflow (a CTranslate2 directory that does not
        record its positions) becomes a ValueError that says what to do."""
        try:
            return job.result()
        except RuntimeError as error:
            if "position" not in str(error):
                raise
            raise ConfigError(
                f"{self.model_name}: {error}; this CTranslate2 directory does not record how many positions the "
                "model has: pass max_positions=N (e.g. the max_position_embeddings of its Transformers config) so "
                "that longer pairs are scored as NaN and 1-bests stop in time"
            ) from None

    # -- tokens -----------------------------------------------------------------------
    def _source_tokens(self, sources: Sequence[str]) -> list[list[str]]:
        ids = token_ids(self.tokenizer, [self.source_prefix + s for s in sources])
        return [self.tokenizer.convert_ids_to_tokens(row) for row in ids]

    def _target_tokens(self, targets: Sequence[str]) -> list[list[str]]:
        """Target tokens without the final end-of-sentence token (CTranslate2 adds and
        scores it), with the forced language token first where there is one."""
        eos = self.tokenizer.eos_token_id
        rows = []
        for ids in token_ids(self.tokenizer, targets, target=True):
            if ids and ids[-1] == eos:
                ids = ids[:-1]
            tokens = self.tokenizer.convert_ids_to_tokens(ids)
            if self.forced_prefix and (not tokens or tokens[0] != self.forced_prefix[0]):
                tokens = self.forced_prefix + tokens
            rows.append(tokens)
        return rows

    # -- backend ----------------------------------------------------------------------
    def _score_uncached(self, pairs: Sequence[tuple[str, str]]) -> Iterator[list[tuple[int, float, int]]]:
        sources = list(dict.fromkeys(source for source, _ in pairs))
        source_tokens = dict(zip(sources, self._source_tokens(sources)))
        target_tokens = self._target_tokens([target for _, target in pairs])
        order = sorted(range(len(pairs)), key=lambda i: (len(source_tokens[pairs[i][0]]), len(target_tokens[i])))
        offset = 1 if self.forced_prefix else 0
        if self.max_positions is not None:  # as hf-seq2seq: NaN (and a warning) for what the model cannot score
            limit = self.max_positions
            too_long = [i for i in order if max(len(source_tokens[pairs[i][0]]), len(target_tokens[i]) + 1) > limit]
            if too_long:
                log.warning("%s: %d of %d pairs exceed the model's %d positions and are scored as NaN (e.g. pair %d)",
                            self.model_name, len(too_long), len(pairs), limit, too_long[0])
                yield [(i, math.nan, len(target_tokens[i]) + 1 - offset) for i in too_long]
                skipped = set(too_long)
                order = [i for i in order if i not in skipped]
        batches = token_batches(order, lambda i: len(source_tokens[pairs[i][0]]) + len(target_tokens[i]),
                                self.batch_tokens)
        submitted = (
            (batch, self.translator.score_batch(
                [source_tokens[pairs[i][0]] for i in batch], [target_tokens[i] for i in batch],
                max_input_length=0,  # never truncate silently
                offset=offset, asynchronous=True))
            for batch in batches
        )
        for batch, results in ahead(submitted, 2 * self.threads):
            yield [(i, float(sum(r.log_probs)), len(r.log_probs)) for i, r in zip(batch, map(self._result, results))]

    def token_scores(self, sources: Sequence[str], targets: Sequence[str]) -> list[TokenScores]:
        """Per-token log-probabilities (:class:`arena.roles.TokenScorer`), as CTranslate2 scores
        them: the target tokens after the forced prefix, end-of-sentence token included."""

        def compute(pairs: list[tuple[str, str]]) -> list[TokenScores]:
            source_tokens = self._source_tokens([source for source, _ in pairs])
            target_tokens = self._target_tokens([target for _, target in pairs])
            offset = 1 if self.forced_prefix else 0
            eos = self.tokenizer.eos_token or "</s>"
            results = self.translator.score_batch(source_tokens, target_tokens, max_input_length=0, offset=offset)
            return [
                TokenScores((*tokens[offset:], eos)[: len(result.log_probs)], tuple(map(float, result.log_probs)))
                for tokens, result in zip(target_tokens, results)
            ]

        return distinct_token_scores(sources, targets, compute)

    def _translate_uncached(
        self, sources: Sequence[str], beam: int, max_length: int | None
    ) -> Iterator[list[tuple[int, str]]]:
        yield from self.beam_search(sources, beam, max_length)

    def beam_search(self, sources: Sequence[str], beam: int, max_length: int | None) -> Iterator[list[tuple[int, str]]]:
        """1-best translations, uncached, per batch ``(index, text)``: sources sorted by
        length, batched only with sources of the same length cap
        (:func:`performers.claude.scoring.length_cap`), empty for sources longer than
        the model's positions."""
        from performers.claude.scoring import length_cap, translation_order

        tokens = self._source_tokens(sources)
        order, unreadable = translation_order([len(t) for t in tokens], self.max_positions, self.model_name)
        if unreadable:
            yield [(i, "") for i in unreadable]

        caps = {i: length_cap(len(tokens[i]), self.default_max_length(), max_length) for i in order}
        options = dict(self.search)
        shorter = 1 if options.pop("forced_eos", False) else 0
        chunks: list[list[int]] = []
        for i in order:  # sorted by length, so equal caps are neighbours
            if chunks and caps[chunks[-1][0]] == caps[i]:
                chunks[-1].append(i)
            else:
                chunks.append([i])
        batches = [batch for chunk in chunks for batch in token_batches(chunk, lambda i: len(tokens[i]), self.batch_tokens)]
        submitted = (
            (batch, self.translator.translate_batch(
                [tokens[i] for i in batch],
                beam_size=beam,
                max_decoding_length=max(1, caps[batch[0]] - shorter),
                target_prefix=[self.forced_prefix] * len(batch) if self.forced_prefix else None,
                asynchronous=True,
                **options,
            ))
            for batch in batches
        )
        for batch, results in ahead(submitted, 2 * self.threads):
            texts = []
            for result in results:
                ids = self.tokenizer.convert_tokens_to_ids(self._result(result).hypotheses[0])
                texts.append(self.tokenizer.decode(ids, skip_special_tokens=True).strip())
            yield list(zip(batch, texts))


def token_batches(order: Sequence[int], cost, budget: int) -> list[list[int]]:
    """``order`` cut into consecutive batches whose summed ``cost(i)`` stays within
    ``budget`` (a batch holds at least one item)."""
    batches: list[list[int]] = []
    used = 0
    for i in order:
        if not batches or used + cost(i) > budget:
            batches.append([])
            used = 0
        batches[-1].append(i)
        used += cost(i)
    return batches


def ahead(submitted: Iterator, window: int) -> Iterator:
    """Items of ``submitted`` (asynchronous jobs, started as they are drawn) in order,
    keeping up to ``window`` of them started ahead of the one handed out, so that the
    translator's workers always have a batch to take and results stream."""
    pending: deque = deque()
    for item in submitted:
        pending.append(item)
        if len(pending) > window:
            yield pending.popleft()
    yield from pending


def search_options(model: str, revision: str | None, tokenizer) -> dict[str, Any]:
    """The beam-search settings of a Transformers model's generation config that
    ``translate_batch`` can follow (length, repetition and n-gram penalties, banned
    token sequences, a forced end-of-sentence token at the length cap), so that its
    1-best translations are the ones ``generate`` looks for."""
    import transformers

    try:
        generation = transformers.GenerationConfig.from_pretrained(model, revision=revision)
    except OSError:  # no generation_config.json: generate's defaults
        generation = transformers.GenerationConfig()
    options: dict[str, Any] = {
        "length_penalty": float(generation.length_penalty if generation.length_penalty is not None else 1.0),
        "repetition_penalty": float(generation.repetition_penalty or 1.0),
        "no_repeat_ngram_size": int(generation.no_repeat_ngram_size or 0),
    }
    # generate ends a hypothesis that reaches the length cap with a forced end-of-sentence
    # token; CTranslate2 then stops one token earlier, so both stop after the same words
    options["forced_eos"] = generation.forced_eos_token_id is not None
    if generation.bad_words_ids:
        options["suppress_sequences"] = [tokenizer.convert_ids_to_tokens(list(ids)) for ids in generation.bad_words_ids]
    return options


def _has_tokenizer(directory: Path) -> bool:
    return any((directory / name).is_file() for name in ("tokenizer_config.json", "tokenizer.json", "source.spm"))
