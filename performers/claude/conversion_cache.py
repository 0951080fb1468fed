"""Converted models cached on disk: built once into a scratch directory, then renamed into place.

``$ARENA_CACHE_DIR/<kind>/<key digest>/`` (default ``~/.cache/arena``).  A conversion is written to a
temporary directory beside its target and renamed, so concurrent processes never see half a model;
when two convert at once, the first rename wins and the other's copy is dropped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

KEY_FILE = "arena-conversion.json"


def cached_directory(kind: str, key: Any, build: Callable[[Path], None], is_complete: Callable[[Path], bool],
                     root: Path | None = None) -> Path:
    """The directory for ``key`` under ``root/kind``; ``build(path)`` fills a fresh ``path`` on first use."""
    from performers.claude.score_cache import default_cache_dir

    text = json.dumps(key, sort_keys=True)
    target = (root or default_cache_dir()) / kind / hashlib.sha256(text.encode()).hexdigest()[:24]
    if is_complete(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        build(scratch / "model")
        (scratch / "model" / KEY_FILE).write_text(text + "\n")
        try:
            os.rename(scratch / "model", target)
        except OSError:
            if not is_complete(target):  # not a concurrent conversion that won the race
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target
