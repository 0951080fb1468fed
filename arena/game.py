"""The adversarial game (Smith 2012, §7): rounds played in order, in blocks, with
performers that observe the outcomes and adapt.

A run with a ``schedule:`` (:mod:`arena.schedule`) is played per seed and John as a
sequence of blocks.  Each block:

1. takes the next ``block_size`` instances from the John (a John's ``instances()`` is
   consumed block by block, so a John that observes can change what it yields next);
2. has every Zellig corrupt them (pure, batched, on any backend) and plans the rounds
   with the round's own RNG, letting a :class:`~arena.roles.Chooser` Zellig pick the
   candidate to offer;
3. has every Claude judge the block's rounds in one batched call;
4. hands every :class:`~arena.roles.Observer` what the schedule lets it see of the
   block's rounds (:func:`shown`) and writes what it was shown to
   ``observations.jsonl``;
5. appends the block to ``rounds.jsonl`` and ``judgements.jsonl`` and commits it with
   a line in ``blocks.jsonl``.

Each round carries its phase, block and whether it counts toward S.  Stateful
performers start fresh for every seed.  A resumed run drops the lines of an
uncommitted block and replays the recorded observations of the committed ones to
rebuild every observer's state, so it ends with the transcripts an uninterrupted run
writes.  Every random choice derives from the seed, so every backend gives
byte-identical transcripts.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from arena import match, transcripts
from arena.config import Experiment
from arena.executor import Executor
from arena.records import Instance, RoundOutcome
from arena.registry import Catalog, build, resolve
from arena.roles import Chooser, Observer
from arena.schedule import Phase, Schedule, preset
from arena.spec import PerformerSpec

logger = logging.getLogger(__name__)

OBSERVATIONS = "observations.jsonl"
BLOCKS = "blocks.jsonl"
IMPLICIT = Schedule(preset("zero-observation"), preset="zero-observation")


def schedule_of(experiment: Experiment, catalog: Catalog) -> Schedule | None:
    """The schedule a run plays: the config's, else ``zero-observation`` when a
    performer chooses or observes (it needs the game to act), else ``None`` (the
    static evaluation of a schedule-less config, unchanged)."""
    if experiment.schedule is not None:
        return experiment.schedule
    for role, specs in (("john", experiment.johns), ("zellig", experiment.zelligs), ("claude", experiment.claudes)):
        for spec in specs:
            cls = resolve(role, spec.name, catalog)
            if issubclass(cls, Observer) or (role == "zellig" and issubclass(cls, Chooser)):
                return IMPLICIT
    return None


def collusion(experiment: Experiment) -> list[dict[str, str]]:
    """Zelligs that consult a Claude under test (Smith 2012, §8): a performer spec
    anywhere in a Zellig's params (e.g. ``model-guided``'s ``model``) with the name and
    params of one of the experiment's Claudes.  Recorded in the manifest."""
    from arena.spec import spec_from_mapping

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
    for entry in found:
        logger.warning("collusion: Zellig %s consults Claude %s under test (params.%s)",
                       entry["zellig"], entry["claude"], entry["param"])
    return found


def shown(
    role: str,
    label: str,
    round_: match.Round,
    phase: Phase,
    judgements: dict[str, match.JudgementRecord],
    claude: PerformerSpec | None = None,
) -> RoundOutcome:
    """What performer ``label`` of ``role`` may see of a played round (see
    :class:`~arena.records.RoundOutcome`); ``judgements`` are the round's, per Claude."""
    transparent = role in phase.transparent
    base = {"round": round_.id, "seed": round_.seed, "phase": round_.phase or 0, "counts": round_.counts,
            "transparent": transparent}
    choices = {name: record.choice for name, record in judgements.items()}
    if role == "claude":
        assert claude is not None
        own = judgements[label]
        source = round_.instance.source if claude.sees_source else ""
        if transparent:
            return RoundOutcome(
                **base, instance=round_.instance if claude.sees_source else None, source=source,
                candidates=round_.candidates, variant=round_.variant, corrupted=round_.corrupted,
                choices=choices, scores={label: own.scores},
            )
        return RoundOutcome(
            **base, source=source, candidates=round_.candidates,
            choices={label: own.choice}, scores={label: own.scores},
        )
    if transparent:
        return RoundOutcome(
            **base, instance=round_.instance, source=round_.instance.source, candidates=round_.candidates,
            variant=round_.variant, corrupted=round_.corrupted, choices=choices,
        )
    if role == "zellig":
        return RoundOutcome(**base, instance=round_.instance, variant=round_.variant)
    return RoundOutcome(**base, instance=round_.instance)


@dataclasses.dataclass
class _Stream:
    """The game state of one (seed, John): its instance iterator and rounds per cell."""

    seed: int
    john: PerformerSpec
    instances: Iterator[Instance]
    taken: int = 0
    played: dict[str, int] = dataclasses.field(default_factory=dict)  # Zellig -> rounds played
    block: int = 0


