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
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from arena.match import ScoreConvention
from arena.typecheck import PositiveInt
from performers.claude.scoring import ScoringClaude
from performers.claude.seq2seq_engine import Engine


class HFSeq2SeqClaude(ScoringClaude):
    """Scoring Claude for a Hugging Face seq2seq model.

    Params: ``model`` (hub name or local directory), ``tokenizer`` (default: the
    model's), ``revision``, ``device`` (``cpu``, ``cuda``, ``cuda:1``, ``auto``),
    ``dtype`` (``fp32``, ``bf16``, ``fp16``), ``batch_tokens`` (token budget per
    batch; default 1024 on CPU, 8192 on GPU), ``source_lang``/``target_lang`` (multilingual models), ``source_prefix``
    (T5), ``convention`` (``mean`` or ``sum``), ``cache`` (true, false, or a path),
    ``engine`` (``auto``, ``prefix``, ``decoder``, ``forward``; all give the same
    numbers), ``threads`` (CPU threads for torch), ``progress``.
    """

    version = "1"

    def __init__(
        self,
        model: str,
        tokenizer: str | None = None,
        revision: str | None = None,
        device: str = "cpu",
        dtype: str = "fp32",
        batch_tokens: PositiveInt | None = None,
        source_lang: str | None = None,
        target_lang: str | None = None,
        source_prefix: str = "",
        convention: ScoreConvention = "mean",
        cache: bool | str | None = True,
        engine: Engine = "auto",
        threads: int | None = None,
        progress: bool = True,
    ) -> None:
        super().__init__(convention=convention, cache=cache, progress=progress)
        from performers.claude.seq2seq_engine import Seq2SeqEngine

        self.backend = Seq2SeqEngine(
            model,
            tokenizer=tokenizer,
            revision=revision,
            device=device,
            dtype=dtype,
            batch_tokens=batch_tokens,
            source_lang=source_lang,
            target_lang=target_lang,
            source_prefix=source_prefix,
            engine=engine,
            threads=threads,
        )

    def identity(self) -> Mapping[str, Any]:
        return self.backend.identity(self.cache)

    def translation_settings(self) -> Mapping[str, Any]:
        return self.backend.generation_settings()

    def _score_uncached(self, pairs: Sequence[tuple[str, str]]) -> Iterator[list[tuple[int, float, int]]]:
        for batch in self.backend.token_logprobs(pairs):
            yield [(index, float(values.sum()), len(values)) for index, values in batch]

    def _translate_uncached(
        self, sources: Sequence[str], beam: int, max_length: int | None
    ) -> Iterator[list[tuple[int, str]]]:
        yield from self.backend.translate(sources, beam, max_length)
