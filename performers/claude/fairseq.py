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

from arena.record.scoring_rule import ScoreConvention
from arena.specs.typecheck import Name
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

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> str | None:
        """What ``arena validate`` and ``arena run`` both refuse before converting anything
        (:class:`arena.roles.ParamsChecked`): a checkpoint directory without its checkpoint
        file or BPE codes.  ``ARENA_SKIP_MODEL_CHECK=1`` leaves it to the nodes that run the
        Claude, as for model names (:mod:`performers.claude.params`)."""
        import os
        from pathlib import Path

        from arena.errors import ArenaError
        from performers.claude.fairseq_convert import find_codes

        checkpoint = params.get("checkpoint")
        if os.environ.get("ARENA_SKIP_MODEL_CHECK") or not isinstance(checkpoint, str):
            return None
        directory = Path(checkpoint).expanduser()
        if not directory.is_dir():
            return f"checkpoint: {checkpoint} is not a directory (model.pt, dict.*.txt, BPE codes)"
        checkpoint_file = params.get("checkpoint_file", "model.pt")
        if isinstance(checkpoint_file, str) and not (directory / checkpoint_file).is_file():
            return f"checkpoint: {directory / checkpoint_file} does not exist"
        bpe_codes = params.get("bpe_codes")
        try:
            find_codes(directory, bpe_codes if isinstance(bpe_codes, str) else None)
        except ArenaError as error:
            return str(error)
        return None

    def __init__(
        self,
        checkpoint: Name,
        checkpoint_file: Name = "model.pt",
        bpe_codes: Name | None = None,
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
