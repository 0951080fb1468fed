"""Progress bars on stderr (tqdm), switched off for quiet runs and tests."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass


@contextmanager
def progress_bar(total: int | None, desc: str, enabled: bool = True, unit: str = "it") -> Iterator:
    """A tqdm bar on stderr, or a silent stand-in when disabled (``ARENA_PROGRESS=0``)."""
    if not enabled or os.environ.get("ARENA_PROGRESS", "1") == "0":
        yield _Silent()
        return
    from tqdm.auto import tqdm

    with tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True) as bar:
        yield bar
