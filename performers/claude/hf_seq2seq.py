"""``hf-seq2seq``: a Claude backed by any Hugging Face encoder–decoder translation model.

Judges a pair by the length-normalised log-probability of each candidate given the
source (see :mod:`performers.claude.scoring` for the exact convention), with exact,
fast batched scoring (:mod:`performers.claude.seq2seq_engine`) and a persistent
score cache.  Works with any ``AutoModelForSeq2SeqLM`` by hub name or local path:

- Marian / OPUS-MT: ``hf-seq2seq:model=Helsinki-NLP/opus-mt-en-de``
- FSMT (WMT19): ``hf-seq2seq:model=facebook/wmt19-en-de``
- NLLB: ``hf-seq2seq:model=facebook/nllb-200-distilled-600M,source_lang=eng_Latn,target_lang=deu_Latn``
- M2M100: ``hf-seq2seq:model=facebook/m2m100_418M,source_lang=en,target_lang=de``
- mBART-50: ``hf-seq2seq:model=facebook/mbart-large-50-one-to-many-mmt,source_lang=en_XX,target_lang=de_DE``
- T5: ``hf-seq2seq:model=t5-small,source_prefix='translate English to German: '``

On a GPU: ``device=cuda,dtype=bf16``.  Offline, the shipped ``toy-en-de`` is the
same Claude with a small bundled model.

1-best translations (beam search, for the distributional discrepancy and the
generative rate) come from CTranslate2 (a core dependency) whenever the model's
architecture converts to it (``decoder=auto``, the default; see
:mod:`performers.claude.decoding`): the same weights, converted exactly once and cached
(:mod:`performers.claude.ct2_convert`), in the Claude's precision, following the
model's generation config (:func:`performers.claude.ct2.search_options`) — several
times faster than Transformers' ``generate`` on a CPU.  The 1-best is then scored by
this Claude, as every other candidate.  Architectures that do not convert (FSMT;
BART, mBART and Pegasus, whose converters fail with Transformers 5), devices other than ``cpu``/``cuda``, and ``decoder=generate`` use
``generate``; a conversion that fails where the architecture should convert is an
error that suggests ``decoder=generate``, so the decoder a signature names is the one
that ran.  The two beam searches are not bit-identical (see
``experiments/README-claude.md`` for their agreement), so the decoder is part of the
translation cache key and of the Claude's signature (``+decoder.``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from arena.sdk import ConfigError, TokenScores
from performers.claude.engine_settings import loading_bars
from performers.claude.model_settings import ModelSettings, takes_settings
from performers.claude.params import ModelName
from performers.claude.scoring import ScoringClaude, distinct_token_scores

log = logging.getLogger(__name__)

# the Claude's dtype as a CTranslate2 compute type
CT2_COMPUTE_TYPES = {"float32": "float32", "bfloat16": "bfloat16", "float16": "float16"}


class HFSeq2SeqClaude(ScoringClaude):
    """Scoring Claude for a Hugging Face seq2seq model.

    Params: ``model`` (hub name or local directory), ``tokenizer`` (default: the
    model's), ``revision`` (hub branch, tag or commit), ``device`` (``cpu``, ``cuda``, ``cuda:1``, ``auto``),
    ``dtype`` (``fp32``, ``bf16``, ``fp16``), ``batch_tokens`` (token budget per
    batch; default 2048 on CPU, 8192 on GPU), ``source_lang``/``target_lang`` (multilingual models), ``source_prefix``
    (T5), ``convention`` (``mean`` or ``sum``), ``cache`` (true, false, or a path),
    ``engine`` (``auto``, ``prefix``, ``decoder``, ``forward``; all give the same
    numbers), ``decoder`` (1-best decoding: ``auto``, ``ctranslate2`` or ``generate``,
    see the module docstring), ``threads`` (PyTorch's CPU threads; default: the CPUs this process
    may use, see :mod:`performers.claude.threads`), ``progress``.
    """

    version = "1"

    @classmethod
    def decoder_signature(cls, params: Mapping[str, Any], beam: int) -> str:
        """The 1-best decoder ``params`` give (:class:`arena.roles.Decoding`), nothing loaded."""
        from performers.claude.decoding import COMPUTE, describe, length_penalty, seq2seq_decoder

        sources = cls.model_sources(params)
        backend = seq2seq_decoder(str(params.get("decoder", "auto")), sources[0], params.get("revision"),
                                  str(params.get("device", "cpu")))
        compute = COMPUTE.get(str(params.get("dtype", "fp32")), str(params.get("dtype")))
        return describe(backend, compute, beam, length_penalty(sources[0], params.get("revision")))

    @takes_settings("model", "tokenizer", "revision", "device", "dtype", "batch_tokens", "source_lang", "target_lang",
                    "source_prefix", "convention", "cache", "engine", "threads", "decoder", "progress")
    def __init__(self, settings: ModelSettings, model: ModelName) -> None:
        self._setup(model, settings)

    def _setup(self, model: str, settings: ModelSettings) -> None:
        """The constructor's work, for this Claude and those that derive its model (``toy-en-de``, ``fairseq``)."""
        super().__init__(convention=settings.convention, cache=settings.cache, progress=settings.progress)
        from performers.claude.seq2seq_engine import Seq2SeqEngine

        self.decoder = settings.decoder
        self._ct2: Any = None  # the CTranslate2 decoder, built on first use; False where there is none

        with loading_bars(self.progress):
            self.backend = Seq2SeqEngine(model, settings)

    def identity(self) -> Mapping[str, Any]:
        return self.backend.identity(self.cache)

    def translation_settings(self) -> Mapping[str, Any]:
        ct2 = self._ct2_decoder()
        if ct2:
            import ctranslate2

            return {"decoder": f"ctranslate2-{ctranslate2.__version__}/{ct2.compute_type}", **ct2.translation_settings()}
        return self.backend.generation_settings()

    def _ct2_decoder(self):
        """The CTranslate2 conversion of this Claude's model for 1-best decoding, or
        ``False`` where :func:`performers.claude.decoding.seq2seq_decoder` says ``generate``
        (as the signature does); a conversion that fails is an error."""
        if self._ct2 is None:
            from performers.claude.decoding import seq2seq_decoder

            backend = self.backend
            self._ct2 = False
            if seq2seq_decoder(self.decoder, backend.name, backend.revision, backend.device) == "ctranslate2":
                from performers.claude.ct2 import CTranslate2Claude

                try:
                    if backend.device not in ("cpu", "cuda"):
                        raise ConfigError(f"device {backend.device!r} (CTranslate2 decodes on cpu or cuda)")
                    self._ct2 = CTranslate2Claude(
                        backend.name, tokenizer=backend.tokenizer_name, revision=backend.revision,
                        compute_type=CT2_COMPUTE_TYPES[backend.dtype_name], device=backend.device,
                        threads=backend.threads, batch_tokens=4 * backend.batch_tokens,
                        source_lang=backend.source_lang, target_lang=backend.target_lang,
                        source_prefix=backend.source_prefix, cache=False, progress=False,
                    )
                except Exception as error:  # converters fail in many ways; the signature names CTranslate2
                    raise ConfigError(f"{backend.name}: decoder={self.decoder} decodes with CTranslate2, but {error}",
                                      hint="set decoder=generate (Transformers' beam search) for this model") from error
        return self._ct2

    def _score_uncached(self, pairs: Sequence[tuple[str, str]]) -> Iterator[list[tuple[int, float, int]]]:
        for batch in self.backend.token_logprobs(pairs):
            yield [(index, float(values.sum()), len(values)) for index, values in batch]

    def token_scores(self, sources: Sequence[str], targets: Sequence[str]) -> list[TokenScores]:
        """Per-token log-probabilities (:class:`arena.roles.TokenScorer`), by the same engine as
        :meth:`score` (not cached; a pair too long for the model gets NaN per token)."""
        backend = self.backend

        def compute(pairs: list[tuple[str, str]]) -> list[TokenScores]:
            values: list[Any] = [None] * len(pairs)
            for batch in backend.token_logprobs(pairs):
                for index, array in batch:
                    values[index] = array
            encoded = backend.encode_targets([target for _, target in pairs])
            return [
                TokenScores(tuple(backend.tokenizer.convert_ids_to_tokens(list(labels[first:]))),
                            tuple(float(v) for v in array))
                for (_, labels, first), array in zip(encoded, values)
            ]

        return distinct_token_scores(sources, targets, compute)

    def _translate_uncached(
        self, sources: Sequence[str], beam: int, max_length: int | None
    ) -> Iterator[list[tuple[int, str]]]:
        ct2 = self._ct2_decoder()
        if ct2:
            yield from ct2.beam_search(sources, beam, max_length)
        else:
            yield from self.backend.translate(sources, beam, max_length)
