"""The German analysis on disk: one row per (backend, text) and per (backend, word), shared by runs,
Zelligs and processes.

:mod:`performers.german.analysis` keeps analyses in memory for one process; this store keeps them
across processes and runs, so a second run over the same references (another Zellig, another
tournament, a Ray worker that starts cold) reads each sentence's tokens, tags, lemmas and the words'
morphemes instead of recomputing them (SoMaJo + HanTa, a few milliseconds a sentence)::

    store = AnalysisStore(path, identity="somajo-hanta|somajo 2.4.3; HanTa 1.1.1|1")
    store.get_many(["Der Hund bellt."])        # {text: Analysis} for the texts on disk
    store.put("Der Hund bellt.", analysis)     # buffered; written in batches and at exit

Keys are 128-bit BLAKE2b hashes of the backend's identity (its name, version — for the default
backend the versions of SoMaJo and HanTa — and :data:`FORMAT`) and the text, so a new tagger
version never reads an old analysis.  Rows are compact JSON.  SQLite in WAL mode lets many
processes read while one writes; writes are buffered (:data:`FLUSH_EVERY` rows or
:data:`FLUSH_SECONDS`) and flushed at exit.

Location: ``$ARENA_ANALYSIS_CACHE`` (a ``.sqlite`` file or a directory; ``off`` switches the store
off), else ``$ARENA_CACHE_DIR/german-analysis.sqlite``, else ``~/.cache/arena/german-analysis.sqlite``.
It only holds derived data: deleting it is always safe.  A file SQLite cannot use (unwritable,
corrupt) switches the store off for the process with one warning; analyses are then computed as
without it.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from performers.german.tokens import Analysis, Sentence, Token

logger = logging.getLogger(__name__)

FORMAT = 1  # bump when the row layout or the analysis itself changes meaning
FILE_NAME = "german-analysis.sqlite"
FLUSH_EVERY = 256
FLUSH_SECONDS = 5.0
_CHUNK = 500  # keys per SELECT … IN (…)
OFF = ("0", "off", "false", "no")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS analyses (key BLOB PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS morphemes (key BLOB PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
"""


def store_path() -> Path | None:
    """Where the store lives, or ``None`` when ``ARENA_ANALYSIS_CACHE`` switches it off."""
    configured = os.environ.get("ARENA_ANALYSIS_CACHE", "")
    if configured.lower() in OFF:
        return None
    if configured:
        path = Path(configured).expanduser()
        return path if path.suffix in (".sqlite", ".sqlite3", ".db") else path / FILE_NAME
    base = os.environ.get("ARENA_CACHE_DIR")
    return (Path(base).expanduser() if base else Path.home() / ".cache" / "arena") / FILE_NAME


def encode(analysis: Analysis) -> str:
    tokens = [[t.text, t.start, t.end, t.pos, t.lemma, t.sentence, t.xpos, int(t.space_after), t.kind]
              for t in analysis.tokens]
    sentences = [[s.start, s.end, s.first, s.last] for s in analysis.sentences]
    return json.dumps([tokens, sentences], ensure_ascii=False, separators=(",", ":"))


def decode(text: str, data: str, backend: str) -> Analysis:
    tokens, sentences = json.loads(data)
    return Analysis(
        text,
        tuple(Token(i, w, s, e, pos, lemma, sent, xpos, bool(space), kind)
              for i, (w, s, e, pos, lemma, sent, xpos, space, kind) in enumerate(tokens)),
        tuple(Sentence(i, *span) for i, span in enumerate(sentences)),
        backend,
    )


