"""The adversarial game (Smith 2012, §7): rounds played in order, in blocks, with
performers that observe the outcomes and adapt.

A run with a ``schedule:`` (:mod:`arena.specs.schedule`) is played by the one engine
(:mod:`arena.engine`) per seed and John as a sequence of blocks, one engine wave each.
The game is the engine's :class:`~arena.engine.driver.Driver` (:func:`driver_for`
gives it, or ``None`` for a static run); the engine never imports this package:

1. take the next ``block_size`` instances from the John (a John's ``instances()`` is
   consumed block by block, so a John that observes can change what it yields next);
2. every Zellig corrupts them (the engine's chunked jobs: pure, on any backend); the
   rounds are planned with each round's own RNG, a :class:`~arena.roles.Chooser`
   Zellig picking the candidate it offers;
3. every Claude judges the block as one wave of the run's one engine
   :class:`~arena.engine.session.Session` (deduplicated, batched scoring; one cell file
   per Claude under ``cells/``);
4. every :class:`~arena.roles.Observer` is handed what the schedule lets it see of the
   block (:func:`arena.game.visibility.shown`): Johns and Zelligs on the driver, Claudes where they live (an
   :class:`~arena.engine.jobs.ObserveJob`, in process or on their Ray actor);
5. the block's rounds and what each observer was shown are written as cells, and a
   last cell naming the block's instances commits it.

Each round carries its phase, block and whether it counts toward S.  Stateful
performers start fresh for every seed.  At the end ``rounds.jsonl`` and the plan's
hash are written as for any run, ``observations.jsonl`` is assembled from the cells,
and the engine assembles the judgements and decodes the 1-bests.  A resumed run
replays the committed blocks (the same instances, the recorded observations, so
every observer's state is rebuilt) and plays the rest; every random choice derives
from the seed, so every backend gives byte-identical transcripts.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator, Sequence
from typing import Any

from arena.codec import dump, load
from arena.engine import jobs
from arena.engine.backends import Backend
from arena.engine.plan import cell_rounds, corrupt
from arena.engine.resources import actor_count
from arena.engine.session import Session
from arena.errors import ConfigError, DataError
from arena.game.visibility import shown
from arena.record import transcripts
from arena.record.manifest import Manifest
from arena.record.order import Block
from arena.record.rounds import STATUS_OK, JudgementRecord, Round
from arena.record.store import RunStore
from arena.records import Instance, RoundOutcome
from arena.roles import Chooser, Observer, take
from arena.specs.config import Experiment
from arena.specs.registry import Catalog, build, validate
from arena.specs.schedule import Schedule, preset
from arena.specs.spec import PerformerSpec

logger = logging.getLogger(__name__)

IMPLICIT = Schedule(phases=preset("zero-observation"), preset="zero-observation")


def schedule_of(experiment: Experiment, catalog: Catalog) -> Schedule | None:
    """The schedule a run plays: the config's, else ``zero-observation`` when a
    performer chooses or observes (it needs the game to act), else ``None`` (the
    static evaluation of a schedule-less config, unchanged).  Each spec is checked as
    :func:`arena.engine.validate` checks it (name, role, params), so a bad one is reported
    here as ``arena validate`` reports it (file, line, key)."""
    if experiment.schedule is not None:
        return experiment.schedule
    for role, specs in (("john", experiment.johns), ("zellig", experiment.zelligs), ("claude", experiment.claudes)):
        for index, spec in enumerate(specs):
            where = f"{experiment.where(role + 's', str(index))}: {role}s[{index}]"
            cls = validate(role, spec, catalog, where)
            if issubclass(cls, Observer) or (role == "zellig" and issubclass(cls, Chooser)):
                return IMPLICIT
    return None


def driver_for(experiment: Experiment, catalog: Catalog, progress: bool = True) -> Game | None:
    """The engine's driver for a run: the :class:`Game` of its schedule
    (:func:`schedule_of`), or ``None`` for a static run; a schedule whose observation
    rounds take every instance of a John (:func:`arena.game.fits.check_johns`) and a fitted cue
    Claude that no round would teach (:func:`arena.game.fits.check_learners`) are refused."""
    from arena.game.fits import check_johns, check_learners
    from arena.game.judges import check_learn_from

    schedule = schedule_of(experiment, catalog)
    if schedule is None:
        return None
    check_learners(experiment, schedule, catalog)  # as arena validate does: before any run directory exists
    check_johns(experiment, schedule, catalog)
    check_learn_from(experiment, catalog)
    return Game(experiment, schedule, catalog, progress)


def collusion(experiment: Experiment) -> list[dict[str, str]]:
    """Zelligs that consult a Claude under test (Smith 2012, §8): a performer spec
    anywhere in a Zellig's params (e.g. ``model-guided``'s ``model``) with the name and
    params of one of the experiment's Claudes.  Recorded in the manifest."""
    from arena.specs.spec import spec_from_mapping

    claudes = {(c.name, json.dumps(dict(c.params), sort_keys=True, default=str)): c.label for c in experiment.claudes}
    found = []

    def walk(value: Any, where: str, zellig: str) -> None:
        if isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{where}.{index}", zellig)
            return
        if isinstance(value, str) or (isinstance(value, dict) and "name" in value):
            try:
                spec = spec_from_mapping(value, where=where)
            except (TypeError, ValueError):
                return
            key = (spec.name, json.dumps(dict(spec.params), sort_keys=True, default=str))
            if key in claudes:
                found.append({"zellig": zellig, "claude": claudes[key], "param": where})
            walk(dict(spec.params), where, zellig)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{where}.{key}" if where else str(key), zellig)

    for zellig in experiment.zelligs:
        walk(dict(zellig.params), "", zellig.label)
    return found


