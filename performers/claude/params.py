"""Declared types of the model Claudes' params, checked by ``arena validate`` and ``arena run`` alike.

Each type says with its annotation what a param admits (:mod:`arena.specs.typecheck`):
``dtype`` and ``compute_type`` are ``Literal`` choices, a ``device`` must be one this
machine has (``cuda`` without a GPU is refused before any model is loaded), and a
``model`` must be a local directory or a hub id that resolves (from the Hugging Face
cache when ``HF_HUB_OFFLINE`` is set).  On a cluster whose models exist only on the
worker nodes, ``ARENA_SKIP_MODEL_CHECK=1`` leaves model names unchecked on the driver.
"""

from __future__ import annotations

import math
import os
import re
from typing import Annotated, Literal

from annotated_types import Ge, Gt, Le, Lt, MinLen

from arena.sdk import Check, Name

DType = Literal["fp32", "fp16", "bf16", "float32", "float16", "bfloat16", "half"]
ComputeType = Literal["default", "auto", "int8", "int8_float32", "int8_float16", "int8_bfloat16", "int16",
                      "float32", "float16", "bfloat16"]
Decoder = Literal["auto", "ctranslate2", "generate"]
# tokens per batch: below 16 no sentence fits, above 2^24 no machine has the memory
BatchTokens = Annotated[int, Ge(16), Le(1 << 24)]
# CPU threads (0: the CPUs this process may use)
Threads = Annotated[int, Ge(0), Le(4096)]
Positions = Annotated[int, Ge(1), Le(1 << 20)]
_DEVICE = re.compile(r"^(cpu|auto|cuda(:\d+)?)$")


def device_problem(device: object) -> str | None:
    """Why ``device`` cannot be used here: not cpu, auto, cuda or cuda:N, or CUDA absent."""
    if not isinstance(device, str) or not _DEVICE.match(device):
        return f"must be cpu, cuda, cuda:N or auto, not {device!r}"
    if device.startswith("cuda"):
        import torch

        if not torch.cuda.is_available():
            return f"{device!r} requested, but CUDA is not available on this machine (use device: cpu)"
        index = int(device.partition(":")[2] or 0)
        if index >= torch.cuda.device_count():
            return f"{device!r} requested, but this machine has {torch.cuda.device_count()} CUDA device(s)"
    return None


def model_problem(name: object) -> str | None:
    """Why ``name`` names no model this machine can load (see the module docstring)."""
    if not isinstance(name, str) or os.environ.get("ARENA_SKIP_MODEL_CHECK"):
        return None
    if not name.strip():
        return "must name a model (a directory or a hub id), not an empty string"
    from performers.claude.hub import require_model

    require_model(name)  # an ArenaError naming the remedy
    return None


Device = Annotated[str, Check(device_problem)]
ModelName = Annotated[str, Check(model_problem)]
ModelNames = Annotated[list[ModelName], MinLen(1)]
Weight = Annotated[float, Gt(0), Lt(math.inf)]
# the score cache: true (the default place), false, a directory or a .sqlite file
CacheSetting = bool | Name | None
