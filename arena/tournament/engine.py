"""The tournament engine: Johns × Zelligs × Claudes × seeds, cell by cell, on any backend.

1. **Plan** (once): every John's instances on the driver; every Zellig on every John's
   instances as chunked jobs (Ray tasks); rounds sampled per seed exactly as
   :func:`arena.runner.plan` does; ``rounds.jsonl`` written atomically.
2. **Play**: per Claude model (a Claude, or one replica of it per seed), the unfinished
   cells.  A scoring Claude gets every distinct (source, candidate) pair of all its
   cells once (:mod:`arena.tournament.scoring`); other Claudes judge cell by cell.  A
   Claude that translates also decodes each distinct source once (1-best for the
   discrepancy), and every Zellig's detector checks those 1-bests (generative rate).
   Each finished cell is written atomically to ``cells/`` (:mod:`arena.tournament.cells`).
3. **Assemble**: ``judgements.jsonl`` and ``onebest.jsonl`` in the in-process runner's
   order, then ``scores.json`` (the finished marker) from the transcripts.

The jobs are cut the same way whatever the backend, and every job runs through
:func:`arena.tournament.jobs.run_job`, so a tournament on Ray and one in process give
byte-identical transcripts.  Interrupting leaves finished cells on disk;
``resume=True`` plays only the rest.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import match, transcripts
from arena.config import Experiment
from arena.registry import Catalog, signature
from arena.runner import load_instances, make_manifest, plan, run_dir_for, validate_experiment
from arena.spec import PerformerSpec
from arena.tournament import jobs
from arena.tournament.backends import Backend, InProcessBackend
from arena.tournament.cells import Cell, CellStore, all_cells, rounds_by_cell
from arena.tournament.resources import actor_count, resource_options
from arena.tournament.scoring import ScoreBook, ScoredClaude

logger = logging.getLogger(__name__)

EXECUTORS = ("ray", "in-process")


@dataclass
class TournamentResult:
    run_dir: Path
    scores: dict[str, Any]
    executor: str = ""
    cells: int = 0
    cells_before: int = 0  # cells finished by an earlier, interrupted session
    already_finished: bool = False
    resumed: bool = False
    seconds: float = 0.0
    # per Claude model: scoring requests before and after deduplication, 1-best sources
    work: dict[str, dict[str, int]] = field(default_factory=dict)


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


def replicas_of(spec: PerformerSpec) -> dict[int, Any]:
    return dict(getattr(spec, "replicas", None) or {})


def models(experiment: Experiment) -> list[Model]:
    """The Claude models of an experiment, in config order (replicas in seed order)."""
    result = []
    for index, claude in enumerate(experiment.claudes):
        if replicas_of(claude):
            result.extend(Model(index, claude.for_seed(seed), (seed,), seed) for seed in experiment.seeds)
        else:
            result.append(Model(index, claude, experiment.seeds))
    return result


def validate_tournament(experiment: Experiment, catalog: Catalog) -> dict[str, Any]:
    """Check every performer (and every Claude replica) and its Ray resources without
    building anything; return the signatures for the manifest (a replica's under
    ``"<label> (seed <s>)"`` beside its Claude's)."""
    signatures: dict[str, Any] = validate_experiment(experiment, catalog)
    for model in models(experiment):
        where = f"{experiment.source or 'config'}: claudes[{model.claude_index}]"
        if model.replica is not None:
            signatures["claudes"][f"{model.spec.label} (seed {model.replica})"] = signature(
                "claude", model.spec, catalog
            )
        resource_options("claude", model.spec, where)
        actor_count(model.spec, where)
    for index, zellig in enumerate(experiment.zelligs):
        resource_options("zellig", zellig, f"{experiment.source or 'config'}: zelligs[{index}]")
    return signatures


def make_backend(
    executor: str | Backend,
    experiment: Experiment,
    catalog: Catalog,
    address: str | None = None,
    num_cpus: int | None = None,
    progress: bool = True,
) -> tuple[Backend, bool]:
    """The backend to use and whether the caller owns (must close) it."""
    if not isinstance(executor, str):
        return executor, False
    if executor == "in-process":
        return InProcessBackend(catalog), True
    if executor == "ray":
        from arena.tournament.ray_executor import RayExecutor

        return RayExecutor(catalog, experiment.ray, address=address, num_cpus=num_cpus, progress=progress), True
    raise ValueError(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")


def run_tournament(
    experiment: Experiment,
    catalog: Catalog,
    out: Path,
    executor: str | Backend = "ray",
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    resume: bool = False,
    progress: bool = True,
) -> TournamentResult:
    """Play (or, with ``resume``, continue) a tournament; return its run directory and scores.

    ``executor`` is ``"ray"`` (join ``address``/``RAY_ADDRESS``/``ray.address`` or start
    a local Ray), ``"in-process"``, or a backend object (which the caller closes).  A
    finished run is returned as it is, never overwritten; an unfinished one is
    continued only with ``resume=True``.
    """
    from arena.metrics import compute_scores

    started = time.perf_counter()
    signatures = validate_tournament(experiment, catalog)
    run_dir = run_dir_for(experiment, Path(out))
    cells = all_cells(experiment)
    if transcripts.is_finished(run_dir):
        scores = json.loads((run_dir / transcripts.SCORES).read_text(encoding="utf-8"))
        return TournamentResult(run_dir, scores, cells=len(cells), already_finished=True)
    manifest_path = run_dir / transcripts.MANIFEST
    resumed = manifest_path.exists()
    if resumed:
        previous = json.loads(manifest_path.read_text(encoding="utf-8"))
        if previous.get("experiment") != json.loads(json.dumps(experiment.to_json())):
            raise ValueError(f"{run_dir}: holds a run of a different configuration; choose another --out")
        if not resume:
            raise ValueError(
                f"{run_dir}: holds an unfinished run of this configuration; pass --resume to continue it "
                "(finished cells are kept)"
            )
        logger.info("resuming %s", run_dir)

    backend, own_backend = make_backend(executor, experiment, catalog, address, num_cpus, progress)
    try:
        if not resumed:
            run_dir.mkdir(parents=True, exist_ok=True)
            transcripts.atomic_write_json(
                manifest_path,
                make_manifest(experiment, signatures, tournament={"executor": backend.name, "cells": len(cells)}),
            )
        rounds = _rounds(experiment, catalog, run_dir, backend, progress)
        session = _Session(experiment, backend, CellStore(run_dir), rounds, cells, progress)
        session.play()
        session.store.assemble(cells, session.one_best_units)
    finally:
        if own_backend:
            backend.close()
    scores = compute_scores(run_dir)
    transcripts.atomic_write_json(run_dir / transcripts.SCORES, scores)
    return TournamentResult(
        run_dir, scores, backend.name, len(cells), session.cells_before, resumed=resumed,
        seconds=time.perf_counter() - started, work=session.work,
    )


class _Precomputed:
    """Hands :func:`arena.runner.plan` the corruptions computed in parallel beforehand
    (keyed by the identity of each John's instance list, which ``plan`` passes on)."""

    def __init__(self, corruptions: dict[tuple[int, str], list[match.Corruption]]):
        self.corruptions = corruptions

    def corrupt(self, zellig: PerformerSpec, instances: Sequence[Any], seconds: float | None) -> list[match.Corruption]:
        return self.corruptions[id(instances), zellig.label]


def _rounds(experiment: Experiment, catalog: Catalog, run_dir: Path, backend: Backend, progress: bool) -> list[match.Round]:
    from arena.progress import progress_bar

    path = run_dir / transcripts.ROUNDS
    if path.exists():
        return [match.Round.from_json(r) for r in transcripts.read_jsonl(path)]
    started = time.perf_counter()
    instances = load_instances(experiment, catalog, progress)
    size = experiment.ray.chunk_size
    groups = jobs.zellig_groups(experiment.zelligs)
    pending: dict[Any, tuple[tuple[PerformerSpec, ...], int, int, int]] = {}
    parts: dict[tuple[int, str], list[list[match.Corruption] | None]] = {}
    for john in experiment.johns:
        items = instances[john.label]
        chunked = jobs.chunks(items, size)
        for zellig in experiment.zelligs:
            parts[id(items), zellig.label] = [None] * len(chunked)
        for group in groups:
            for position, chunk in enumerate(chunked):
                job = jobs.CorruptJob(group, tuple(chunk), experiment.time_budget.zellig_seconds)
                pending[backend.submit(job)] = (group, id(items), position, len(chunk))
    total = sum(len(items) for items in instances.values()) * len(experiment.zelligs)
    with progress_bar(total=total, desc="corrupt", enabled=progress, unit="inst") as bar:
        while pending:
            for handle, result in backend.wait(list(pending)):
                group, items_id, position, count = pending.pop(handle)
                for zellig, corruptions in zip(group, result):
                    parts[items_id, zellig.label][position] = corruptions
                bar.update(count * len(group))
    corruptions = {key: [c for chunk in chunks for c in chunk or ()] for key, chunks in parts.items()}
    rounds = plan(experiment, instances, _Precomputed(corruptions))
    transcripts.atomic_write_jsonl(path, (r.to_json() for r in rounds))
    logger.info("planned %d rounds in %.1f s", len(rounds), time.perf_counter() - started)
    return rounds


class _Session:
    """One session of play: submits the jobs of the unfinished cells, writes each cell
    as soon as its answers are in, frees each Claude model when its work is done."""

    def __init__(
        self,
        experiment: Experiment,
        backend: Backend,
        store: CellStore,
        rounds: Sequence[match.Round],
        cells: Sequence[Cell],
        progress: bool,
    ):
        self.experiment = experiment
        self.backend = backend
        self.store = store
        self.cells = list(cells)
        self.groups = rounds_by_cell(rounds)
        self.sources = list(dict.fromkeys(r.instance.source for r in rounds if r.status == match.STATUS_OK))
        self.progress = progress
        self.models = models(experiment)
        self.one_best_units: list[tuple[int, int | None]] = (
            [(m.claude_index, m.replica) for m in self.models] if experiment.discrepancy else []
        )
        self.pending: dict[Any, tuple[Callable[[Any], None], Model | None]] = {}
        self.outstanding: dict[str, int] = defaultdict(int)
        self.waiting: list[tuple[Model, list[Cell]]] = []
        self.work: dict[str, dict[str, int]] = {}
        self.cells_before = 0
        self._bar: Any = None

    # -- bookkeeping --------------------------------------------------------------------

    def submit(self, job: jobs.Job, callback: Callable[[Any], None], model: Model | None = None) -> None:
        self.pending[self.backend.submit(job)] = (callback, model)
        if model is not None:
            self.outstanding[model.name] += 1

    def play(self) -> None:
        from arena.progress import progress_bar

        self.store.write_index(self.cells)
        finished = self.store.finished(self.cells, self.groups)
        self.cells_before = len(finished)
        for model in self.models:
            todo = [c for c in self.cells if c.claude_index == model.claude_index and c.seed in model.seeds]
            todo = [c for c in todo if c not in finished]
            one_best = self.experiment.discrepancy and not self.store.one_best_finished(model.claude_index, model.replica)
            if todo or one_best:
                self.waiting.append((model, todo))
        if self.cells_before:
            logger.info("%d of %d cells were finished before; playing the rest", self.cells_before, len(self.cells))
        with progress_bar(total=len(self.cells), desc="cells", enabled=self.progress, unit="cell") as bar:
            self._bar = bar
            bar.update(self.cells_before)
            self._activate()
            while self.pending:
                for handle, result in self.backend.wait(list(self.pending)):
                    callback, model = self.pending.pop(handle)
                    callback(result)
                    if model is not None:
                        self.outstanding[model.name] -= 1
                        if self.outstanding[model.name] == 0:
                            logger.info("Claude %s: done", model.name)
                            self.backend.release(model.spec)
                            self._activate()

    def _activate(self) -> None:
        """Start models while the backend allows (all at once on Ray: it queues actors
        beyond the cluster's capacity; one at a time in process)."""
        limit = self.backend.concurrent_models
        while self.waiting and (limit is None or sum(1 for n in self.outstanding.values() if n) < limit):
            model, todo = self.waiting.pop(0)
            self.submit(jobs.DescribeJob(model.spec), lambda kind, m=model, t=todo: self._start(m, kind, t), model)

    def _start(self, model: Model, kind: jobs.ClaudeKind, todo: list[Cell]) -> None:
        budget = self.experiment.time_budget.claude_seconds_per_pair
        if kind.scores and budget is None:
            self._score_cells(model, kind, todo)
        else:
            for cell in todo:
                rounds = tuple(self.groups.get(cell.rounds_key, ()))
                self.submit(
                    jobs.JudgeJob(model.spec, cell.claude, rounds, budget),
                    lambda records, c=cell: self._finish(c, [r.to_json() for r in records]),
                    model,
                )
        if self.experiment.discrepancy and not self.store.one_best_finished(model.claude_index, model.replica):
            if kind.translates:
                self._one_best(model, kind)
            else:
                self.store.write_one_best(model.claude_index, model.replica, [])

    def _finish(self, cell: Cell, records: list[dict[str, Any]]) -> None:
        self.store.write(cell, records)
        self._bar.update(1)

    # -- scoring Claudes: deduplicated requests -------------------------------------------

    def _score_cells(self, model: Model, kind: jobs.ClaudeKind, todo: list[Cell]) -> None:
        book = ScoreBook(kind.convention)
        missing: dict[Cell, int] = {}
        waiting: dict[tuple[str, str], list[Cell]] = defaultdict(list)
        for cell in todo:
            keys: set[tuple[str, str]] = set()
            for r in self.groups.get(cell.rounds_key, ()):
                if r.status == match.STATUS_OK:
                    keys.update(book.add(r.pair(model.spec.sees_source).source, r.candidates or ()))
            missing[cell] = len(keys)
            for key in keys:
                waiting[key].append(cell)
        self.work.setdefault(model.name, {}).update(requests=book.requested, unique=book.unique)
        logger.info("Claude %s: %d scoring requests, %d after deduplication", model.name, book.requested, book.unique)
        judge = ScoredClaude(book)

        def scored(sources: Sequence[str], targets: Sequence[str], results: Sequence[tuple[float, int]]) -> None:
            book.record(sources, targets, results)
            for key in zip(sources, targets):
                for cell in waiting.pop(key, ()):
                    missing[cell] -= 1
                    if missing[cell] == 0:
                        self._judge_from_book(cell, judge, model.spec)

        for cell in todo:
            if missing[cell] == 0:
                self._judge_from_book(cell, judge, model.spec)
        for sources, targets in book.chunks(self.experiment.ray.chunk_size):
            self.submit(
                jobs.ScoreJob(model.spec, sources, targets),
                lambda results, s=sources, t=targets: scored(s, t, results),
                model,
            )

    def _judge_from_book(self, cell: Cell, judge: ScoredClaude, spec: PerformerSpec) -> None:
        records = match.judge_rounds(
            judge, cell.claude, self.groups.get(cell.rounds_key, []), sees_source=spec.sees_source
        )
        self._finish(cell, [r.to_json() for r in records])

    # -- 1-best translations and detectors ------------------------------------------------

    def _one_best(self, model: Model, kind: jobs.ClaudeKind) -> None:
        chunked = jobs.chunks(self.sources, self.experiment.ray.chunk_size)
        groups = jobs.zellig_groups(self.experiment.zelligs) if self.experiment.generative_rate else []
        translations: list[list[tuple[str, float, int]] | None] = [None] * len(chunked)
        verdicts: dict[str, list[Any]] = {z.label: [None] * len(chunked) for g in groups for z in g}
        remaining = [len(chunked) * (1 + len(groups))]
        self.work.setdefault(model.name, {})["one_best_sources"] = len(self.sources)

        def done() -> None:
            remaining[0] -= 1
            if remaining[0] == 0:
                self._write_one_best(model, kind, chunked, translations, verdicts)

        def detected(group: Sequence[PerformerSpec], position: int, results: Sequence[list[bool] | None]) -> None:
            for zellig, result in zip(group, results):
                verdicts[zellig.label][position] = result
            done()

        def translated(position: int, chunk: Sequence[str], result: list[tuple[str, float, int]]) -> None:
            translations[position] = result
            texts = tuple(t for t, _, _ in result)
            for group in groups:
                self.submit(
                    jobs.DetectJob(group, texts, tuple(chunk)),
                    lambda results, g=group, p=position: detected(g, p, results),
                )
            done()

        if not chunked:
            self.store.write_one_best(model.claude_index, model.replica, [])
            return
        for position, chunk in enumerate(chunked):
            self.submit(
                jobs.TranslateJob(model.spec, tuple(chunk), self.experiment.beam),
                lambda result, p=position, c=chunk: translated(p, c, result),
                model,
            )

    def _write_one_best(self, model: Model, kind: jobs.ClaudeKind, chunked, translations, verdicts) -> None:
        records = []
        for position, (sources, results) in enumerate(zip(chunked, translations)):
            for offset, (source, (translation, logprob, tokens)) in enumerate(zip(sources, results or ())):
                flags = {  # in config order, Zelligs without a detector left out (as the runner does)
                    z.label: verdicts[z.label][position][offset]
                    for z in self.experiment.zelligs
                    if verdicts.get(z.label, [None] * (position + 1))[position] is not None
                }
                one_best = match.OneBest(
                    model.spec.label, source, translation, logprob, tokens, flags, kind.convention, model.replica
                )
                records.append(one_best.to_json())
        self.store.write_one_best(model.claude_index, model.replica, records)
