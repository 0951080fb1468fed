"""The order of a run's records: the blocks its rounds fall into and the Claude models
that judge them.  ``judgements.jsonl`` holds one judgement per judged round and Claude
model, models in config order (replicas in seed order), then blocks in order, then rounds
in plan order; the engine plays and writes in this order (:mod:`arena.engine.session`)
and the verifier checks it (:mod:`arena.record.verify`).

A schedule-less run's blocks are one per (seed, John, Zellig); a game's (rounds that
carry their block) one per (seed, John, block number).  A *cell* is one Claude
:class:`Model` on one block.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from arena.record.rounds import Round
from arena.specs.config import Experiment
from arena.specs.spec import PerformerSpec


@dataclass(frozen=True)
class Block:
    """Rounds played together: judged by every Claude, then observed.  ``name``
    (``s<seed>-j<John index>-z<Zellig index>`` for a schedule-less run) names its cell
    files; ``rounds`` are all its rounds in transcript order."""

    name: str
    seed: int
    rounds: Sequence[Round]  # a tuple, or rounds read back from rounds.jsonl (arena.engine.plan_stream)

    @property
    def judged(self) -> Iterator[Round]:
        """The rounds a Claude judges (all but the Zellig's not-applicable ones), in order."""
        return (r for r in self.rounds if r.judged)


@dataclass(frozen=True)
class Model:
    """One Claude model: a Claude, or one replica of it, and the seeds it plays."""

    claude_index: int
    spec: PerformerSpec  # with the replica's params
    seeds: tuple[int, ...]
    replica: int | None = None  # the seed of a replica; None for a Claude without replicas

    @property
    def name(self) -> str:
        return self.spec.label if self.replica is None else f"{self.spec.label}#seed{self.replica}"

    @property
    def one_best_cell(self) -> str:
        return f"onebest-c{self.claude_index}" + (f"-s{self.replica}" if self.replica is not None else "")

    def cell(self, block: Block) -> str:
        return f"{block.name}-c{self.claude_index}"


def models(experiment: Experiment) -> list[Model]:
    """The Claude models of an experiment, in config order (replicas in seed order)."""
    result: list[Model] = []
    for index, claude in enumerate(experiment.claudes):
        if claude.replicas:
            result.extend(Model(index, claude.for_seed(seed), (seed,), seed) for seed in experiment.seeds)
        else:
            result.append(Model(index, claude, experiment.seeds))
    return result


def blocks(experiment: Experiment, rounds: Sequence[Round]) -> list[Block]:
    """A run's blocks, in transcript order: a schedule-less run's one per (seed, John,
    Zellig); a game's (rounds that carry their block) one per
    (seed, John, block)."""
    if rounds and rounds[0].block is not None:
        johns = {john.label: j for j, john in enumerate(experiment.johns)}
        played: dict[tuple[int, str, int], list[Round]] = defaultdict(list)
        for r in rounds:
            played[r.seed, r.john, r.block or 0].append(r)
        return [
            Block(f"s{seed}-j{johns[john]}-b{number}", seed, tuple(items))
            for (seed, john, number), items in played.items()
        ]
    groups: dict[tuple[int, str, str], list[Round]] = defaultdict(list)
    for r in rounds:
        groups[r.seed, r.john, r.zellig].append(r)
    return [
        Block(f"s{seed}-j{j}-z{z}", seed, tuple(groups.get((seed, john.label, zellig.label), ())))
        for seed in experiment.seeds
        for j, john in enumerate(experiment.johns)
        for z, zellig in enumerate(experiment.zelligs)
    ]
