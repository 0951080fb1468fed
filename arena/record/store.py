"""A run directory as the engine keeps it: one writer, a verified plan, one file per cell.

- **Lock.** The process writing a run holds an exclusive ``flock`` on ``RUN/.lock`` and
  records its pid, host and start time there; a second process gets :class:`RunBusy`
  naming the holder (exit 2 on the command line) and writes nothing.  The lock dies
  with its process, so a killed run never leaves a stale lock.
- **Plan.** ``rounds.jsonl`` is written first, then ``manifest.json`` with the plan's
  round count and SHA-256; the manifest is the commit point, so a run that fails
  before it is planned leaves no run directory behind.  A game, planned block by
  block while it is played, commits its manifest first and adds the plan at the end
  (one that fails before its first round is removed with it).  On resume ``rounds.jsonl``
  must match the recorded plan, else the run is refused with what to do.
- **Cells.** Each finished cell (one Claude on one block of rounds) is one file under
  ``cells/`` written atomically; on resume a cell file is kept only when it holds
  exactly one judgement per judged round of its block, for its Claude, in order, so
  judgements are unique per (round, Claude) by construction.  ``judgements.jsonl`` and
  ``onebest.jsonl`` are assembled from the cells; a finished run's
  ``judgements.jsonl`` is checked against the plan whenever the run is opened again.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import json
import logging
import os
import socket
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, DataError, UsageError
from arena.record import transcripts
from arena.record.manifest import Manifest, Written
from arena.record.manifest import read as read_manifest

logger = logging.getLogger(__name__)

CELLS = "cells"
LOCK = ".lock"


class RunBusy(UsageError):
    """Another process is writing the run directory."""


class RunStore:
    """The files of one run directory."""

    def __init__(self, run_dir: Path):
        self.run_dir = Path(run_dir)
        self.cells = self.run_dir / CELLS

    def path(self, name: str) -> Path:
        return self.run_dir / name

    # -- the lock -------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the run directory's lock (creating the directory); on an error before the
        run is planned, or a fault of the user's (an :class:`~arena.errors.ArenaError`: a
        Claude that cannot be built) before its first cell, remove what this session made,
        so no half-made run remains (Ctrl-C keeps a plan: the same command resumes it)."""
        handle = self._acquire()
        fresh = not self.path(transcripts.MANIFEST).exists()
        try:
            yield
        except BaseException as error:
            unplayed = fresh and not self._played(planned=not isinstance(error, ArenaError))
            if not self.path(transcripts.MANIFEST).exists() or unplayed:
                self._discard()
            raise
        finally:
            os.ftruncate(handle, 0)
            fcntl.flock(handle, fcntl.LOCK_UN)
            os.close(handle)

    def _acquire(self) -> int:
        path = self.path(LOCK)
        while True:
            try:
                self.run_dir.mkdir(parents=True, exist_ok=True)
                handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
            except OSError as error:
                raise UsageError(f"{path}: cannot open the run's lock file: {error.strerror}") from None
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(handle, 4096, 0).decode("utf-8", "replace")
                os.close(handle)
                raise RunBusy(f"{self.run_dir}: another arena process is writing this run ({_describe(holder)}); "
                              "wait for it to finish, or stop it and re-run to resume") from None
            try:
                current = os.stat(path).st_ino == os.fstat(handle).st_ino
            except FileNotFoundError:
                current = False
            if current:  # not a lock file that a failed session removed meanwhile
                break
            os.close(handle)
        record = {"pid": os.getpid(), "host": socket.gethostname(),
                  "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        os.ftruncate(handle, 0)
        os.pwrite(handle, json.dumps(record).encode("utf-8"), 0)
        return handle

    def _played(self, planned: bool = True) -> bool:
        """Whether any round was played, or (``planned``) planned; a game writes its manifest first."""
        return (planned and self.path(transcripts.ROUNDS).exists()) or (self.cells.is_dir() and any(self.cells.iterdir()))

    def _discard(self) -> None:
        self.path(transcripts.ROUNDS).unlink(missing_ok=True)
        self.path(transcripts.MANIFEST).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.cells.rmdir()
        self.path(LOCK).unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # only if nothing else is in it
            self.run_dir.rmdir()

    # -- manifest and plan ----------------------------------------------------------------

    def manifest(self) -> Manifest | None:
        """The run's manifest (``None`` before the run is committed); a damaged one is a :class:`DataError`."""
        path = self.path(transcripts.MANIFEST)
        if not path.exists():
            return None
        return read_manifest(path)

    def _write_manifest(self, manifest: Manifest) -> None:
        transcripts.atomic_write_json(self.path(transcripts.MANIFEST), manifest.dump())

    def write_manifest(self, manifest: Manifest) -> None:
        """Commit a run whose plan is written later, block by block (a game): its
        manifest, without a plan yet, unless the run has one already."""
        if self.manifest() is None:
            self._write_manifest(manifest)

    def write_file(self, name: str, text: str) -> None:
        """A further file of the run directory (e.g. a game's ``observations.jsonl``), atomically."""
        transcripts.atomic_write_text(self.path(name), text)

    def write_plan(self, rounds: Iterable[dict[str, Any]], manifest: Manifest) -> None:
        """Write ``rounds.jsonl`` (streamed: one round in memory at a time), then the manifest
        recording its count and hash."""
        count = [0]

        def lines() -> Iterator[str]:
            for r in rounds:
                count[0] += 1
                yield transcripts.dumps_line(r)

        digest = transcripts.atomic_write_parts(self.path(transcripts.ROUNDS), lines())
        self._write_manifest(manifest.with_plan(count[0], digest))

    def planned_rounds(self, manifest: Manifest) -> list[dict[str, Any]]:
        """The rounds of ``rounds.jsonl`` after checking them against the recorded plan."""
        self.check_plan(manifest)
        return list(transcripts.read_jsonl(self.path(transcripts.ROUNDS)))

    def check_plan(self, manifest: Manifest) -> None:
        """``rounds.jsonl`` is the plan the manifest records (hashed in blocks), else a :class:`DataError`."""
        path = self.path(transcripts.ROUNDS)
        plan = manifest.plan
        if plan is None:
            raise DataError(f"{self.path(transcripts.MANIFEST)}: records no plan (a run begun by an earlier arena); "
                             f"delete {self.run_dir} to start the run over")
        if transcripts.file_sha256(path) != plan.sha256:
            lines = sum(1 for _ in path.open("rb")) if path.exists() else 0
            raise DataError(
                f"{path}: does not match the plan recorded in {transcripts.MANIFEST} ({lines} rounds where "
                f"the plan has {plan.rounds}; the file was truncated or edited); delete {self.run_dir} "
                "to start the run over"
            )

    def record_written(self, written: dict[str, Written]) -> None:
        """Record in the manifest the line counts and digests of the files a finished run
        wrote (:func:`arena.record.verify.written`), which readers then check."""
        manifest = self.manifest()
        if manifest is None:
            raise DataError(f"{self.path(transcripts.MANIFEST)}: missing; delete {self.run_dir} to start the run over")
        self._write_manifest(manifest.with_written(written))

    # -- cells ----------------------------------------------------------------------------

    def cell_path(self, name: str) -> Path:
        return self.cells / f"{name}.jsonl"

    def cell_finished(self, name: str, round_ids: Iterable[str], claude: str) -> bool:
        """A cell file exists and holds one judgement per judged round, for ``claude``, in order
        (compared one line at a time)."""
        path = self.cell_path(name)
        if not path.exists():
            return False
        try:
            for record, identifier in itertools.zip_longest(transcripts.read_jsonl(path), round_ids):
                if record is None or identifier is None:
                    return False
                if record.get("round") != identifier or record.get("claude") != claude:
                    return False
        except ValueError:
            return False
        return True

    def write_cell(self, name: str, records: Iterable[dict[str, Any]]) -> None:
        transcripts.atomic_write_jsonl(self.cell_path(name), records)

    def _part_path(self, name: str, index: int) -> Path:
        return self.cells / f".{name}.part{index:06d}"

    def write_cell_part(self, name: str, index: int, records: Iterable[dict[str, Any]]) -> None:
        """One part of a cell judged in parts (a hidden file beside the cells)."""
        transcripts.atomic_write_jsonl(self._part_path(name, index), records)

    def join_cell_parts(self, name: str, parts: int) -> None:
        """The cell from its ``parts`` parts, in order (streamed), written atomically; the parts removed."""
        paths = [self._part_path(name, index) for index in range(parts)]
        transcripts.atomic_write_parts(self.cell_path(name), (block for path in paths for block in _blocks(path)))
        for path in paths:
            path.unlink(missing_ok=True)

    def assemble(self, judgement_cells: Sequence[str], one_best_cells: Sequence[str]) -> None:
        """Write ``judgements.jsonl`` and ``onebest.jsonl`` from the cell files, atomically
        (a file with no lines is not written)."""
        for name, cells in ((transcripts.JUDGEMENTS, judgement_cells), (transcripts.ONEBEST, one_best_cells)):
            present = [self.cell_path(c) for c in cells if self.cell_path(c).exists()]
            if any(path.stat().st_size for path in present):  # streamed: a block of a cell in memory at a time
                transcripts.atomic_write_parts(self.path(name), (block for path in present for block in _blocks(path)))
            else:
                self.path(name).unlink(missing_ok=True)


def _blocks(path: Path, size: int = 1 << 20) -> Iterator[str]:
    """A UTF-8 text file in blocks of about ``size`` characters."""
    with open(path, encoding="utf-8", newline="") as file:
        yield from iter(lambda: file.read(size), "")


def _describe(holder: str) -> str:
    try:
        data = json.loads(holder)
        return f"pid {data['pid']} on {data['host']}, started {data['started']}"
    except (ValueError, KeyError, TypeError):
        return "holder unknown"
