"""A persistent cache of sequence scores and 1-best translations (SQLite, WAL).

One file serves every model: a ``models`` table maps a model's identity (a JSON
object: weights or name and revision, tokenizer, dtype, scoring convention, Claude
class and version — see :meth:`performers.claude.scoring.ScoringClaude.identity`)
to a small integer, and the ``scores`` / ``translations`` tables are keyed by that
integer and a 128-bit BLAKE2b hash of the request (texts are not stored, except the
translations themselves).  Several processes (Ray actors, parallel runs) may share
the file: SQLite's write-ahead log lets readers and one writer work at once, and
writers wait for each other (``busy_timeout``).

Location: ``$ARENA_CACHE_DIR/scores.sqlite``, else ``~/.cache/arena/scores.sqlite``;
a Claude's ``cache`` parameter may name another directory or ``.sqlite`` file, or
switch caching off.  Each score row also records ``seconds``, the time its
computation took (its batch's time, shared equally by the batch's pairs), so that a
cached answer can be charged what it cost (the honest clock of Smith's time budget,
:class:`performers.claude.scoring.ScoringClaude.replayed_seconds`); rows written
before that column existed have ``NULL`` there and count as unknown.  Deleting the file is always safe: a file SQLite cannot read
(truncated, overwritten, not a database) is reported as :class:`CacheError` (a
``ValueError``, so the CLI exits 2 with one line) naming the file and saying so.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.sdk import ConfigError, DataError

log = logging.getLogger(__name__)

FILE_NAME = "scores.sqlite"
SQLITE_SUFFIXES = (".sqlite", ".sqlite3", ".db")
_CHUNK = 500  # keys per SELECT … IN (…)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS models (id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS scores (
    model INTEGER NOT NULL, pair BLOB NOT NULL, logprob REAL, tokens INTEGER NOT NULL, seconds REAL,
    PRIMARY KEY (model, pair)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS translations (
    model INTEGER NOT NULL, request BLOB NOT NULL, translation TEXT NOT NULL,
    PRIMARY KEY (model, request)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS digests (
    path TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, digest TEXT NOT NULL,
    PRIMARY KEY (path, size, mtime_ns)) WITHOUT ROWID;
"""


class CacheError(DataError):
    """The cache file cannot be used; the message names it and what to do."""


@contextlib.contextmanager
def _reported(path: Path) -> Iterator[None]:
    """Turn SQLite errors into a :class:`CacheError` naming ``path`` and what to do."""
    try:
        yield
    except sqlite3.OperationalError as error:
        text = str(error)
        if "locked" in text or "busy" in text:
            raise CacheError(f"{path}: the score cache stayed locked by another process ({text}); try again") from None
        if "malformed" not in text and "not a database" not in text:
            raise CacheError(
                f"{path}: cannot use the score cache ({text}); set ARENA_CACHE_DIR to a writable directory "
                "or give the Claude cache: false"
            ) from None
        raise _corrupt(path, error) from None
    except sqlite3.DatabaseError as error:
        raise _corrupt(path, error) from None


def _corrupt(path: Path, error: Exception) -> CacheError:
    return CacheError(
        f"{path}: the score cache is corrupt ({error}); it only holds cached scores, so it is safe to delete it "
        f"(rm {path}) and run again"
    )


