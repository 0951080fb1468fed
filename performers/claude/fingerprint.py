"""Identities of models and tokenizers for the score cache.

A model given as a local directory is identified by the SHA-256 of its weight and
configuration files (memoised per path, size and modification time in the cache's
``digests`` table, so a multi-gigabyte checkpoint is hashed once); a hub model by
its name and revision (and the commit hash Transformers resolved, when it tells).
Tokenizers likewise, by the digests of their vocabulary and configuration files.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

WEIGHT_PATTERNS = ("*.safetensors", "*.bin", "*.pt", "*.pth", "*.ckpt", "config.json", "generation_config.json")
TOKENIZER_PATTERNS = (
    "*.spm",
    "*.model",
    "vocab*.json",
    "*vocab*.txt",
    "tokenizer*.json",
    "special_tokens_map.json",
    "added_tokens.json",
    "merges.txt",
    "*.bpe",
    "*codes*",
    "dict.*.txt",  # fairseq dictionaries
)


def file_digest(path: str | os.PathLike, cache: Any = None) -> str:
    """SHA-256 of a file, memoised in ``cache`` (a ScoreCache) by path, size and mtime."""
    path = Path(path).resolve()
    stat = path.stat()
    if cache is not None:
        known = cache.get_digest(str(path), stat.st_size, stat.st_mtime_ns)
        if known:
            return known
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    value = digest.hexdigest()
    if cache is not None:
        cache.put_digest(str(path), stat.st_size, stat.st_mtime_ns, value)
    return value


def directory_digests(directory: str | os.PathLike, patterns: tuple[str, ...], cache: Any = None) -> dict[str, str]:
    """``{file name: sha256}`` for the files of ``directory`` matching ``patterns``."""
    directory = Path(directory)
    names = sorted({path.name for pattern in patterns for path in directory.glob(pattern) if path.is_file()})
    return {name: file_digest(directory / name, cache) for name in names}


def source_identity(name_or_path: str, revision: str | None, patterns: tuple[str, ...], cache: Any = None,
                    commit: str | None = None) -> dict[str, Any]:
    """Identity of a model or tokenizer given by local directory or hub name."""
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        return {"files": directory_digests(path, patterns, cache)}
    identity: dict[str, Any] = {"name": name_or_path, "revision": revision or "main"}
    if commit:
        identity["commit"] = commit
    return identity


def hub_commit(name: str, revision: str | None) -> str | None:
    """The commit a hub model's revision resolved to in the local Hugging Face cache
    (no network); ``None`` when the model is not cached."""
    from huggingface_hub import try_to_load_from_cache

    try:
        found = try_to_load_from_cache(name, "config.json", revision=revision)
    except (ValueError, OSError):  # not a valid repo id
        return None
    if not isinstance(found, str):
        return None
    parts = Path(found).parts
    return parts[parts.index("snapshots") + 1] if "snapshots" in parts else None


def sources_fingerprint(sources: list[str | None], revision: str | None, cache_setting: Any = True) -> str:
    """A short digest of the models/tokenizers named by ``sources`` (local directories by
    their files' SHA-256, memoised in the score cache; hub names by name, revision and
    the cached commit), without loading them: a Claude's model digest in run signatures."""
    import hashlib
    import json

    cache = None
    if cache_setting not in (None, False):
        from performers.claude.score_cache import ScoreCache

        try:
            cache = ScoreCache.open(cache_setting)
        except (OSError, ValueError):
            cache = None
    identities = []
    for source in sources:
        if not source:
            continue
        local = Path(str(source)).expanduser()
        commit = None if local.exists() else hub_commit(str(source), revision)
        identities.append(
            source_identity(str(source), revision, WEIGHT_PATTERNS + TOKENIZER_PATTERNS, cache, commit)
        )
    text = json.dumps(identities, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def is_local(name_or_path: str) -> bool:
    return Path(name_or_path).expanduser().exists()
