"""``fairseq``: a Claude that scores with a fairseq Transformer checkpoint, without fairseq installed.

The checkpoint directory (``model.pt``, ``dict.<src>.txt``, ``dict.<tgt>.txt``, BPE codes) is mapped
once onto Transformers' FSMT, which ports that architecture exactly, and cached
(:mod:`performers.claude.fairseq_convert`); from then on this is the ``hf-seq2seq`` Claude on the
mapped model, so its scores are the mapped model's.  The models of Vamvas & Sennrich (2021) are
such checkpoints::

    arena score-pairs --claude fairseq:checkpoint=models/teacher-seed1 --format distil-lingeval ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.engine.match import ScoreConvention
from performers.claude.engine_settings import Engine
from performers.claude.hf_seq2seq import HFSeq2SeqClaude
from performers.claude.params import BatchTokens, CacheSetting, Decoder, Device, DType, Threads


class FairseqClaude(HFSeq2SeqClaude):
    """Scoring Claude for a fairseq ``transformer`` checkpoint directory.

    Params: ``checkpoint`` (the directory), ``checkpoint_file`` (the checkpoint's
    file name in the directory, default ``model.pt``), ``bpe_codes`` (file
    name in the directory; found by default), ``source_lang``/``target_lang`` (when the checkpoint's
    config does not name them), ``trusted`` (allow configs that need full unpickling, e.g. omegaconf;
    only for checkpoints you trust); the rest as ``hf-seq2seq`` (``device``, ``dtype``,
    ``batch_tokens``, ``convention``, ``cache``, ``engine``, ``threads``, ``decoder``, ``progress``).
    """

    version = "1"

    @classmethod
    def model_sources(cls, params: Mapping[str, Any]) -> list[str | None]:
        return [params.get("checkpoint")]  # its weights, dictionaries and BPE codes sign the runs

    def __init__(
        self,
        checkpoint: str,
        checkpoint_file: str = "model.pt",
        bpe_codes: str | None = None,
        source_lang: str | None = None,
        target_lang: str | None = None,
        trusted: bool = False,
        device: Device = "cpu",
        dtype: DType = "fp32",
        batch_tokens: BatchTokens | None = None,
        convention: ScoreConvention = "mean",
        cache: CacheSetting = True,
        engine: Engine = "auto",
        threads: Threads | None = None,
        decoder: Decoder = "auto",
        progress: bool = True,
    ) -> None:
        from performers.claude.fairseq_convert import cached_fsmt

        mapped = cached_fsmt(checkpoint, checkpoint_file, bpe_codes, source_lang, target_lang, trusted)
        super().__init__(
            model=str(mapped), device=device, dtype=dtype, batch_tokens=batch_tokens, convention=convention,
            cache=cache, engine=engine, threads=threads, decoder=decoder, progress=progress,
        )