class AnalysisStore:
    """Analyses and morphemes of one backend identity in one SQLite file; see the module docstring."""

    def __init__(self, path: Path, identity: str, backend: str):
        self.path = Path(path)
        self.identity = identity
        self.backend = backend
        self._pending: dict[str, list[tuple[bytes, str]]] = {"analyses": [], "morphemes": []}
        self._last_flush = time.monotonic()
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self.hits = self.misses = 0
        atexit.register(self.close)

    def key(self, kind: str, text: str) -> bytes:
        return hashlib.blake2b(f"{self.identity}\0{kind}\0{text}".encode(), digest_size=16).digest()

    def _select(self, table: str, keys: list[bytes]) -> dict[bytes, str]:
        found: dict[bytes, str] = {}
        for start in range(0, len(keys), _CHUNK):
            part = keys[start : start + _CHUNK]
            marks = ",".join("?" * len(part))
            found.update(self._db.execute(f"SELECT key, data FROM {table} WHERE key IN ({marks})", part).fetchall())
        return found

    def get_many(self, texts: Iterable[str]) -> dict[str, Analysis]:
        """The analyses of ``texts`` that are on disk (pending writes included)."""
        keys = {self.key("a", text): text for text in dict.fromkeys(texts)}
        with self._lock:
            pending = {key: data for key, data in self._pending["analyses"] if key in keys}
            rows = {**self._select("analyses", [k for k in keys if k not in pending]), **pending}
        self.hits += len(rows)
        self.misses += len(keys) - len(rows)
        return {keys[key]: decode(keys[key], data, self.backend) for key, data in rows.items()}

    def get(self, text: str) -> Analysis | None:
        return self.get_many([text]).get(text)

    def put(self, text: str, analysis: Analysis) -> None:
        self._add("analyses", self.key("a", text), encode(analysis))

    def get_morphemes(self, word: str) -> tuple[tuple[str, str], ...] | None:
        key = self.key("m", word)
        with self._lock:
            pending = [data for k, data in self._pending["morphemes"] if k == key]
            data = pending[0] if pending else self._select("morphemes", [key]).get(key)
        return None if data is None else tuple(tuple(pair) for pair in json.loads(data))

    def put_morphemes(self, word: str, morphs: tuple[tuple[str, str], ...]) -> None:
        self._add("morphemes", self.key("m", word), json.dumps(morphs, ensure_ascii=False, separators=(",", ":")))

    def _add(self, table: str, key: bytes, data: str) -> None:
        with self._lock:
            self._pending[table].append((key, data))
            due = sum(map(len, self._pending.values())) >= FLUSH_EVERY
            due = due or time.monotonic() - self._last_flush > FLUSH_SECONDS
        if due:
            self.flush()

    def flush(self) -> None:
        """Write the buffered rows (one transaction)."""
        with self._lock:
            pending, self._pending = self._pending, {"analyses": [], "morphemes": []}
            self._last_flush = time.monotonic()
            if not any(pending.values()):
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for table, rows in pending.items():
                    self._db.executemany(f"INSERT OR IGNORE INTO {table} (key, data) VALUES (?, ?)", rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        try:
            self.flush()
        except sqlite3.Error as error:  # at exit: a lost cache write costs a recomputation, nothing more
            logger.warning("%s: could not write the German analysis cache: %s", self.path, error)
        atexit.unregister(self.close)


_STORES: dict[str, AnalysisStore | None] = {}


def store_for(backend_name: str, backend: object) -> AnalysisStore | None:
    """This process's store for a backend (opened once), or ``None`` when switched off or unusable."""
    path = store_path()
    cache_key = f"{backend_name}@{path}"
    if cache_key in _STORES:
        return _STORES[cache_key]
    store = None
    if path is not None:
        identity = f"{backend_name}|{getattr(backend, 'version', '')}|{FORMAT}"
        try:
            store = AnalysisStore(path, identity, backend_name)
        except (OSError, sqlite3.Error) as error:
            logger.warning("%s: German analysis cache switched off (%s); delete the file or set "
                           "ARENA_ANALYSIS_CACHE to another path", path, error)
    _STORES[cache_key] = store
    return store


def disable(store: AnalysisStore, error: Exception) -> None:
    """Switch a store off for this process after an SQLite error (it is only a cache)."""
    logger.warning("%s: German analysis cache switched off (%s)", store.path, error)
    for key, value in list(_STORES.items()):
        if value is store:
            _STORES[key] = None


def close_all() -> None:
    """Flush and forget every open store (tests, benchmarks that switch the location)."""
    for store in _STORES.values():
        if store is not None:
            store.close()
    _STORES.clear()
