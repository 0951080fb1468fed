"""Where people's transcripts live and how they are written: once per key, under a lock.

A person's name becomes a directory under ``RUN/people/``, so it must be a plain
token (:data:`NAME_PATTERN`) and its resolved path must stay inside the run directory.
Round ids never become paths.  Every write takes a lock per person that holds across
threads (the web server) and processes (``arena play`` and ``arena serve`` side by
side): it re-reads the person's file, returns the existing record when the key is
already there (an idempotent submission) and otherwise rewrites it, the record added,
with the run's atomic writer (:func:`arena.record.transcripts.atomic_write_jsonl`: the whole file replaced by
rename, fsynced), so a file is never seen half-written and a kill loses nothing written.
"""

from __future__ import annotations

import fcntl
import re
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from arena.codec import load
from arena.errors import UsageError
from arena.record import transcripts
from arena.record.rounds import JudgementRecord

PEOPLE_DIR = "people"
JUDGEMENTS = "judgements.jsonl"
CORRUPTIONS = "corruptions.jsonl"
LOCK = ".lock"
SESSIONS = ".sessions.json"  # the served pages' signed-in sessions (arena.people.sessions)
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
PREFIX = "person:"  # a person's Claude label in transcripts and leaderboards

_thread_locks: dict[Path, threading.Lock] = {}
_thread_locks_guard = threading.Lock()


def check_name(name: Any) -> str:
    """``name`` if it is a safe person name, else ``ValueError`` saying what is allowed."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise UsageError(
            f"person name {name!r} is not allowed: use 1-32 letters, digits, '_' or '-', starting with a letter or digit"
        )
    return name


def label(name: str) -> str:
    """A person's Claude label: ``person:NAME``."""
    return PREFIX + check_name(name)


def is_person(claude: str) -> bool:
    return claude.startswith(PREFIX)


def person_dir(run_dir: Path, name: str) -> Path:
    """``RUN/people/NAME``, checked to resolve inside the run directory."""
    root = (Path(run_dir) / PEOPLE_DIR).resolve()
    path = (root / check_name(name)).resolve()
    if not path.is_relative_to(root) or path == root:
        raise UsageError(f"person name {name!r} leads outside {root}")
    return path


def people(run_dir: Path) -> list[str]:
    """Names of the people with a directory in a run, sorted."""
    root = Path(run_dir) / PEOPLE_DIR
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and NAME_PATTERN.fullmatch(p.name))


def locked(directory: Path) -> AbstractContextManager[None]:
    """Exclusive lock on a person's directory: threads of this process, then other processes."""
    directory.mkdir(parents=True, exist_ok=True)
    return lock_file(directory / LOCK)


@contextmanager
def lock_file(path: Path) -> Iterator[None]:
    """Exclusive lock through the file ``path`` (created if missing): first among the
    threads of this process, then (``flock``) among processes."""
    key = Path(path).resolve()
    with _thread_locks_guard:
        thread_lock = _thread_locks.setdefault(key, threading.Lock())
    with thread_lock, open(key, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class PersonFile:
    """One person's JSON-lines transcript with one record per key (``key_field``)."""

    def __init__(self, run_dir: Path, name: str, filename: str, key_field: str):
        self.name = check_name(name)
        self.directory = person_dir(run_dir, name)
        self.path = self.directory / filename
        self.key_field = key_field

    def _key(self, record: dict[str, Any]) -> str:
        value = record[self.key_field]
        return value["id"] if isinstance(value, dict) else value

    def read(self) -> dict[str, dict[str, Any]]:
        """Records by key, in file order (read without the lock: files are replaced whole)."""
        return {self._key(r): r for r in transcripts.read_jsonl(self.path)}

    def write_once(self, record: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Append ``record`` unless its key is already written; return the record that
        stands and whether it was written now."""
        key = self._key(record)
        with locked(self.directory):
            records = list(transcripts.read_jsonl(self.path))
            for existing in records:
                if self._key(existing) == key:
                    return existing, False
            transcripts.atomic_write_jsonl(self.path, [*records, record])
        return record, True


def sessions_file(run_dir: Path) -> Path:
    """``RUN/people/.sessions.json``: where ``arena serve`` keeps its signed-in sessions."""
    return Path(run_dir) / PEOPLE_DIR / SESSIONS


def judgement_file(run_dir: Path, name: str) -> PersonFile:
    return PersonFile(run_dir, name, JUDGEMENTS, "round")


def corruption_file(run_dir: Path, name: str) -> PersonFile:
    return PersonFile(run_dir, name, CORRUPTIONS, "instance")


def read_judgements(run_dir: Path) -> list[JudgementRecord]:
    """Every person's judgements in a run (people sorted by name, file order)."""
    result = []
    for name in people(run_dir):
        path = person_dir(run_dir, name) / JUDGEMENTS
        for data in transcripts.read_jsonl(path):
            record = load(JudgementRecord, data)
            if record.claude != label(name):
                raise UsageError(f"{path}: holds a judgement of {record.claude!r}, not of {label(name)!r}")
            result.append(record)
    return result