def default_cache_dir() -> Path:
    """``$ARENA_CACHE_DIR``, else ``~/.cache/arena``."""
    configured = os.environ.get("ARENA_CACHE_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "arena"


def cache_path(setting: bool | str | os.PathLike) -> Path:
    """The SQLite file a ``cache`` parameter names (``True``: the default one)."""
    if setting is True:
        return default_cache_dir() / FILE_NAME
    if isinstance(setting, (str, os.PathLike)) and str(setting):
        path = Path(setting).expanduser()
        return path if path.suffix in SQLITE_SUFFIXES else path / FILE_NAME
    raise ConfigError(f"cache must be true, false, a directory or a .sqlite file path, not {setting!r}")


def pair_key(source: str, target: str) -> bytes:
    return hashlib.blake2b(f"{source}\0{target}".encode(), digest_size=16).digest()


def translation_key(settings: Mapping[str, Any], source: str) -> bytes:
    head = json.dumps(dict(settings), sort_keys=True)
    return hashlib.blake2b(f"{head}\0{source}".encode(), digest_size=16).digest()


class ScoreCache:
    """Score and translation cache in one SQLite file (see module docstring)."""

    _open: dict[Path, ScoreCache] = {}
    _open_lock = threading.Lock()

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with _reported(self.path), self._lock:
            self._connection = sqlite3.connect(str(self.path), timeout=120.0, check_same_thread=False)
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute("PRAGMA synchronous=NORMAL")
            self._connection.execute("PRAGMA busy_timeout=120000")
            self._connection.executescript(_SCHEMA)
            self._add_seconds_column()
            self._connection.commit()
        log.debug("score cache at %s", self.path)

    def _add_seconds_column(self) -> None:
        """Give a file from before the honest clock its ``seconds`` column (NULL = unknown)."""
        columns = {row[1] for row in self._connection.execute("PRAGMA table_info(scores)")}
        if "seconds" not in columns:
            try:
                self._connection.execute("ALTER TABLE scores ADD COLUMN seconds REAL")
            except sqlite3.OperationalError as error:  # another process added it first
                if "duplicate column" not in str(error):
                    raise

    @classmethod
    def open(cls, setting: bool | str | os.PathLike) -> ScoreCache:
        """The cache a ``cache`` parameter names, shared within the process."""
        path = cache_path(setting).resolve()
        with cls._open_lock:
            if path not in cls._open:
                cls._open[path] = cls(path)
            return cls._open[path]

    def close(self) -> None:
        with self._lock:
            self._connection.close()
        with self._open_lock:
            if self._open.get(self.path.resolve()) is self:
                del self._open[self.path.resolve()]

    # -- models ---------------------------------------------------------------------
    def model_id(self, identity: Mapping[str, Any]) -> int:
        """The integer id of a model identity (created on first use)."""
        key = json.dumps(dict(identity), sort_keys=True, ensure_ascii=False, default=str)
        with _reported(self.path), self._lock:
            self._connection.execute("INSERT OR IGNORE INTO models (key) VALUES (?)", (key,))
            self._connection.commit()
            (model,) = self._connection.execute("SELECT id FROM models WHERE key = ?", (key,)).fetchone()
        return int(model)

    # -- scores ---------------------------------------------------------------------
    def get_scores(self, model: int, pairs: Sequence[tuple[str, str]]) -> dict[int, tuple[float, int]]:
        """``{index: (logprob, tokens)}`` for the pairs the cache has."""
        return {index: (logprob, tokens) for index, (logprob, tokens, _) in self.get_timed_scores(model, pairs).items()}

    def get_timed_scores(
        self, model: int, pairs: Sequence[tuple[str, str]]
    ) -> dict[int, tuple[float, int, float | None]]:
        """``{index: (logprob, tokens, seconds)}`` for the pairs the cache has;
        ``seconds`` (what computing the score took) is ``None`` where unrecorded."""
        keys = {pair_key(*pair): index for index, pair in enumerate(pairs)}
        found: dict[int, tuple[float, int, float | None]] = {}
        rows = self._select(
            "SELECT pair, logprob, tokens, seconds FROM scores WHERE model = ? AND pair IN", model, list(keys)
        )
        for key, logprob, tokens, seconds in rows:
            cost = None if seconds is None else float(seconds)
            found[keys[key]] = (math.nan if logprob is None else float(logprob), int(tokens), cost)
        return found

    def put_scores(self, model: int, rows: Sequence[tuple]) -> None:
        """Store ``((source, target), logprob, tokens[, seconds])`` rows and commit;
        ``seconds`` is what computing the score took (``None``/absent: unknown)."""
        values = []
        for pair, logprob, tokens, *rest in rows:
            seconds = rest[0] if rest else None
            stored = None if math.isnan(logprob) else float(logprob)
            values.append((model, pair_key(*pair), stored, int(tokens), None if seconds is None else float(seconds)))
        self._write(
            "INSERT OR REPLACE INTO scores (model, pair, logprob, tokens, seconds) VALUES (?, ?, ?, ?, ?)", values
        )

    def count_scores(self, model: int | None = None) -> int:
        with _reported(self.path), self._lock:
            if model is None:
                return self._connection.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
            return self._connection.execute("SELECT COUNT(*) FROM scores WHERE model = ?", (model,)).fetchone()[0]

    # -- translations ---------------------------------------------------------------
    def get_translations(self, model: int, settings: Mapping[str, Any], sources: Sequence[str]) -> dict[int, str]:
        keys = {translation_key(settings, source): index for index, source in enumerate(sources)}
        rows = self._select(
            "SELECT request, translation FROM translations WHERE model = ? AND request IN", model, list(keys)
        )
        return {keys[key]: translation for key, translation in rows}

    def put_translations(self, model: int, settings: Mapping[str, Any], rows: Sequence[tuple[str, str]]) -> None:
        values = [(model, translation_key(settings, source), translation) for source, translation in rows]
        self._write("INSERT OR REPLACE INTO translations (model, request, translation) VALUES (?, ?, ?)", values)

    # -- file digests -----------------------------------------------------------------
    def get_digest(self, path: str, size: int, mtime_ns: int) -> str | None:
        with _reported(self.path), self._lock:
            row = self._connection.execute(
                "SELECT digest FROM digests WHERE path = ? AND size = ? AND mtime_ns = ?", (path, size, mtime_ns)
            ).fetchone()
        return row[0] if row else None

    def put_digest(self, path: str, size: int, mtime_ns: int, digest: str) -> None:
        self._write(
            "INSERT OR REPLACE INTO digests (path, size, mtime_ns, digest) VALUES (?, ?, ?, ?)",
            [(path, size, mtime_ns, digest)],
        )

    # -- helpers ----------------------------------------------------------------------
    def _select(self, statement: str, model: int, keys: list[bytes]) -> list[tuple]:
        rows: list[tuple] = []
        with _reported(self.path), self._lock:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows.extend(self._connection.execute(f"{statement} ({marks})", (model, *chunk)).fetchall())
        return rows

    def _write(self, statement: str, values: list[tuple]) -> None:
        if not values:
            return
        with _reported(self.path), self._lock:
            with self._connection:  # one transaction, committed on exit
                self._connection.executemany(statement, values)
