"""A static run planned and played in bounded memory: ``rounds.jsonl`` written as the
corruptions come in, and blocks that read their rounds back from it.

:func:`arena.engine.plan.plan_experiment` holds every instance, corruption and round of a
run at once (several kilobytes a round), which is what a game, ``arena play`` and the cost
planner need.  A static run of ``arena run`` / ``arena tournament`` instead goes through
:func:`write_plan`, whose memory does not grow with the run:

1. each John's instances are read a chunk at a time (``ray.chunk_size``) and sent to the
   backend as the same :class:`~arena.engine.jobs.CorruptJob` s, at most :data:`WINDOW`
   of them outstanding; their corruptions are appended, in instance order, to one spool
   file per (John, Zellig) in a temporary folder of the run directory;
2. duplicate instance ids are found from 64-bit digests (the exact ids, for the error,
   are read back from the spool);
3. ``rounds.jsonl`` is written in transcript order (seeds → Johns → Zelligs → instances):
   each spool is read once per seed and planned by the one static plan,
   :func:`arena.engine.plan.planned_rounds`, one corruption at a time — the same rounds, so
   the same bytes, as the in-memory plan.

:func:`stored_blocks` cuts ``rounds.jsonl`` into the run's :class:`~arena.record.order.Block` s
without reading a round into memory: a static run's blocks are contiguous runs of lines,
and each block's rounds (:class:`StoredRounds`) are parsed only while they are iterated.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from arena.codec import dump, dumps, loads
from arena.engine import jobs, match
from arena.engine.backends import Backend
from arena.engine.plan import planned_rounds
from arena.errors import DataError
from arena.record import scan
from arena.record.manifest import Manifest
from arena.record.order import Block
from arena.record.rounds import Round
from arena.record.store import RunStore
from arena.records import Instance
from arena.roles import John, take
from arena.specs.config import Experiment
from arena.specs.registry import Catalog, build

logger = logging.getLogger(__name__)

WINDOW = 16  # corruption jobs outstanding at once
BlockKey = tuple[int, str, str]  # a static run's block: (seed, John, Zellig)


class StoredRounds:
    """The rounds of one block: ``count`` lines of ``rounds.jsonl`` from byte ``offset``,
    parsed one at a time while they are iterated."""

    def __init__(self, path: Path, offset: int, count: int) -> None:
        self.path, self.offset, self.count = Path(path), offset, count

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Round]:
        if not self.count:
            return
        with open(self.path, "rb") as file:
            file.seek(self.offset)
            for _ in range(self.count):
                yield loads(Round, file.readline())


def stored_blocks(experiment: Experiment, path: Path, counts: Mapping[BlockKey, int] | None = None) -> list[Block]:
    """A static run's blocks, one per (seed, John, Zellig) in config order (empty ones
    included), each reading its rounds from ``rounds.jsonl`` at ``path``; the same blocks
    as :func:`arena.record.order.blocks` of the rounds held in memory.  ``counts``: each
    block's rounds as :func:`write_plan` returns them (then the file's lines are only
    counted, not decoded)."""
    order = [(f"s{seed}-j{j}-z{z}", seed, (seed, john.label, zellig.label)) for seed in experiment.seeds
             for j, john in enumerate(experiment.johns) for z, zellig in enumerate(experiment.zelligs)]
    spans = _spans(path) if counts is None else _spans_of(path, [(key, counts.get(key, 0)) for *_, key in order])
    return [Block(name, seed, StoredRounds(path, *spans.get(key, (0, 0))))  # type: ignore[arg-type]
            for name, seed, key in order]


def _spans(path: Path) -> dict[tuple[Any, Any, Any], list[int]]:
    """Each block's (first byte, rounds), read from the rounds' own keys."""
    spans: dict[tuple[Any, Any, Any], list[int]] = {}
    for _, record, offset in scan.iter_lines(path):
        key = (record.get("seed"), record.get("john"), record.get("zellig"))
        span = spans.get(key)
        if span is None:
            spans[key] = [offset, 1]
        else:
            span[1] += 1
    return spans


def _spans_of(path: Path, counts: list[tuple[BlockKey, int]]) -> dict[tuple[Any, Any, Any], list[int]]:
    """Each block's (first byte, rounds) from the blocks' round counts in file order, in one pass
    over the lines that decodes none."""
    spans: dict[tuple[Any, Any, Any], list[int]] = {}
    blocks = iter([(key, count) for key, count in counts if count])
    with open(path, "rb") as file:
        offset, left = 0, 0
        for line in file:
            if not left:
                key, left = next(blocks, (None, 0))
                if key is None:
                    raise RuntimeError(f"{path}: holds more rounds than were planned")  # written just now: a bug
                spans[key] = [offset, left]
            left -= 1
            offset += len(line)
    return spans


def is_static(path: Path) -> bool:
    """Whether ``rounds.jsonl`` holds a static run's rounds (a game's carry their block)."""
    for _, record, _ in scan.iter_lines(path):
        return record.get("block") is None
    return True


def write_plan(experiment: Experiment, catalog: Catalog, backend: Backend, store: RunStore,
               manifest: Manifest, progress: bool = True) -> dict[BlockKey, int]:
    """Plan a static run into ``rounds.jsonl`` and its manifest (see the module docstring);
    returns each block's number of rounds (for :func:`stored_blocks`).  The caller holds the run's lock: a spool folder left by a
    killed planner is removed first."""
    for stale in store.run_dir.glob(".plan-*"):
        shutil.rmtree(stale, ignore_errors=True)
    with tempfile.TemporaryDirectory(dir=store.run_dir, prefix=".plan-") as folder:
        spools = {(john.label, zellig.label): Path(folder) / f"j{j}-z{z}.jsonl"
                  for j, john in enumerate(experiment.johns) for z, zellig in enumerate(experiment.zelligs)}
        for spec in experiment.johns:
            count = _corrupt_john(experiment, catalog, backend, spec, spools, progress)
            logger.info("John %s: %d instances", spec.label, count)
        counts: Counter[BlockKey] = Counter()

        def dumped() -> Iterator[dict[str, Any]]:
            for r in planned_rounds(experiment, lambda john, zellig: _read_spool(spools[john, zellig])):
                counts[r.seed, r.john, r.zellig] += 1
                yield dump(r)

        store.write_plan(dumped(), manifest)
    return dict(counts)


def _instances(experiment: Experiment, catalog: Catalog, spec: Any) -> Iterator[list[Instance]]:
    """A John's instances in chunks of ``ray.chunk_size``, capped by ``max_instances``."""
    john: John = build("john", spec, catalog, where=f"john {spec.label}")
    chunk: list[Instance] = []
    for instance in take(john.instances(), experiment.max_instances):
        chunk.append(instance)
        if len(chunk) == experiment.ray.chunk_size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _corrupt_john(experiment: Experiment, catalog: Catalog, backend: Backend, spec: Any,
                  spools: dict[tuple[str, str], Path], progress: bool) -> int:
    """Every Zellig group on a John's instances, chunk by chunk, at most :data:`WINDOW` jobs
    outstanding; the corruptions appended to the spools in instance order.  Returns the
    number of instances; duplicate ids are a :class:`DataError`."""
    from arena.engine.progress import progress_bar

    groups = jobs.zellig_groups(experiment.zelligs)
    work = ((position, group, chunk) for position, chunk in enumerate(_instances(experiment, catalog, spec))
            for group in groups)
    digests: list[int] = []
    pending: dict[Any, tuple[int, Any]] = {}
    done: dict[tuple[int, int], list[list[match.Corruption]]] = {}
    files = {key: path.open("ab") for key, path in spools.items() if key[0] == spec.label}
    next_chunk = 0
    try:
        with progress_bar(total=None, desc=f"corrupt {spec.label}", enabled=progress, unit="inst") as bar:
            while True:
                while len(pending) < WINDOW and (item := next(work, None)) is not None:
                    position, group, chunk = item
                    if group is groups[0]:
                        digests.extend(scan.key_hash(i.id) for i in chunk)
                    job = jobs.CorruptJob(group, tuple(chunk), experiment.time_budget.zellig_seconds)
                    pending[backend.submit(job)] = (position, group)
                if not pending:
                    break
                for handle, result in backend.wait(list(pending)):
                    position, group = pending.pop(handle)
                    done[position, groups.index(group)] = result
                    bar.update(len(result[0]) * len(group) if result else 0)
                while all((next_chunk, g) in done for g in range(len(groups))) and groups:
                    for g, group in enumerate(groups):
                        for zellig, corruptions in zip(group, done.pop((next_chunk, g))):
                            handle = files[spec.label, zellig.label]
                            handle.writelines(dumps(c) + b"\n" for c in corruptions)
                    next_chunk += 1
    finally:
        for handle in files.values():
            handle.close()
    _check_unique(spec.label, np.array(digests, dtype=np.uint64), spools, experiment)
    return len(digests)


def _check_unique(label: str, digests: np.ndarray, spools: dict[tuple[str, str], Path], experiment: Experiment) -> None:
    """Refuse a John whose instance ids repeat, naming them (first five, in first-seen order)."""
    if len(np.unique(digests)) == len(digests) or not experiment.zelligs:
        return
    ids = Counter(c.instance.id for c in _read_spool(spools[label, experiment.zelligs[0].label]))
    duplicates = [key for key, count in ids.items() if count > 1]
    if duplicates:
        raise DataError(f"John {label} yielded duplicate instance id(s): {', '.join(duplicates[:5])}")


def _read_spool(path: Path) -> Iterator[match.Corruption]:
    if not path.exists():
        return
    with open(path, "rb") as file:
        for line in file:
            yield loads(match.Corruption, line)