@dataclasses.dataclass
class _Stream:
    """The game state of one (seed, John): its instance iterator and rounds per cell."""

    seed: int
    index: int  # the John's position in the config
    john: PerformerSpec
    instances: Iterator[Instance]
    taken: int = 0
    played: dict[str, int] = dataclasses.field(default_factory=dict)  # Zellig -> rounds played
    block: int = 0

    @property
    def name(self) -> str:
        """The block's name, as :func:`arena.record.order.blocks` gives it."""
        return f"s{self.seed}-j{self.index}-b{self.block}"


class Game:
    """Plays (or resumes) every seed's game of an experiment through the engine's
    session: the engine's :class:`~arena.engine.driver.Driver` for a run with a schedule."""

    def __init__(self, experiment: Experiment, schedule: Schedule, catalog: Catalog, progress: bool = True):
        self.experiment = experiment
        self.schedule = schedule
        self.catalog = catalog
        self.progress = progress
        self.zelligs: dict[str, Any] = {}
        self.johns: dict[str, Any] = {}
        self.observing_claudes: list[PerformerSpec] = []
        self.session: Session | None = None

    @property
    def _session(self) -> Session:
        if self.session is None:
            raise RuntimeError("Game: play() hands over the engine's session first")
        return self.session

    @property
    def store(self) -> RunStore:
        return self._session.store

    @property
    def backend(self) -> Backend:
        return self._session.backend

    def manifest(self) -> dict[str, Any]:
        """The schedule and any collusion (logged as a warning), for ``manifest.json``."""
        from arena.game.judges import judge_labels

        colluding = collusion(self.experiment)
        for entry in colluding:
            logger.warning("collusion: Zellig %s consults Claude %s under test (params.%s)",
                           entry["zellig"], entry["claude"], entry["param"])
        judges = judge_labels(self.experiment, self.catalog)
        return {"game": dump(self.schedule), **({"collusion": colluding} if colluding else {}),
                **({"judges": judges} if judges else {})}

    # -- the backend -----------------------------------------------------------------------

    def _call(self, job: jobs.Job) -> Any:
        handle = self.backend.submit(job)
        while True:
            for done, result in self.backend.wait([handle]):
                if done == handle:
                    return result

    def _find_observers(self) -> None:
        where = self.experiment.source or "config"
        self.observing_claudes = []
        for index, spec in enumerate(self.experiment.claudes):
            if spec.replicas:
                raise ConfigError(f"{where}: claudes[{index}]: model replicas are not played in a game (schedule)")
            kind = self._call(jobs.DescribeJob(spec))
            if not kind.observes:
                self.backend.release(spec)  # built again for each block, as the engine holds Claudes
            elif actor_count(spec) != 1:
                raise ConfigError(f"{where}: claudes[{index}]: {spec.label} observes (it learns during the game): "
                                 "give it one actor, not resources.actors > 1")
            else:
                self.observing_claudes.append(spec)

    def _observe(self, role: str, spec: PerformerSpec, outcomes: Sequence[RoundOutcome]) -> None:
        if role == "claude":
            self._call(jobs.ObserveJob(spec, tuple(outcomes)))
        elif role == "zellig":
            self.zelligs[spec.label].observe(list(outcomes))
        else:
            self.johns[spec.label].observe(list(outcomes))

    def _fresh_performers(self, seed: int) -> None:
        """Stateful performers start fresh for every seed (observing Claudes are
        released, so that the backend builds them anew)."""
        self.zelligs = {
            spec.label: build("zellig", spec, self.catalog, where=f"zellig {spec.label}")
            for spec in self.experiment.zelligs
        }
        self.johns = {}
        if seed != self.experiment.seeds[0]:
            for spec in self.observing_claudes:
                self.backend.release(spec)

    def _spec(self, role: str, label: str) -> PerformerSpec:
        for spec in getattr(self.experiment, role + "s"):
            if spec.label == label:
                return spec
        raise DataError(f"{self.store.run_dir}: {transcripts.OBSERVATIONS} names unknown {role} {label!r}")

    # -- play ------------------------------------------------------------------------------

    def play(self, session: Session, manifest: Manifest) -> list[Round]:
        """Play every block through ``session`` (replaying committed ones); write
        ``rounds.jsonl`` with the plan's hash and ``observations.jsonl``; return every
        round in transcript order."""
        from arena.engine.progress import progress_bar

        self.session = session
        self.store.write_manifest(manifest)
        self.store.cells.mkdir(exist_ok=True)
        self._find_observers()
        session.hold = [spec.label for spec in self.observing_claudes]
        rounds: list[Round] = []
        observations: list[str] = []
        with progress_bar(total=None, desc="game rounds", enabled=self.progress, unit="round") as bar:
            for seed in self.experiment.seeds:
                self._fresh_performers(seed)
                for index, john_spec in enumerate(self.experiment.johns):
                    john = build("john", john_spec, self.catalog, where=f"john {john_spec.label}")
                    self.johns[john_spec.label] = john
                    stream = _Stream(seed, index, john_spec, iter(john.instances()))
                    stream.played = {z.label: 0 for z in self.experiment.zelligs}
                    while not self._finished(stream):
                        committed = self.store.cell_path(f"{stream.name}-block").exists()
                        block = self._replay(stream) if committed else self._play_block(stream)
                        if block is None:
                            break
                        rounds.extend(block)
                        observations.append(self.store.cell_path(f"{stream.name}-observations").read_text("utf-8"))
                        bar.update(sum(1 for r in block if r.judged))
                        stream.block += 1
                    for zellig, played in stream.played.items():
                        cell = f"seed {seed}, john {john_spec.label}, zellig {zellig}"
                        self.schedule.check_counted(played, cell, self.experiment.source or None,
                                                    self.experiment.key_lines.get(("schedule",)))
        self.store.write_plan([dump(r) for r in rounds], manifest)
        self.store.write_file(transcripts.OBSERVATIONS, "".join(observations))
        session.hold = ()
        return rounds

    def _finished(self, stream: _Stream) -> bool:
        total = self.experiment.max_instances
        if total is not None and stream.taken >= total:
            return True
        goal = self.schedule.total
        return goal is not None and all(count >= goal for count in stream.played.values())

    def _take(self, stream: _Stream, count: int | None = None) -> list[Instance]:
        size = self.schedule.block_size if count is None else count
        if self.experiment.max_instances is not None:
            size = min(size, self.experiment.max_instances - stream.taken)
        instances = list(take(stream.instances, size))
        stream.taken += len(instances)
        return instances

    def _replay(self, stream: _Stream) -> list[Round]:
        """Rebuild the state a committed block left: consume the same instances, count
        its rounds, replay what each observer was shown."""
        header = next(transcripts.read_jsonl(self.store.cell_path(f"{stream.name}-block")))
        instances = self._take(stream, len(header["instances"]))
        if [i.id for i in instances] != header["instances"]:
            raise DataError(
                f"{self.store.run_dir}: John {stream.john.label} yields other instances on resume than in block "
                f"{stream.name}; the run cannot be resumed: delete it and run again"
            )
        for zellig, count in header["played"].items():
            stream.played[zellig] += count
        for line in transcripts.read_jsonl(self.store.cell_path(f"{stream.name}-observations")):
            spec = self._spec(line["role"], line["performer"])
            self._observe(line["role"], spec, [load(RoundOutcome, o) for o in line["outcomes"]])
        return [load(Round, r) for r in transcripts.read_jsonl(self.store.cell_path(f"{stream.name}-rounds"))]

    def _plan(self, stream: _Stream, instances: Sequence[Instance]) -> tuple[list[Round], dict[str, int]]:
        """The block's rounds: every Zellig's corruptions, variants chosen (by a Chooser)
        or drawn with the round's RNG, each round's phase; rounds past the end of its
        cell's schedule are not played."""
        john = stream.john.label
        only_this_john = dataclasses.replace(self.experiment, johns=(stream.john,))
        corruptions = corrupt(only_this_john, {john: instances}, self.backend, progress=False)
        rounds: list[Round] = []
        played: dict[str, int] = {}
        for zellig_spec in self.experiment.zelligs:
            zellig = self.zelligs[zellig_spec.label]
            choose = zellig.choose if isinstance(zellig, Chooser) else None
            # each block balanced by itself (arena/engine/balance.py)
            planned = cell_rounds(self.experiment, stream.john, zellig_spec.label, stream.seed,
                                  corruptions[john, zellig_spec.label], choose)
            count = stream.played[zellig_spec.label]
            for round_ in planned:
                phase = self.schedule.phase_of(count)
                if phase is None:  # this cell has played its schedule
                    continue
                if round_.judged:
                    count += 1
                counts = self.schedule.phases[phase].counts
                rounds.append(dataclasses.replace(round_, phase=phase, block=stream.block, counts=counts))
            played[zellig_spec.label] = count - stream.played[zellig_spec.label]
            stream.played[zellig_spec.label] = count
        return rounds, played

    def _play_block(self, stream: _Stream) -> list[Round] | None:
        instances = self._take(stream)
        if not instances:
            return None
        rounds, played = self._plan(stream, instances)
        self.store.write_cell(f"{stream.name}-rounds", (dump(r) for r in rounds))
        block = Block(stream.name, stream.seed, tuple(rounds))
        self._session.play([block], one_best=False, quiet=True)
        by_round: dict[str, dict[str, JudgementRecord]] = {}
        for claude, records in self._session.judgements(block).items():
            for record in records:
                by_round.setdefault(record.round, {})[claude] = record
        lines = self._observations(stream, rounds, by_round)
        self.store.write_cell(f"{stream.name}-observations", lines)
        for line in lines:
            spec = self._spec(line["role"], line["performer"])
            self._observe(line["role"], spec, [load(RoundOutcome, o) for o in line["outcomes"]])
        self.store.write_cell(f"{stream.name}-block", [{"instances": [i.id for i in instances], "played": played}])
        return rounds

    def _observations(
        self, stream: _Stream, rounds: Sequence[Round], by_round: dict[str, dict[str, JudgementRecord]]
    ) -> list[dict[str, Any]]:
        """What each observer is shown of a block, as the lines of ``observations.jsonl``
        (round-tripped through JSON, so a replay hands over exactly the same records)."""
        played = [r for r in rounds if r.judged]
        viewers: list[tuple[str, PerformerSpec, list[Round]]] = []
        if isinstance(self.johns[stream.john.label], Observer):
            viewers.append(("john", stream.john, played))
        for spec in self.experiment.zelligs:
            if isinstance(self.zelligs[spec.label], Observer):
                viewers.append(("zellig", spec, [r for r in played if r.zellig == spec.label]))
        for spec in self.observing_claudes:
            viewers.append(("claude", spec, [r for r in played if r.status == STATUS_OK]))
        lines = []
        for role, spec, seen in viewers:
            outcomes = [
                dump(shown(role, spec.label, r, self.schedule.phases[r.phase or 0], by_round.get(r.id, {}),
                           spec if role == "claude" else None))
                for r in seen
            ]
            line = {"seed": stream.seed, "john": stream.john.label, "block": stream.block, "role": role,
                    "performer": spec.label, "outcomes": outcomes}
            lines.append(json.loads(transcripts.dumps_line(line)))
        return lines
