"""arena's error contract: the user's fault is one of these types; anything else is a bug.

Code raises an :class:`ArenaError` subclass exactly where it knows the user (their command
line, config, data or machine) is at fault, naming the ``file``, ``line`` and ``key`` it can
and a ``hint`` saying what to do.  The CLI maps these (and :class:`OSError` on a user's
path) to exit status 2 with one line::

    experiments/x.yaml:7: claudes.0.params.dtype: 'f16' is not one of 'fp32', 'fp16', 'bf16' (hint: ...)

Every other exception is a programming error: the CLI saves its traceback to a file and
exits with status 70 (``EX_SOFTWARE``), never disguising it as a usage error.

The types also derive from :class:`ValueError`, so callers (and tests) that catch a
``ValueError`` for bad input keep working.
"""

from __future__ import annotations

import os
from pathlib import Path

EXIT_USAGE = 2
EXIT_BUG = 70


class ArenaError(ValueError):
    """Bad input the user can fix: reported in one line, exit status 2."""

    kind = "error"

    def __init__(
        self,
        message: str,
        *,
        file: str | os.PathLike | None = None,
        line: int | None = None,
        key: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = None if file is None else str(file)
        self.line = line
        self.key = key
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        key = f"{self.key}: " if self.key and self.key not in self.message else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}{key}{self.message}{hint}"


class UsageError(ArenaError):
    """A command-line argument or API call the user got wrong."""

    kind = "usage error"


class ConfigError(ArenaError):
    """An experiment config (YAML, ``--set``, a SPEC) that cannot be played."""

    kind = "config error"


class DataError(ArenaError):
    """An input file or run directory that is damaged, truncated or of the wrong format."""

    kind = "data error"


class EnvError(ArenaError):
    """Something the user's machine lacks: a model not in the cache offline, no GPU, no Ray head."""

    kind = "environment error"


def bug_report(error: BaseException, directory: Path | None = None) -> Path:
    """Save the traceback of an unexpected exception and return the file's path."""
    import tempfile
    import time
    import traceback

    directory = directory or Path(os.environ.get("ARENA_CRASH_DIR") or tempfile.gettempdir())
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"arena-crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    path.write_text("".join(traceback.format_exception(error)), encoding="utf-8")
    return path
