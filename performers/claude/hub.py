"""Fail fast, and say how to work offline, when a Hugging Face model cannot be had.

Without this, a hub name that is neither a local directory nor in the local cache,
on a machine that cannot reach the hub, costs a minute of the hub client's retries
(each logged twice) before the error.  :func:`require_model` decides after one
attempt: the model is a local directory, or in the cache, or the hub answers one
connection within a few seconds; otherwise a ``ValueError`` says what to do.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlparse

from arena.sdk import ConfigError, EnvError

CONNECT_SECONDS = 3.0
_TRUE = ("1", "true", "yes", "on")


def offline() -> bool:
    """Whether ``HF_HUB_OFFLINE`` (or ``TRANSFORMERS_OFFLINE``) forbids the network."""
    return any(os.environ.get(name, "").strip().lower() in _TRUE for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def cached(name: str, revision: str | None = None) -> bool:
    """Whether the hub model's ``config.json`` is in the local Hugging Face cache."""
    from performers.claude.fingerprint import hub_commit

    return hub_commit(name, revision) is not None


def hub_unreachable() -> str | None:
    """``None`` when one TCP connection to the hub (``HF_ENDPOINT``) succeeds, else why not."""
    endpoint = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    host = endpoint.hostname or "huggingface.co"
    port = endpoint.port or (80 if endpoint.scheme == "http" else 443)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            return None
    except OSError as error:
        return f"{host}:{port}: {error.strerror or error}"


def _how_to(name: str) -> str:
    return (
        f"To work offline: on a machine with network run `hf download {name}` (or load the model once), copy the "
        "Hugging Face cache (~/.cache/huggingface, or $HF_HOME) to this machine and set HF_HUB_OFFLINE=1; "
        "or pass a local directory holding the model's files, e.g. model=/path/to/model-dir."
    )


def looks_like_path(name: str) -> bool:
    """A name that can only be a local path (``/x``, ``./x``, ``~/x``, ``a/b/c``), not a hub id."""
    return name.startswith(("/", "./", "../", "~", "\\")) or name.count("/") > 1


def require_model(name: str, revision: str | None = None, what: str = "model") -> None:
    """Raise a ``ValueError`` (``cannot load WHAT NAME: …``) naming the remedy unless
    ``name`` is a local path, a cached hub model, or the hub can be reached (one
    attempt, :data:`CONNECT_SECONDS` at most)."""
    prefix = f"cannot load {what} {name!r}"
    local = Path(name).expanduser()
    if local.is_dir() and not any(local.glob("*.json")):  # a model's, a tokenizer's, a CTranslate2 model's
        raise ConfigError(f"{prefix}: the directory holds no config.json (nor any other .json): not a model "
                          "directory")
    if local.exists() or cached(name, revision):
        return
    if looks_like_path(name):
        raise ConfigError(f"{prefix}: no such directory")
    if offline():
        raise EnvError(
            f"{prefix}: it is neither a local directory nor in the Hugging Face cache, and HF_HUB_OFFLINE is set, "
            f"so it cannot be downloaded. {_how_to(name)} (Or unset HF_HUB_OFFLINE to download it.)"
        )
    problem = hub_unreachable()
    if problem is not None:
        raise EnvError(
            f"{prefix}: it is neither a local directory nor in the Hugging Face cache, and the hub cannot be "
            f"reached ({problem}). {_how_to(name)}"
        )
