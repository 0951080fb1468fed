"""Settings of the encoder–decoder engine (:mod:`performers.claude.seq2seq_engine`): dtypes and
devices, the model's positions, token budgets of batches and blocks, and padding."""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal, get_args

from arena.sdk import ConfigError, EnvError
from performers.claude.planning import (
    BLOCK_BATCHES,
)

log = logging.getLogger(__name__)

DTYPES = {
    "fp32": "float32", "float32": "float32",
    "bf16": "bfloat16", "bfloat16": "bfloat16",
    "fp16": "float16", "float16": "float16", "half": "float16",
}
Engine = Literal["auto", "prefix", "decoder", "forward"]  # a constructor param type
ENGINES = get_args(Engine)
DEFAULT_MAX_LENGTH = 256
# probe sentences: a long common target prefix exercises the shared-prefix path
PROBE = (
    (
        "The committee approved the new budget for the next two years on Tuesday.",
        (
            "Der Ausschuss hat den neuen Haushalt für die nächsten zwei Jahre am Dienstag genehmigt.",
            "Der Ausschuss hat den neuen Haushalt für die nächsten zwei Jahre am Dienstag nicht genehmigt.",
            "Der Ausschuss hat den neuen Haushalt für die Ding genehmigt.",
        ),
    ),
    ("Short.", ("Kurz.", "Ein kurzer Satz.")),
)


def torch_dtype(name: str):
    import torch

    try:
        return getattr(torch, DTYPES[str(name).lower()])
    except KeyError:
        raise ConfigError(f"dtype must be one of fp32, bf16, fp16 (or float32, bfloat16, float16), not {name!r}") from None


def resolve_device(device: str) -> str:
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if str(device).startswith("cuda") and not torch.cuda.is_available():
        raise EnvError(f"device {device!r} requested, but CUDA is not available on this machine")
    return str(device)


def device_identity(device: str) -> dict[str, str]:
    """The device kind for a score cache key: ``{}`` on the CPU (so that the entries of the CPU,
    cached before the device was a part of the key, stay valid), ``{"device": "cuda"}`` on a GPU
    (whichever index), whose log-probabilities differ from the CPU's in the last digits (up to
    3e-5 for the toy model on an H100, docs/scale.md §5): a score computed on one kind of device
    is never served to a Claude on another."""
    kind = str(device).split(":")[0]
    return {} if kind == "cpu" else {"device": kind}


def config_positions(config) -> int | None:
    """The positions a Transformers model config allows; ``None`` where it sets no hard limit
    (relative positions, T5)."""
    for key in ("max_position_embeddings", "n_positions", "max_target_positions"):
        value = getattr(config, key, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


def default_batch_tokens(device: str) -> int:
    return 2048 if str(device) == "cpu" else 8192


# key/value cache a block may hold (prefix and cross-attention keys and values of its groups)
BLOCK_CACHE_BYTES = 1 << 28


def block_budget(batch_tokens: int, config, element_bytes: int) -> int:
    """Tokens per block: ``BLOCK_BATCHES`` batches, fewer where the keys and values of that many
    tokens (every layer, ``hidden_size`` each) would exceed ``BLOCK_CACHE_BYTES``; at least a batch."""
    per_token = 2 * config.num_hidden_layers * config.hidden_size * element_bytes
    return max(batch_tokens, min(BLOCK_BATCHES * batch_tokens, BLOCK_CACHE_BYTES // max(1, per_token)))


def batch_budget(batch_tokens: int | None, device: str) -> int:
    """The token budget per batch (``BatchTokens``, checked by its annotation), or the device's
    default when ``None``."""
    return batch_tokens or default_batch_tokens(device)


def pad_batch(sequences: Sequence[Sequence[int]], pad_id: int, device):
    """Right-padded ``[B, L]`` long tensor and its 0/1 mask."""
    import numpy as np
    import torch

    lengths = np.fromiter((len(s) for s in sequences), dtype=np.int64, count=len(sequences))
    mask = np.arange(int(lengths.max())) < lengths[:, None]
    ids = np.full(mask.shape, pad_id, dtype=np.int64)
    ids[mask] = np.fromiter((token for s in sequences for token in s), dtype=np.int64, count=int(lengths.sum()))
    return torch.from_numpy(ids).to(device), torch.from_numpy(mask.astype(np.int64)).to(device)


def real_tokens(hidden, mask):
    """The states ``[tokens, d]`` of the real tokens of a right-padded ``[batch, length, d]``
    batch, row after row (``index_select``: several times faster on a CPU than a boolean mask)."""
    return hidden.reshape(-1, hidden.shape[-1]).index_select(0, mask.reshape(-1).nonzero().reshape(-1))



class _InterruptedLoadReport(logging.Filter):
    """Drops Transformers' "LOAD REPORT" logged while a Ctrl-C cuts a model load short: it logs
    the report in a ``finally``, so an interrupted load printed a table (in raw terminal colour
    codes) of weights "MISSING" and "newly initialized" that were only not loaded yet."""

    def filter(self, record: logging.LogRecord) -> bool:
        import sys

        return not (isinstance(sys.exc_info()[1], KeyboardInterrupt) and "LOAD REPORT" in record.getMessage())


_INTERRUPTED_LOAD_REPORT = _InterruptedLoadReport()


@contextmanager
def loading_bars(progress: bool) -> Iterator[None]:
    """A context in which Transformers' own bars ("Loading weights") show only where the
    Claude shows progress (its ``progress`` param, and ``ARENA_PROGRESS`` not ``0``): a
    notebook that turns progress off sees no bars while a model loads.  A load that Ctrl-C
    cuts short leaves no load report either (:class:`_InterruptedLoadReport`)."""
    import os

    from huggingface_hub.utils import are_progress_bars_disabled, disable_progress_bars
    from transformers.utils import logging as hf_logging

    report = logging.getLogger("transformers.modeling_utils")
    report.addFilter(_INTERRUPTED_LOAD_REPORT)
    try:
        if (progress and os.environ.get("ARENA_PROGRESS", "1") != "0") or not hf_logging.is_progress_bar_enabled():
            yield
            return
        hub_was_disabled = are_progress_bars_disabled()
        hf_logging.disable_progress_bar()
        try:
            yield
        finally:
            hf_logging.enable_progress_bar()
            if hub_was_disabled:
                disable_progress_bars()
    finally:
        report.removeFilter(_INTERRUPTED_LOAD_REPORT)


def cache_argument(decoder: Any, cache: Any) -> dict[str, Any]:
    """The keyword that passes a key/value ``cache`` to a Transformers ``decoder`` module:
    ``cache`` where its ``forward`` takes that name (Transformers renamed ``past_key_values``,
    which it will drop in 5.40), else ``past_key_values`` (the releases before the rename).
    Passing the name the installed release expects leaves no deprecation warning to hide."""
    return {_cache_keyword(type(decoder).forward): cache}


@functools.cache
def _cache_keyword(forward: Any) -> str:
    import inspect

    return "cache" if "cache" in inspect.signature(forward).parameters else "past_key_values"
