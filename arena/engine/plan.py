"""Planning a run: its instances, their corruptions, the rounds, and the blocks they fall into.

1. Every John's instances on the driver (:func:`load_instances`), capped by
   ``max_instances``.
2. Every Zellig on every John's instances as chunked jobs on the backend
   (:func:`corrupt`): pure work, the same on every backend.
3. Rounds sampled per seed with each round's own RNG (:func:`plan`;
   :func:`arena.engine.match.plan_rounds`): what ``rounds.jsonl`` holds; a John's
   ``balance:`` marks the pairs it leaves out (:mod:`arena.engine.balance`).
4. The rounds fall into :class:`Block` s played in order (:func:`blocks`): a
   schedule-less run's one per (seed, John, Zellig); a game's one per (seed, John,
   block number).  A *cell* is one Claude :class:`Model` on one block.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from arena.engine import balance, jobs, match
from arena.engine.backends import Backend
from arena.errors import DataError
from arena.record.rounds import Round
from arena.records import Instance, Variant
from arena.roles import John, take
from arena.specs.config import Experiment
from arena.specs.registry import Catalog, build
from arena.specs.spec import PerformerSpec

logger = logging.getLogger(__name__)

def load_instances(experiment: Experiment, catalog: Catalog) -> dict[str, list[Instance]]:
    """Every John's instances (on the driver), capped by ``max_instances``; ids must be unique."""
    result: dict[str, list[Instance]] = {}
    for spec in experiment.johns:
        john: John = build("john", spec, catalog, where=f"john {spec.label}")
        instances = list(take(john.instances(), experiment.max_instances))
        duplicates = [key for key, count in Counter(i.id for i in instances).items() if count > 1]
        if duplicates:
            raise DataError(f"John {spec.label} yielded duplicate instance id(s): {', '.join(duplicates[:5])}")
        logger.info("John %s: %d instances", spec.label, len(instances))
        result[spec.label] = instances
    return result


def corrupt(
    experiment: Experiment, instances: Mapping[str, Sequence[Instance]], backend: Backend, progress: bool = True
) -> dict[tuple[str, str], list[match.Corruption]]:
    """Every Zellig on every John's instances, as chunked jobs (one per Zellig group and
    chunk); the corruptions per (John, Zellig), in instance order."""
    from arena.engine.progress import progress_bar

    groups = jobs.zellig_groups(experiment.zelligs)
    pending: dict[Any, tuple[tuple[PerformerSpec, ...], str, int, int]] = {}
    parts: dict[tuple[str, str], list[list[match.Corruption]]] = {}
    for john in experiment.johns:
        chunked = jobs.chunks(instances[john.label], experiment.ray.chunk_size)
        for zellig in experiment.zelligs:
            parts[john.label, zellig.label] = [[] for _ in chunked]
        for group in groups:
            for position, chunk in enumerate(chunked):
                job = jobs.CorruptJob(group, tuple(chunk), experiment.time_budget.zellig_seconds)
                pending[backend.submit(job)] = (group, john.label, position, len(chunk))
    total = sum(len(items) for items in instances.values()) * len(experiment.zelligs)
    with progress_bar(total=total, desc="corrupt", enabled=progress, unit="inst") as bar:
        while pending:
            for handle, result in backend.wait(list(pending)):
                group, john_label, position, count = pending.pop(handle)
                for zellig, corruptions in zip(group, result):
                    parts[john_label, zellig.label][position] = corruptions
                bar.update(count * len(group))
    return {key: [c for chunk in chunks for c in chunk] for key, chunks in parts.items()}


def cell_rounds(
    experiment: Experiment,
    john: PerformerSpec,
    zellig: str,
    seed: int,
    corruptions: Iterable[match.Corruption],
    choose: Callable[[Instance, Sequence[Variant], random.Random], int] | None = None,
) -> Iterator[match.Round]:
    """One (seed, John, Zellig)'s rounds from its corruptions, in instance order: each
    corruption's rounds drawn with their own RNG (:func:`arena.engine.match.plan_rounds`;
    a :class:`~arena.roles.Chooser` Zellig's ``choose`` picks the variants), then the John's
    ``balance:``, which marks what it leaves out over all of them (held in memory then).
    The static plan (:func:`planned_rounds`) and the game's blocks (:mod:`arena.game.play`)
    both plan through it."""
    rounds = (
        r
        for corruption in corruptions
        for r in match.plan_rounds((corruption,), seed, john.label, zellig, experiment.variants_per_instance, choose)
    )
    if john.balance:
        yield from balance.balance_rounds(list(rounds), john.balance)
    else:
        yield from rounds


def planned_rounds(
    experiment: Experiment, corruptions: Callable[[str, str], Iterable[match.Corruption]]
) -> Iterator[match.Round]:
    """The static plan, one round at a time in transcript order (seeds → Johns → Zelligs →
    instances), from each (John, Zellig)'s corruptions: held in memory (:func:`plan`) or read
    back from a spool (:func:`arena.engine.plan_stream.write_plan`)."""
    for seed in experiment.seeds:
        for john in experiment.johns:
            for zellig in experiment.zelligs:
                yield from cell_rounds(experiment, john, zellig.label, seed, corruptions(john.label, zellig.label))


def plan(experiment: Experiment, corruptions: Mapping[tuple[str, str], Sequence[match.Corruption]]) -> list[match.Round]:
    """The static plan's rounds held in memory (what ``rounds.jsonl`` holds)."""
    return list(planned_rounds(experiment, lambda john, zellig: corruptions[john, zellig]))


def plan_experiment(experiment: Experiment, catalog: Catalog, backend: Backend, progress: bool = True) -> list[Round]:
    """Instances, corruptions and rounds of an experiment (what ``rounds.jsonl`` holds)."""
    return plan(experiment, corrupt(experiment, load_instances(experiment, catalog), backend, progress))
