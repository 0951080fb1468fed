"""``toy-en-de-ct2``: the shipped toy EN→DE model on CTranslate2 (int8 by default).

The package's Transformers model (see :mod:`performers.claude.toy_en_de`) is
converted exactly (:mod:`performers.claude.ct2_convert`) on first use and cached;
``compute_type=float32`` reproduces ``toy-en-de``'s scores within 1e-4, ``int8`` is
faster and agrees on nearly all pair decisions (see ``experiments/bench/scoring.py``).
A weak toy model for smoke runs, not for research conclusions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.record.scoring_rule import ScoreConvention
from performers.claude.ct2 import CTranslate2Claude
from performers.claude.params import BatchTokens, CacheSetting, ComputeType, Device, Threads
from performers.claude.toy_en_de import MODEL_DIR, toy_model_dir


class ToyEnDeCT2Claude(CTranslate2Claude):
    """The shipped toy model as a CTranslate2 Claude.

    Params as ``ctranslate2`` (``compute_type``, ``device``, ``threads``,
    ``batch_tokens``, ``convention``, ``cache``, ``progress``).
    """

    version = "1"

    @classmethod
    def model_sources(cls, params: Mapping[str, Any]) -> list[str | None]:
        return [str(MODEL_DIR)]

    def __init__(
        self,
        compute_type: ComputeType = "int8",
        device: Device = "cpu",
        threads: Threads | None = None,
        batch_tokens: BatchTokens = 4096,
        convention: ScoreConvention = "mean",
        cache: CacheSetting = True,
        progress: bool = True,
    ) -> None:
        super().__init__(
            model=str(toy_model_dir()),
            compute_type=compute_type,
            device=device,
            threads=threads,
            batch_tokens=batch_tokens,
            convention=convention,
            cache=cache,
            progress=progress,
        )
