"""``toy-en-de``: the ``hf-seq2seq`` Claude with the small EN→DE model shipped in the package.

The model (``performers/claude/models/toy-en-de/``, see its ``card.md``) is a 7.7M
parameter MarianMT trained from scratch on a CPU on ~125k sentence pairs
(newstest2009–2016 excluded), stored as float16 safetensors (15 MB) and loaded as
float32.  It is a **weak toy model** for smoke runs, tests and offline quickstarts —
not for research conclusions; real users name hub models with ``hf-seq2seq``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena.errors import EnvError
from arena.record.scoring_rule import ScoreConvention
from performers.claude.engine_settings import Engine
from performers.claude.hf_seq2seq import HFSeq2SeqClaude
from performers.claude.params import BatchTokens, CacheSetting, Decoder, Device, DType, ModelName, Threads

MODEL_DIR = Path(__file__).resolve().parent / "models" / "toy-en-de"


def toy_model_dir() -> Path:
    """The shipped model's directory (an error naming it if the package lacks it)."""
    if not (MODEL_DIR / "model.safetensors").is_file():
        raise EnvError(f"the toy model is missing from the package: {MODEL_DIR}/model.safetensors not found")
    return MODEL_DIR


class ToyEnDeClaude(HFSeq2SeqClaude):
    """The shipped toy EN→DE MarianMT as a scoring Claude (float32 on CPU by default).

    Params as ``hf-seq2seq`` (``device``, ``dtype``, ``batch_tokens``, ``convention``,
    ``cache``, ``engine``, ``threads``, ``decoder``, ``progress``); ``model`` defaults to the
    shipped directory.
    """

    version = "1"

    @classmethod
    def model_sources(cls, params: Mapping[str, Any]) -> list[str | None]:
        return [str(params.get("model") or MODEL_DIR)]

    def __init__(
        self,
        model: ModelName | None = None,
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
        super().__init__(
            model=str(model or toy_model_dir()),
            device=device,
            dtype=dtype,
            batch_tokens=batch_tokens,
            convention=convention,
            cache=cache,
            engine=engine,
            threads=threads,
            decoder=decoder,
            progress=progress,
        )
