"""Run directories and their transcripts.

A run writes one directory::

    manifest.json      resolved config, signatures, package versions, git commit
    rounds.jsonl       one line per round (instance, variant with edits, order, answer key)
    judgements.jsonl   one line per judged round and Claude (choice, how resolved, scores)
    onebest.jsonl      per scoring Claude and distinct source: its 1-best translation,
                       score and detector verdicts (discrepancy, generative rate)
    scores.json        derived from the above; rebuilt by ``arena score RUN``
    observations.jsonl a game's: what each observing performer was shown, block by block
    cells/             the engine's work in progress, one file per finished cell
    .lock              held by the process writing the run (:mod:`arena.record.store`)

JSON lines keep German readable (``ensure_ascii=False``).  Every file is written
atomically (temporary file + rename); ``judgements.jsonl`` and ``onebest.jsonl`` are
assembled from ``cells/`` when every cell is played.  ``scores.json`` is written last
and marks a run as finished; a finished run is never overwritten.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic_core import from_json

from arena.errors import DataError

MANIFEST = "manifest.json"
ROUNDS = "rounds.jsonl"
JUDGEMENTS = "judgements.jsonl"
ONEBEST = "onebest.jsonl"
SCORES = "scores.json"
OBSERVATIONS = "observations.jsonl"  # a game's: what each observer was shown


def loads(text: str | bytes) -> Any:
    """The JSON value of one line, as :func:`json.loads` decodes it, at about twice its speed
    (pydantic-core's parser, which gives the same values); a line it refuses is decoded by
    :func:`json.loads`, so that what is raised (and the message naming the fault) stays json's."""
    try:
        return from_json(text)
    except ValueError:  # bytes are decoded as UTF-8 first, so that no other encoding is guessed
        return json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)


_ENCODER = json.JSONEncoder(ensure_ascii=False)  # json.dumps(record, ensure_ascii=False), built once


def dumps_line(record: Any) -> str:
    return _ENCODER.encode(record) + "\n"


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically; an ``OSError`` (read-only directory, full
    disk, …) names ``path`` and leaves whatever was there before untouched.  A target
    that exists but is no regular file (``/dev/stdout``, a FIFO) is written in place."""
    atomic_write_parts(path, (text,))


def atomic_write_parts(path: Path, parts: Iterable[str]) -> str:
    """:func:`atomic_write_text` of the concatenated ``parts``, written one part at a time
    (memory stays that of one part); returns the SHA-256 hex digest of what was written."""
    digest = hashlib.sha256()
    with _naming(path):
        if path.exists() and not path.is_file():
            with open(path, "w", encoding="utf-8", newline="") as file:
                for part in parts:
                    file.write(part)
                    digest.update(part.encode("utf-8"))
            return digest.hexdigest()
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
                for part in parts:
                    file.write(part)
                    digest.update(part.encode("utf-8"))
                file.flush()
                os.fsync(file.fileno())
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(temporary, 0o666 & ~mask)  # as a plain open() would have made it
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """SHA-256 hex digest of a file (empty when it does not exist), read in blocks."""
    digest = hashlib.sha256()
    if path.exists():
        with open(path, "rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def _naming(path: Path) -> Iterator[None]:
    """Re-raise an ``OSError`` so that it names ``path`` (a failed ``write`` names no file)."""
    try:
        yield
    except OSError as error:
        if isinstance(error, BrokenPipeError) or error.filename == str(path):
            raise
        raise type(error)(error.errno, error.strerror or str(error), str(path)) from error


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def atomic_write_jsonl(path: Path, records: Iterable[Any]) -> None:
    atomic_write_parts(path, (dumps_line(record) for record in records))


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Read JSON lines (none when the file does not exist); a malformed line is an error
    naming file and line."""
    if not path.exists():
        return
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, start=1):
            if not line.strip():
                continue
            try:
                yield loads(line)
            except RecursionError:
                raise DataError(f"{path}:{number}: JSON nested too deeply") from None
            except json.JSONDecodeError as error:
                raise DataError(f"{path}:{number}: malformed JSON line: {error.msg}") from None


def read_json(path: Path) -> Any:
    """A JSON file of a run (``manifest.json``, ``scores.json``); damage is a
    :class:`DataError` naming file and line."""
    from arena.specs.yamlio import MAX_JSON_BYTES, read_text

    try:
        return json.loads(read_text(path, MAX_JSON_BYTES, "JSON file"))
    except json.JSONDecodeError as error:
        raise DataError(f"not valid JSON ({error.msg}); rebuild it ('arena score RUN' rebuilds scores.json) or delete "
                        "the run directory", file=path, line=error.lineno) from None
    except RecursionError:
        raise DataError("JSON nested too deeply", file=path) from None


def is_finished(run_dir: Path) -> bool:
    return (run_dir / SCORES).exists()


def git_commit(directory: Path | None = None) -> str | None:
    """The git commit of the code, with ``+dirty`` when the tree has changes."""
    directory = directory or Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=directory, capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=directory, capture_output=True, text=True, timeout=5, check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")


def package_versions(names: Iterable[str] = ("numpy", "torch", "transformers", "ctranslate2", "ray")) -> dict[str, str]:
    """Installed versions of the packages that can change numbers."""
    from importlib import metadata

    from arena.version import __version__

    versions = {"arena": __version__}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions
