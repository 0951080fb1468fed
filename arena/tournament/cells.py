"""Cells of a tournament and their files.

A cell is one (John, Zellig, Claude, seed): the judgements of one Claude on the rounds
one Zellig made of one John's instances under one seed.  Each finished cell is one
file under ``<run>/cells/`` holding exactly the lines it contributes to
``judgements.jsonl``, written atomically (temporary file + rename), so a cell file
either is complete or does not exist; ``--resume`` keeps the finished ones and plays
the rest.  A scoring Claude's 1-best translations (per model replica) are one more
file each.  When every cell is finished, the canonical run files are assembled in
the order the in-process runner writes them: one block per Claude in config order,
inside it seeds → Johns → Zelligs → instances.

Cell files are named by position in the config (``s<seed>-j<john>-z<zellig>-c<claude>.jsonl``);
``cells/index.json`` maps the names to labels.  The config hash in the run directory's
name pins the positions.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena import transcripts
from arena.config import Experiment
from arena.match import Round

CELLS = "cells"
INDEX = "index.json"


@dataclass(frozen=True)
class Cell:
    """One (John, Zellig, Claude, seed) with the positions of its performers."""

    seed: int
    john: str
    zellig: str
    claude: str
    john_index: int
    zellig_index: int
    claude_index: int

    @property
    def name(self) -> str:
        return f"s{self.seed}-j{self.john_index}-z{self.zellig_index}-c{self.claude_index}"

    @property
    def rounds_key(self) -> tuple[int, str, str]:
        return self.seed, self.john, self.zellig

    def to_json(self) -> dict[str, Any]:
        return {"file": f"{self.name}.jsonl", "john": self.john, "zellig": self.zellig, "claude": self.claude, "seed": self.seed}


def all_cells(experiment: Experiment) -> list[Cell]:
    """Every cell, in transcript order: Claudes → seeds → Johns → Zelligs."""
    return [
        Cell(seed, john.label, zellig.label, claude.label, j, z, c)
        for c, claude in enumerate(experiment.claudes)
        for seed in experiment.seeds
        for j, john in enumerate(experiment.johns)
        for z, zellig in enumerate(experiment.zelligs)
    ]


def rounds_by_cell(rounds: Iterable[Round]) -> dict[tuple[int, str, str], list[Round]]:
    """Judged rounds per (seed, John, Zellig), in round order."""
    groups: dict[tuple[int, str, str], list[Round]] = defaultdict(list)
    for r in rounds:
        if r.judged:
            groups[r.seed, r.john, r.zellig].append(r)
    return groups


class CellStore:
    """The ``cells/`` directory of a run."""

    def __init__(self, run_dir: Path):
        self.run_dir = Path(run_dir)
        self.directory = self.run_dir / CELLS

    def path(self, cell: Cell) -> Path:
        return self.directory / f"{cell.name}.jsonl"

    def one_best_path(self, claude_index: int, seed: int | None = None) -> Path:
        suffix = f"-s{seed}" if seed is not None else ""
        return self.directory / f"onebest-c{claude_index}{suffix}.jsonl"

    def write_index(self, cells: Sequence[Cell]) -> None:
        index = self.directory / INDEX
        data = {"cells": [cell.to_json() for cell in cells]}
        if not index.exists() or json.loads(index.read_text(encoding="utf-8")) != data:
            transcripts.atomic_write_json(index, data)

    def is_finished(self, cell: Cell, rounds: Sequence[Round]) -> bool:
        """A cell file exists and holds one judgement per judged round, in order."""
        path = self.path(cell)
        if not path.exists():
            return False
        try:
            records = list(transcripts.read_jsonl(path))
        except ValueError:
            return False
        return [r.get("round") for r in records] == [r.id for r in rounds] and all(
            r.get("claude") == cell.claude for r in records
        )

    def write(self, cell: Cell, records: Iterable[dict[str, Any]]) -> None:
        transcripts.atomic_write_jsonl(self.path(cell), records)

    def one_best_finished(self, claude_index: int, seed: int | None = None) -> bool:
        return self.one_best_path(claude_index, seed).exists()

    def write_one_best(self, claude_index: int, seed: int | None, records: Iterable[dict[str, Any]]) -> None:
        transcripts.atomic_write_jsonl(self.one_best_path(claude_index, seed), records)

    def finished(self, cells: Sequence[Cell], rounds: dict[tuple[int, str, str], list[Round]]) -> set[Cell]:
        return {cell for cell in cells if self.is_finished(cell, rounds.get(cell.rounds_key, []))}

    def assemble(self, cells: Sequence[Cell], one_best_units: Sequence[tuple[int, int | None]]) -> None:
        """Write ``judgements.jsonl`` and ``onebest.jsonl`` from the cell files, atomically
        (as the runner does, a file with no lines is not written)."""
        judgements = "".join(self.path(cell).read_text(encoding="utf-8") for cell in cells)
        one_bests = "".join(
            self.one_best_path(c, s).read_text(encoding="utf-8")
            for c, s in one_best_units
            if self.one_best_path(c, s).exists()
        )
        for name, text in ((transcripts.JUDGEMENTS, judgements), (transcripts.ONEBEST, one_bests)):
            if text:
                transcripts.atomic_write_text(self.run_dir / name, text)
            else:
                (self.run_dir / name).unlink(missing_ok=True)
