"""Checkpoints of ``arena train`` in safetensors: tensors and JSON, never pickled code.

One file, ``DIR/checkpoint.safetensors``, holds the model's weights (``model/NAME``), the
optimiser's per-parameter state (``optimizer/INDEX/KEY``) and the random generators'
states (``rng/cpu``, ``rng/cuda/N``) as tensors; everything else (settings, position,
elapsed time, loss history, the optimiser's parameter groups, the schedule) is one JSON
document in the file's metadata.  Loading parses tensors and JSON only, so a checkpoint
from elsewhere cannot run code (``torch.load(weights_only=False)`` would).

Writing is atomic: a scratch file is written and synced, the current checkpoint becomes
``checkpoint.prev.safetensors`` and the scratch file takes its place.  A checkpoint that
is damaged (cut short by a full disk or a crash, edited, of a foreign format) is
reported by name; training resumes from the previous one when that one is sound, and
otherwise stops with a :class:`~arena.errors.DataError` that says what to delete.  A
checkpoint with non-finite weights is never written.  ``checkpoint.pt`` of earlier
versions is read with ``torch.load(weights_only=True)``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.sdk import DataError, EnvError

log = logging.getLogger(__name__)

CHECKPOINT = "checkpoint.safetensors"
PREVIOUS = "checkpoint.prev.safetensors"
LEGACY = "checkpoint.pt"
FORMAT = "arena-train-checkpoint/1"
INFO_KEYS = ("settings", "step", "epoch", "position", "elapsed", "history", "scheduler")


@dataclass
class Checkpoint:
    """A loaded training state: ``info`` (the JSON part) and the tensors, by role."""

    path: Path
    info: dict[str, Any]
    model: dict[str, Any]
    optimizer: dict[str, Any]
    rng: Any
    cuda_rng: list[Any] | None


def non_finite(tensors: dict[str, Any]) -> list[str]:
    """Names of the floating-point tensors holding a NaN or an infinity."""
    import torch

    return [name for name, tensor in tensors.items()
            if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all())]


@contextlib.contextmanager
def writing(path: Path, what: str) -> Iterator[None]:
    """Turn an ``OSError`` (full disk, no permission) while writing ``path`` into an
    :class:`EnvError` naming it."""
    try:
        yield
    except OSError as error:
        if isinstance(error, BrokenPipeError):
            raise
        failed = error.filename or path
        raise EnvError(f"cannot write {what}: {error.strerror or error}", file=failed,
                       hint="free space on that disk or choose another --out; re-run the same command to resume"
                       ) from None


def save(directory: Path, info: dict[str, Any], model: dict[str, Any], optimizer: dict[str, Any], rng: Any,
         cuda_rng: list[Any] | None) -> Path:
    """Write ``directory/checkpoint.safetensors`` atomically (the current one becomes the previous one)."""
    from safetensors.torch import save as to_bytes

    bad = non_finite(model)
    if bad:
        raise ValueError(f"refusing to write a checkpoint with non-finite weights ({', '.join(bad[:3])})")
    tensors = {f"model/{name}": tensor.detach().to("cpu").contiguous().clone() for name, tensor in model.items()}
    scalars: dict[str, dict[str, Any]] = {}
    for index, values in optimizer["state"].items():
        for key, value in values.items():
            if hasattr(value, "detach"):
                tensors[f"optimizer/{index}/{key}"] = value.detach().to("cpu").contiguous().clone()
            else:
                scalars.setdefault(str(index), {})[key] = value
    tensors["rng/cpu"] = rng.clone()
    for number, state in enumerate(cuda_rng or []):
        tensors[f"rng/cuda/{number}"] = state.clone()
    document = dict(info, optimizer_groups=optimizer["param_groups"], optimizer_scalars=scalars,
                    cuda=cuda_rng is not None)
    data = to_bytes(tensors, metadata={"format": FORMAT, "state": json.dumps(document)})
    path = directory / CHECKPOINT
    scratch = directory / f".{CHECKPOINT}.tmp{os.getpid()}"
    with writing(path, "the checkpoint"):
        try:
            with open(scratch, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if path.exists():
                os.replace(path, directory / PREVIOUS)
            os.replace(scratch, path)
        except BaseException:
            scratch.unlink(missing_ok=True)
            raise
    return path


def load(directory: Path) -> Checkpoint | None:
    """The newest sound checkpoint in ``directory``; ``None`` when there is none.

    Scratch files of an interrupted write are removed.  A damaged current checkpoint is
    reported (a warning) and the previous one used; when none is sound, a
    :class:`DataError` names the damaged file."""
    for scratch in directory.glob(f".{CHECKPOINT}.tmp*"):
        log.warning("%s: removing a checkpoint left half-written by an interrupted run", scratch)
        scratch.unlink(missing_ok=True)
    candidates = [directory / CHECKPOINT, directory / PREVIOUS]
    damaged: list[tuple[Path, str]] = []
    for path in candidates:
        if not path.is_file():
            continue
        try:
            checkpoint = _read(path)
        except _Damaged as error:
            damaged.append((path, str(error)))
            log.warning("%s: damaged checkpoint (%s)", path, error)
            continue
        if damaged:
            log.warning("resuming from %s instead of the damaged %s", path, damaged[0][0])
        return checkpoint
    legacy = directory / LEGACY
    if not damaged and legacy.is_file():
        return _read_legacy(legacy)
    if damaged:
        path, reason = damaged[0]
        raise DataError(f"damaged checkpoint ({reason}); no sound earlier checkpoint to resume from", file=path,
                        hint=f"delete {', '.join(str(p) for p, _ in damaged)} to train from scratch, or use another --out")
    return None


class _Damaged(Exception):
    """A checkpoint file that cannot be read as one (internal to :func:`load`)."""


def _read(path: Path) -> Checkpoint:
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(str(path), framework="pt") as handle:
            metadata = handle.metadata() or {}
            tensors = {name: handle.get_tensor(name) for name in handle.keys()}
    except (SafetensorError, ValueError, OSError) as error:
        raise _Damaged(str(error).splitlines()[0] if str(error) else type(error).__name__) from None
    if metadata.get("format") != FORMAT:
        raise _Damaged(f"not an arena training checkpoint (format {metadata.get('format')!r})")
    try:
        document = json.loads(metadata["state"])
    except (KeyError, ValueError) as error:
        raise _Damaged(f"unreadable state: {error}") from None
    missing = [key for key in (*INFO_KEYS, "optimizer_groups", "optimizer_scalars") if key not in document]
    if missing or "rng/cpu" not in tensors:
        raise _Damaged(f"incomplete: no {', '.join(missing or ['rng/cpu'])}")
    model = {name[len("model/"):]: tensor for name, tensor in tensors.items() if name.startswith("model/")}
    bad = non_finite(model)
    if bad:
        raise _Damaged(f"non-finite weights in {', '.join(bad[:3])}")
    state: dict[int, dict[str, Any]] = {}
    for name, tensor in tensors.items():
        if name.startswith("optimizer/"):
            _, index, key = name.split("/", 2)
            state.setdefault(int(index), {})[key] = tensor
    for index, values in document["optimizer_scalars"].items():
        state.setdefault(int(index), {}).update(values)
    optimizer = {"state": dict(sorted(state.items())), "param_groups": document["optimizer_groups"]}
    cuda = sorted((name for name in tensors if name.startswith("rng/cuda/")), key=lambda n: int(n.rsplit("/", 1)[1]))
    info = {key: document[key] for key in INFO_KEYS}
    return Checkpoint(path, info, model, optimizer, tensors["rng/cpu"],
                      [tensors[name] for name in cuda] if document.get("cuda") else None)


def _read_legacy(path: Path) -> Checkpoint:
    """A ``checkpoint.pt`` of earlier versions, read without executing pickled code."""
    import torch

    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
        info = {key: state[key] for key in INFO_KEYS}
        return Checkpoint(path, info, state["model"], state["optimizer"], state["rng"], state.get("cuda_rng"))
    except Exception as error:  # noqa: BLE001 - any failure to unpickle safely is a damaged file
        raise DataError(f"unreadable checkpoint of an earlier version ({type(error).__name__})", file=path,
                        hint="delete it to train from scratch, or use another --out") from None