class Game:
    """Plays (or resumes) every seed's game of an experiment into ``run_dir``."""

    def __init__(
        self,
        experiment: Experiment,
        schedule: Schedule,
        catalog: Catalog,
        run_dir: Path,
        executor: Executor,
        progress: bool = True,
    ):
        self.experiment = experiment
        self.schedule = schedule
        self.catalog = catalog
        self.run_dir = Path(run_dir)
        self.executor = executor
        self.progress = progress
        self.zelligs: dict[str, Any] = {}
        self.johns: dict[str, Any] = {}
        self.observing_claudes: list[PerformerSpec] = []

    # -- files ---------------------------------------------------------------------------

    def _committed(self) -> list[dict[str, Any]]:
        """The committed blocks; the lines of an uncommitted block are dropped."""
        path = self.run_dir / BLOCKS
        blocks = list(transcripts.read_jsonl(path, tolerate_partial_tail=True)) if path.exists() else []
        transcripts.truncate_to_complete(path, len(blocks))
        for name, key in ((transcripts.ROUNDS, "rounds"), (transcripts.JUDGEMENTS, "judgements"),
                          (OBSERVATIONS, "observations")):
            keep = sum(block[key] for block in blocks)
            file = self.run_dir / name
            lines = file.read_text(encoding="utf-8").splitlines(keepends=True) if file.exists() else []
            complete = [line for line in lines if line.endswith("\n")]
            if len(complete) < keep:
                raise ValueError(f"{file}: has {len(complete)} complete lines, its committed blocks need {keep}; "
                                 "the run directory is damaged: remove it and run again")
            if len(lines) != keep:
                logger.info("%s: dropping %d lines of an interrupted block", name, len(lines) - keep)
                transcripts.atomic_write_text(file, "".join(lines[:keep]))
        return blocks

    def _recorded_observations(self) -> dict[tuple[int, str, int], list[dict[str, Any]]]:
        path = self.run_dir / OBSERVATIONS
        result: dict[tuple[int, str, int], list[dict[str, Any]]] = {}
        if path.exists():
            for line in transcripts.read_jsonl(path):
                result.setdefault((line["seed"], line["john"], line["block"]), []).append(line)
        return result

    # -- performers ------------------------------------------------------------------------

    def _fresh_performers(self, seed: int) -> None:
        """Stateful performers start fresh for every seed (observing Claudes are
        released so that the executor builds them anew)."""
        self.zelligs = {
            spec.label: build("zellig", spec, self.catalog, where=f"zellig {spec.label}")
            for spec in self.experiment.zelligs
        }
        self.johns = {}
        if seed != self.experiment.seeds[0]:
            for spec in self.observing_claudes:
                self.executor.release(spec)

    def _observe(self, role: str, spec: PerformerSpec, outcomes: Sequence[RoundOutcome]) -> None:
        if role == "claude":
            self.executor.observe(spec, outcomes)
        elif role == "zellig":
            self.zelligs[spec.label].observe(list(outcomes))
        else:
            self.johns[spec.label].observe(list(outcomes))

    def _observers(self) -> list[tuple[str, PerformerSpec]]:
        result: list[tuple[str, PerformerSpec]] = []
        for spec in self.experiment.zelligs:
            if isinstance(self.zelligs[spec.label], Observer):
                result.append(("zellig", spec))
        result.extend(("claude", spec) for spec in self.observing_claudes)
        return result

    # -- play ------------------------------------------------------------------------------

    def play(self) -> None:
        from arena.progress import progress_bar

        committed = self._committed()
        recorded = self._recorded_observations()
        done: dict[tuple[int, str], list[dict[str, Any]]] = {}
        for block in committed:
            done.setdefault((block["seed"], block["john"]), []).append(block)
        self.executor.keep_claudes()
        self.observing_claudes = [spec for spec in self.experiment.claudes if self.executor.observes(spec)]
        total = self.experiment.max_instances
        with progress_bar(total=None, desc="game rounds", enabled=self.progress, unit="round") as bar:
            for seed in self.experiment.seeds:
                self._fresh_performers(seed)
                for john_spec in self.experiment.johns:
                    john = build("john", john_spec, self.catalog, where=f"john {john_spec.label}")
                    self.johns[john_spec.label] = john
                    stream = _Stream(seed, john_spec, iter(john.instances()))
                    stream.played = {z.label: 0 for z in self.experiment.zelligs}
                    for block in done.get((seed, john_spec.label), []):
                        self._replay(stream, block, recorded.get((seed, john_spec.label, block["block"]), []))
                        bar.update(block["rounds"])
                    while not self._finished(stream, total):
                        played = self._play_block(stream, total)
                        if played is None:
                            break
                        bar.update(played)

    def _finished(self, stream: _Stream, total: int | None) -> bool:
        if total is not None and stream.taken >= total:
            return True
        goal = self.schedule.total
        return goal is not None and all(count >= goal for count in stream.played.values())

    def _take(self, stream: _Stream, total: int | None) -> list[Instance]:
        size = self.schedule.block_size
        if total is not None:
            size = min(size, total - stream.taken)
        instances = list(islice(stream.instances, size))
        stream.taken += len(instances)
        return instances

    def _replay(self, stream: _Stream, block: dict[str, Any], observations: list[dict[str, Any]]) -> None:
        """Rebuild the state a committed block left: consume the same instances, count
        its rounds, replay what each observer was shown."""
        instances = self._take(stream, self.experiment.max_instances)
        ids = [instance.id for instance in instances]
        if ids != block["instances"]:
            raise ValueError(
                f"{self.run_dir}: John {stream.john.label} yields other instances on resume than in block "
                f"{block['block']} of seed {stream.seed}; the run cannot be resumed: remove it and run again"
            )
        for zellig, count in block["played"].items():
            stream.played[zellig] = stream.played.get(zellig, 0) + count
        for line in observations:
            spec = self._spec(line["role"], line["performer"])
            self._observe(line["role"], spec, [RoundOutcome.from_json(o) for o in line["outcomes"]])
        stream.block += 1

    def _spec(self, role: str, label: str) -> PerformerSpec:
        for spec in getattr(self.experiment, role + "s"):
            if spec.label == label:
                return spec
        raise ValueError(f"{self.run_dir}: {OBSERVATIONS} names unknown {role} {label!r}")

    def _play_block(self, stream: _Stream, total: int | None) -> int | None:
        instances = self._take(stream, total)
        if not instances:
            return None
        seed, john = stream.seed, stream.john.label
        rounds: list[match.Round] = []
        played: dict[str, int] = {}
        for zellig_spec in self.experiment.zelligs:
            zellig = self.zelligs[zellig_spec.label]
            corruptions = self.executor.corrupt(zellig_spec, instances, self.experiment.time_budget.zellig_seconds)
            planned = match.plan_rounds(
                corruptions, seed, john, zellig_spec.label, self.experiment.variants_per_instance,
                choose=zellig.choose if isinstance(zellig, Chooser) else None,
            )
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
        records: list[match.JudgementRecord] = []
        for claude in self.experiment.claudes:
            records.extend(self.executor.judge(claude, rounds, self.experiment.time_budget.claude_seconds_per_pair))
        by_round: dict[str, dict[str, match.JudgementRecord]] = {}
        for record in records:
            by_round.setdefault(record.round, {})[record.claude] = record
        observations = self._observations(stream, rounds, by_round)
        for line in observations:
            spec = self._spec(line["role"], line["performer"])
            self._observe(line["role"], spec, [RoundOutcome.from_json(o) for o in line["outcomes"]])
        transcripts.append_block(self.run_dir / transcripts.ROUNDS, (r.to_json() for r in rounds))
        transcripts.append_block(self.run_dir / transcripts.JUDGEMENTS, (r.to_json() for r in records))
        transcripts.append_block(self.run_dir / OBSERVATIONS, observations)
        transcripts.append_block(self.run_dir / BLOCKS, [{
            "seed": seed, "john": john, "block": stream.block, "instances": [i.id for i in instances],
            "played": played, "rounds": len(rounds), "judgements": len(records), "observations": len(observations),
        }])
        stream.block += 1
        return sum(played.values())

    def _observations(
        self, stream: _Stream, rounds: Sequence[match.Round], by_round: dict[str, dict[str, match.JudgementRecord]]
    ) -> list[dict[str, Any]]:
        """What each observer is shown of a block, as the lines of ``observations.jsonl``
        (round-tripped through JSON, so a replay hands over exactly the same records)."""
        played = [r for r in rounds if r.judged]
        viewers: list[tuple[str, PerformerSpec, list[match.Round]]] = []
        if isinstance(self.johns[stream.john.label], Observer):
            viewers.append(("john", stream.john, played))
        for role, spec in self._observers():
            if role == "zellig":
                viewers.append((role, spec, [r for r in played if r.zellig == spec.label]))
            else:
                viewers.append((role, spec, [r for r in played if r.status == match.STATUS_OK]))
        lines = []
        for role, spec, seen in viewers:
            outcomes = [
                shown(role, spec.label, r, self.schedule.phases[r.phase or 0], by_round.get(r.id, {}),
                      spec if role == "claude" else None).to_json()
                for r in seen
            ]
            line = {"seed": stream.seed, "john": stream.john.label, "block": stream.block, "role": role,
                    "performer": spec.label, "outcomes": outcomes}
            lines.append(json.loads(transcripts.dumps_line(line)))
        return lines
