"""A run directory read back: the one typed reader of a run.

:class:`RunDir` verifies the run before anything is read (:func:`arena.record.verify.verify_run`,
streamed, memory bounded by columns; a damaged run is a :class:`~arena.errors.DataError` naming
file and line), then hands out what the run holds, streamed or in memory:

- the manifest (:attr:`RunDir.manifest`), the experiment it records (:attr:`RunDir.experiment`),
  the Claude models in the order of ``judgements.jsonl`` (:meth:`RunDir.models`);
- streamed: the lines of ``rounds.jsonl``, ``judgements.jsonl``, ``onebest.jsonl`` and a game's
  ``observations.jsonl`` (:meth:`RunDir.lines`), and every judgement with the line of its round
  (:meth:`RunDir.judged`, read at the offsets the verification indexed);
- in memory: the records (:attr:`RunDir.rounds`, :attr:`RunDir.judgements`,
  :attr:`RunDir.one_bests`, :attr:`RunDir.observations`), read once and kept;
- the cell files (:meth:`RunDir.cells`) and whether ``scores.json`` marks it finished
  (:attr:`RunDir.finished`; the scores themselves are typed results of the statistics, read by
  :func:`arena.stats.results.read_scores`, a stage above this one).

The statistics (:mod:`arena.stats.run`, :mod:`arena.stats.streamed`) and the library's
:class:`arena.api.Run` read runs through it.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from arena.codec import load, loads
from arena.errors import UsageError
from arena.record import scan, transcripts
from arena.record.manifest import Manifest
from arena.record.rounds import JudgementRecord, OneBest, Round
from arena.record.store import CELLS
from arena.record.verify import Verified, verify_run

if TYPE_CHECKING:
    from arena.specs.config import Experiment


class RunDir:
    """One run directory, verified once, then read streamed or in memory."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._verified: Verified | None = None

    def __repr__(self) -> str:
        return f"RunDir({str(self.path)!r})"

    @classmethod
    def open(cls, path: str | Path, finished: bool = False) -> RunDir:
        """A verified run directory; ``finished``: one with ``scores.json``, else a usage error."""
        run = cls(path)
        if finished and not run.finished:
            raise UsageError(f"{run.path}: not a finished run (no {transcripts.SCORES}); finish or resume it first")
        run.verify()
        return run

    def verify(self, each_round: Callable[[dict[str, Any]], None] | None = None) -> Verified:
        """Verify the run (once); ``each_round`` is handed every record of ``rounds.jsonl``, in the
        verification's own pass when this is the first call, else in a pass of its own."""
        if self._verified is None:
            self._verified = verify_run(self.path, each_round)
        elif each_round is not None:
            for record in self.lines(transcripts.ROUNDS):
                each_round(record)
        return self._verified

    # -- what the manifest says -----------------------------------------------------------

    @property
    def manifest(self) -> Manifest:
        """``manifest.json`` (:class:`arena.record.manifest.Manifest`)."""
        return self.verify().manifest

    @property
    def experiment(self) -> Experiment:
        return self.verify().experiment

    @property
    def index(self) -> scan.RoundsIndex:
        """The judged rounds of ``rounds.jsonl`` as columns (:func:`arena.record.scan.scan_rounds`)."""
        return self.verify().index

    def models(self) -> list[tuple[str, tuple[int, ...]]]:
        """Each Claude model's label and seeds, in the order of ``judgements.jsonl``."""
        from arena.record.order import models

        return [(model.spec.label, model.seeds) for model in models(self.experiment)]

    @property
    def finished(self) -> bool:
        return transcripts.is_finished(self.path)

    def cells(self) -> list[Path]:
        """The finished cells' files under ``cells/``, by name."""
        folder = self.path / CELLS
        return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []

    # -- streamed -------------------------------------------------------------------------

    def lines(self, name: str) -> Iterator[dict[str, Any]]:
        """The records of one of the run's JSON-lines files, one at a time (verified first)."""
        self.verify()
        for _, record, _ in scan.iter_lines(self.path / name):
            yield record

    def judged(self) -> Iterator[tuple[Round, list[JudgementRecord]]]:
        """Every judged round in the engine's order (blocks in order, rounds in plan order), each
        decoded once (its line read as the record, no dict in between), with the judgements of the Claude models that judge it (in config order).
        ``judgements.jsonl`` holds one section per model; each section is read by a cursor of its
        own, and each round at the offset the verification indexed."""
        index = self.index
        path = self.path / transcripts.JUDGEMENTS
        if not path.exists():  # a run not yet judged
            return
        models = self.models()
        sections = [len(index.expected(seeds)) for _, seeds in models]
        judging: dict[int, list[int]] = {}
        for number, (_, seeds) in enumerate(models):
            for seed in seeds:
                judging.setdefault(seed, []).append(number)
        with contextlib.ExitStack() as stack:
            cursors = []
            for start in _section_starts(path, sections):
                cursor = stack.enter_context(open(path, "rb"))
                cursor.seek(start)
                cursors.append(cursor)
            reader = _Reader(stack.enter_context(open(self.path / transcripts.ROUNDS, "rb")))
            for position in index.expected(sorted(judging)):
                readers = judging[int(index.seeds[position])]
                yield reader.read(int(index.offsets[position])), [loads(JudgementRecord, _line(cursors[m]))
                                                                  for m in readers]

    # -- in memory ------------------------------------------------------------------------

    @cached_property
    def rounds(self) -> tuple[Round, ...]:
        return tuple(load(Round, r) for r in self.lines(transcripts.ROUNDS))

    @cached_property
    def judgements(self) -> tuple[JudgementRecord, ...]:
        return tuple(load(JudgementRecord, j) for j in self.lines(transcripts.JUDGEMENTS))

    @cached_property
    def one_bests(self) -> tuple[OneBest, ...]:
        return tuple(load(OneBest, o) for o in self.lines(transcripts.ONEBEST))

    @cached_property
    def observations(self) -> tuple[dict[str, Any], ...]:
        """A game's ``observations.jsonl`` (what each observer was shown), as JSON values."""
        return tuple(self.lines(transcripts.OBSERVATIONS))


def _line(file: BinaryIO) -> bytes:
    """The next non-blank line of a verified JSON-lines file."""
    line = file.readline()
    while line and not line.strip():
        line = file.readline()
    return line


def _section_starts(path: Path, sections: list[int]) -> list[int]:
    """Byte offsets of the first line of each section (``sections``: their lengths in non-blank
    lines, in file order), found in one pass that decodes nothing."""
    wanted = list(itertools.accumulate([0, *sections[:-1]]))  # the number of each section's first line
    starts: list[int] = []
    offset = count = 0
    with open(path, "rb") as file:
        for line in file:
            if line.strip():
                while len(starts) < len(wanted) and wanted[len(starts)] == count:
                    starts.append(offset)
                if len(starts) == len(wanted):
                    break
                count += 1
            offset += len(line)
    return starts + [offset] * (len(wanted) - len(starts))  # empty sections at the end


class _Reader:
    """Lines of ``rounds.jsonl`` at recorded offsets, read on without seeking when they follow."""

    def __init__(self, file: BinaryIO) -> None:
        self.file, self.at = file, 0

    def read(self, offset: int) -> Round:
        if offset != self.at:
            self.file.seek(offset)
        line = self.file.readline()
        self.at = offset + len(line)
        return loads(Round, line)
