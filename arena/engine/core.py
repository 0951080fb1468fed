"""The play engine: plan, play blocks of rounds on a backend, write transcripts, score.

1. **Plan** (once per run): every John's instances on the driver; every Zellig on every
   John's instances as chunked jobs; rounds sampled per seed (:func:`plan`);
   ``rounds.jsonl`` and the manifest with the plan's hash (:mod:`arena.engine.store`).
2. **Blocks.**  The rounds fall into :class:`Block` s, played in order; a schedule-less
   run is one block per (seed, John, Zellig) (:func:`blocks`).  A *cell* is one Claude
   model on one block.
3. **Play** (:class:`Session`): per Claude model (a Claude, or one replica of it per
   seed), its unfinished cells.  A :class:`~arena.roles.ScoringClaude` gets every
   distinct (source, candidate) pair of all its cells once (:mod:`arena.engine.scoring`)
   and decodes each distinct source once (1-best for the discrepancy), which every
   Zellig's detector checks (generative rate); other Claudes judge cell by cell.  Each
   finished cell is written atomically to ``cells/``.
4. **Assemble**: ``judgements.jsonl`` and ``onebest.jsonl`` (Claudes in config order,
   inside them blocks in order), then ``scores.json`` (the finished marker).

The jobs are cut the same way whatever the backend and every job runs through
:func:`arena.engine.jobs.run`, so runs on Ray and in process give byte-identical
transcripts.  Re-running an interrupted run resumes it: the plan is checked against
its hash, finished cells are kept, the rest is played.

Hook points for a game (Smith §7; see DESIGN.md "The game on one engine"):

- ``run(..., on_block=callback)`` calls ``callback(block, {claude: judgements})`` for
  each block, in order, once its cells are played: where ``observe(outcomes)`` goes.
- :meth:`Session.play` plays any list of blocks as one *wave*, with scoring
  deduplicated across the wave and Claude models held one at a time in process;
  :meth:`Session.judgements` reads a played block back and :meth:`Session.assemble`
  writes the transcripts of every block played.  A schedule-less run is one wave of
  all its blocks.  A schedule plans a block from the pure, precomputed corruptions
  (:func:`corrupt`; ``Zellig.choose`` picks the candidate with the round's own RNG,
  :func:`arena.engine.match.round_rng`), plays it as a wave of one, lets the performers
  observe, and plans the next; its plan (the rounds of every block, so far) is what
  ``rounds.jsonl`` and the manifest's plan hash must then record block by block.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.engine import jobs, match, transcripts
from arena.engine.backends import Backend, make_backend
from arena.engine.resources import actor_count, resource_options
from arena.engine.scoring import ScoreBook
from arena.engine.store import RunStore
from arena.records import Instance
from arena.roles import John
from arena.specs.config import Experiment
from arena.specs.registry import Catalog, build, signature
from arena.specs.registry import validate as validate_spec
from arena.specs.spec import PerformerSpec

logger = logging.getLogger(__name__)

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


@dataclass
class RunResult:
    run_dir: Path
    scores: dict[str, Any]
    backend: str = ""
    cells: int = 0
    cells_before: int = 0  # cells finished by an earlier, interrupted session
    already_finished: bool = False
    resumed: bool = False
    seconds: float = 0.0
    # per Claude model: scoring requests before and after deduplication, 1-best sources
    work: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Block:
    """Rounds played together: judged by every Claude, then observed.  ``name``
    (``s<seed>-j<John index>-z<Zellig index>`` for a schedule-less run) names its cell
    files; ``rounds`` are all its rounds in transcript order."""

    name: str
    seed: int
    rounds: tuple[match.Round, ...]

    @property
    def judged(self) -> list[match.Round]:
        return [r for r in self.rounds if r.judged]


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
    result = []
    for index, claude in enumerate(experiment.claudes):
        if claude.replicas:
            result.extend(Model(index, claude.for_seed(seed), (seed,), seed) for seed in experiment.seeds)
        else:
            result.append(Model(index, claude, experiment.seeds))
    return result


# -- checks, names and the manifest -------------------------------------------------------

def validate(experiment: Experiment, catalog: Catalog) -> dict[str, dict[str, str]]:
    """Check every performer's name and params (every Claude replica's too) and its Ray
    resources without building anything; return the signatures
    ``{role: {label: name@version(params)}}`` (a replica's under ``"<label> (seed <s>)"``)."""
    check_name(experiment)
    signatures: dict[str, dict[str, str]] = {}
    for role, specs in (("john", experiment.johns), ("zellig", experiment.zelligs), ("claude", experiment.claudes)):
        signatures[role + "s"] = {}
        for index, spec in enumerate(specs):
            at = f"{experiment.where(role + 's', str(index))}: {role}s[{index}]"
            validate_spec(role, spec, catalog, where=at)
            signatures[role + "s"][spec.label] = signature(role, spec, catalog)
            if role != "john":
                resource_options(role, spec, at)
    for model in models(experiment):
        at = f"{experiment.where('claudes', str(model.claude_index))}: claudes[{model.claude_index}]"
        actor_count(model.spec, at)
        if model.replica is not None:
            validate_spec("claude", model.spec, catalog, where=f"{at}.replicas.{model.replica}")
            signatures["claudes"][f"{model.spec.label} (seed {model.replica})"] = signature("claude", model.spec, catalog)
    return signatures


def config_hash(experiment: Experiment) -> str:
    text = json.dumps(experiment.to_json(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def run_dir_for(experiment: Experiment, out: Path) -> Path:
    """``OUT/<name>-<config hash>``; a name that is no plain file name (``../x``, ``a/b``)
    is an error, so a run never leaves ``out``."""
    check_name(experiment)
    return Path(out) / f"{experiment.name}-{config_hash(experiment)}"


def check_name(experiment: Experiment) -> None:
    if not _NAME.match(experiment.name):
        raise ValueError(
            f"{experiment.where('name')}: name {experiment.name!r} must be a plain name (letters, digits and "
            "'._+-', not starting with '.' or '-'): it names the run directory under --out"
        )


def run_signature(experiment: Experiment) -> str:
    """The sacrebleu-style signature printed with every score."""
    from arena import __version__

    seeds = ",".join(map(str, experiment.seeds))
    return f"arena:{__version__}|k:{experiment.variants_per_instance}|seeds:{seeds}|ties:{experiment.contrastive_ties}"


def make_manifest(experiment: Experiment, signatures: dict[str, dict[str, str]], **extra: Any) -> dict[str, Any]:
    """What ``manifest.json`` records: resolved config, signatures, versions, commit."""
    return {
        "experiment": experiment.to_json(),
        "config_file": experiment.source,
        "config_hash": config_hash(experiment),
        "signature": run_signature(experiment),
        "signatures": signatures,
        "versions": transcripts.package_versions(),
        "git_commit": transcripts.git_commit(),
        **extra,
    }


# -- planning -------------------------------------------------------------------------------

def load_instances(experiment: Experiment, catalog: Catalog) -> dict[str, list[Instance]]:
    """Every John's instances (on the driver), capped by ``max_instances``; ids must be unique."""
    result: dict[str, list[Instance]] = {}
    for spec in experiment.johns:
        john: John = build("john", spec, catalog, where=f"john {spec.label}")
        instances: list[Instance] = []
        for instance in john.instances():
            instances.append(instance)
            if experiment.max_instances is not None and len(instances) >= experiment.max_instances:
                break
        duplicates = [key for key, count in Counter(i.id for i in instances).items() if count > 1]
        if duplicates:
            raise ValueError(f"John {spec.label} yielded duplicate instance id(s): {', '.join(duplicates[:5])}")
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
                group, john, position, count = pending.pop(handle)
                for zellig, corruptions in zip(group, result):
                    parts[john, zellig.label][position] = corruptions
                bar.update(count * len(group))
    return {key: [c for chunk in chunks for c in chunk] for key, chunks in parts.items()}


def plan(experiment: Experiment, corruptions: Mapping[tuple[str, str], Sequence[match.Corruption]]) -> list[match.Round]:
    """Rounds sampled per seed; seeds → Johns → Zelligs → instances is the transcript order."""
    rounds: list[match.Round] = []
    for seed in experiment.seeds:
        for john in experiment.johns:
            for zellig in experiment.zelligs:
                rounds.extend(
                    match.plan_rounds(
                        corruptions[john.label, zellig.label], seed, john.label, zellig.label,
                        experiment.variants_per_instance,
                    )
                )
    return rounds


def plan_experiment(experiment: Experiment, catalog: Catalog, backend: Backend, progress: bool = True) -> list[match.Round]:
    """Instances, corruptions and rounds of an experiment (what ``rounds.jsonl`` holds)."""
    return plan(experiment, corrupt(experiment, load_instances(experiment, catalog), backend, progress))


def blocks(experiment: Experiment, rounds: Sequence[match.Round]) -> list[Block]:
    """A run's blocks, in transcript order: a schedule-less run's one per (seed, John,
    Zellig); a game's (rounds that carry their block, :mod:`arena.game.play`) one per
    (seed, John, block)."""
    if rounds and rounds[0].block is not None:
        johns = {john.label: j for j, john in enumerate(experiment.johns)}
        played: dict[tuple[int, str, int], list[match.Round]] = defaultdict(list)
        for r in rounds:
            played[r.seed, r.john, r.block or 0].append(r)
        return [
            Block(f"s{seed}-j{johns[john]}-b{number}", seed, tuple(items))
            for (seed, john, number), items in played.items()
        ]
    groups: dict[tuple[int, str, str], list[match.Round]] = defaultdict(list)
    for r in rounds:
        groups[r.seed, r.john, r.zellig].append(r)
    return [
        Block(f"s{seed}-j{j}-z{z}", seed, tuple(groups.get((seed, john.label, zellig.label), ())))
        for seed in experiment.seeds
        for j, john in enumerate(experiment.johns)
        for z, zellig in enumerate(experiment.zelligs)
    ]


def prepare(
    experiment: Experiment, catalog: Catalog, out: Path, progress: bool = True
) -> tuple[Path, list[match.Round]]:
    """A run's directory and its planned rounds, planning them (under the run's lock) if
    no run has yet; nothing is played.  People judge these rounds (``arena play``,
    ``arena serve``) before, during or after ``arena run`` plays the Claudes: a
    planned run's rounds are read, checked against the plan, without the lock."""
    signatures = validate(experiment, catalog)
    from arena.game import play as game

    if game.schedule_of(experiment, catalog) is not None:
        raise ValueError(f"{experiment.source or 'config'}: a game (schedule, or a performer that chooses or "
                         "observes) is planned block by block while it is played; people judge static runs only")
    store = RunStore(run_dir_for(experiment, Path(out)))
    manifest = store.manifest()
    if manifest is None:
        with store.locked():
            manifest = store.manifest()
            if manifest is None:
                backend = make_backend("in-process", experiment, catalog)
                try:
                    rounds = plan_experiment(experiment, catalog, backend, progress)
                finally:
                    backend.close()
                store.write_plan((r.to_json() for r in rounds), make_manifest(experiment, signatures, backend=backend.name))
                return store.run_dir, rounds
    if manifest.get("experiment") != json.loads(json.dumps(experiment.to_json())):
        raise ValueError(f"{store.run_dir}: holds a run of a different configuration; choose another --out")
    return store.run_dir, [match.Round.from_json(r) for r in store.planned_rounds(manifest)]


# -- a run ------------------------------------------------------------------------------------

BlockCallback = Callable[[Block, dict[str, list[match.JudgementRecord]]], None]


def run(
    experiment: Experiment,
    catalog: Catalog,
    out: Path,
    backend: str | Backend = "in-process",
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    progress: bool = True,
    on_block: BlockCallback | None = None,
) -> RunResult:
    """Play (or resume) a run; return its run directory and scores.

    ``backend`` is ``"in-process"``, ``"ray"`` (join ``address``/``RAY_ADDRESS``/
    ``ray.address`` or start a local Ray) or a backend object (which the caller closes).
    A finished run is returned as it is (after checking its transcripts against the
    plan), never overwritten; an unfinished one is resumed.  ``on_block(block,
    {claude: judgements})`` is called after each block is played.
    """
    from arena.stats.metrics import compute_scores

    started = time.perf_counter()
    signatures = validate(experiment, catalog)
    store = RunStore(run_dir_for(experiment, Path(out)))
    with store.locked():
        manifest = store.manifest()
        if manifest is not None and manifest.get("experiment") != json.loads(json.dumps(experiment.to_json())):
            raise ValueError(f"{store.run_dir}: holds a run of a different configuration; choose another --out")
        if manifest is not None and "plan" not in manifest and transcripts.is_finished(store.run_dir):
            logger.warning("%s: finished by an earlier arena that recorded no plan; not checked", store.run_dir)
            return RunResult(store.run_dir, json.loads(store.path(transcripts.SCORES).read_text(encoding="utf-8")),
                             already_finished=True)
        from arena.game import play as game  # the game plays on this engine (arena/game/play.py)

        schedule = game.schedule_of(experiment, catalog)
        playing = schedule is not None and not transcripts.is_finished(store.run_dir)
        planned = manifest is not None and not playing
        rounds = [match.Round.from_json(r) for r in store.planned_rounds(manifest)] if planned else None
        the_blocks = blocks(experiment, rounds) if rounds is not None else []
        cells = len(the_blocks) * len(experiment.claudes)
        if manifest is not None and transcripts.is_finished(store.run_dir):
            store.check_judgements(
                [(r.id, m.spec.label) for m in models(experiment) for b in the_blocks if b.seed in m.seeds for r in b.judged]
            )
            scores = json.loads(store.path(transcripts.SCORES).read_text(encoding="utf-8"))
            return RunResult(store.run_dir, scores, cells=cells, already_finished=True)
        if manifest is not None:
            logger.info("resuming %s", store.run_dir)
        own = isinstance(backend, str)
        engine_backend = make_backend(backend, experiment, catalog, address, num_cpus) if own else backend
        try:
            if playing:  # a game: blocks planned and played one at a time
                colluding = game.collusion(experiment)
                for entry in colluding:
                    logger.warning("collusion: Zellig %s consults Claude %s under test (params.%s)",
                                   entry["zellig"], entry["claude"], entry["param"])
                extra = {"game": schedule.to_json(), **({"collusion": colluding} if colluding else {})}
                manifest_now = make_manifest(experiment, signatures, backend=engine_backend.name, **extra)
                rounds = game.Game(experiment, schedule, store, engine_backend, catalog, progress).play(manifest_now)
                the_blocks = blocks(experiment, rounds)
                cells = len(the_blocks) * len(experiment.claudes)
            if rounds is None:
                begun = time.perf_counter()
                rounds = plan_experiment(experiment, catalog, engine_backend, progress)
                store.write_plan(
                    (r.to_json() for r in rounds), make_manifest(experiment, signatures, backend=engine_backend.name)
                )
                logger.info("planned %d rounds in %.1f s", len(rounds), time.perf_counter() - begun)
                the_blocks = blocks(experiment, rounds)
                cells = len(the_blocks) * len(experiment.claudes)
            session = Session(experiment, engine_backend, store, rounds, progress)
            session.play(the_blocks)
        finally:
            if own:
                engine_backend.close()
        if on_block is not None:
            for block in the_blocks:
                on_block(block, session.judgements(block))
        session.assemble(the_blocks)
        cells_before, work = session.cells_before, session.work
        del session, rounds, the_blocks  # scores are derived from the transcripts on disk: free the plan first
        scores = compute_scores(store.run_dir)
        transcripts.atomic_write_json(store.path(transcripts.SCORES), scores)
    return RunResult(
        store.run_dir, scores, engine_backend.name, cells, cells_before, resumed=manifest is not None,
        seconds=time.perf_counter() - started, work=work,
    )


class Session:
    """One session of play: submits the jobs of the unfinished cells, writes each cell as
    soon as its answers are in, frees each Claude model when its work is done."""

    def __init__(
        self,
        experiment: Experiment,
        backend: Backend,
        store: RunStore,
        rounds: Sequence[match.Round],
        progress: bool,
        one_best: bool = True,
        hold: Sequence[str] = (),
    ):
        """``one_best``: also decode the 1-bests of ``rounds``' sources; ``hold``: labels
        of Claudes kept built when their work is done (a game's observing Claudes, whose
        state lives where they were built)."""
        self.one_best = one_best
        self.hold = hold
        self.experiment = experiment
        self.backend = backend
        self.store = store
        self.sources = list(dict.fromkeys(r.instance.source for r in rounds if r.status == match.STATUS_OK))
        self.progress = progress
        self.models = models(experiment)
        self.pending: dict[Any, tuple[Callable[[Any], None], Model | None]] = {}
        self.outstanding: dict[str, int] = defaultdict(int)
        self.waiting: list[tuple[Model, list[Block]]] = []
        self.work: dict[str, dict[str, int]] = {}
        self.cells_before = 0
        self._bar: Any = None

    def _finished(self, model: Model, block: Block) -> bool:
        return self.store.cell_finished(model.cell(block), [r.id for r in block.judged], model.spec.label)

    def _one_best_due(self, model: Model) -> bool:
        # a Claude that judges fluency (no source) has no 1-best comparable to its scores
        return (
            self.one_best and self.experiment.discrepancy and model.spec.sees_source
            and not self.store.cell_path(model.one_best_cell).exists()
        )

    def submit(self, job: jobs.Job, callback: Callable[[Any], None], model: Model | None = None) -> None:
        self.pending[self.backend.submit(job)] = (callback, model)
        if model is not None:
            self.outstanding[model.name] += 1

    def play(self, wave: Sequence[Block]) -> None:
        """Play every unfinished cell of ``wave`` (a list of blocks) to its file."""
        from arena.engine.progress import progress_bar

        self.store.cells.mkdir(exist_ok=True)
        total = 0
        for model in self.models:
            mine = [b for b in wave if b.seed in model.seeds]
            todo = [b for b in mine if not self._finished(model, b)]
            total += len(mine)
            self.cells_before += len(mine) - len(todo)
            if todo or self._one_best_due(model):
                self.waiting.append((model, todo))
        if self.cells_before:
            logger.info("%d of %d cells were finished before; playing the rest", self.cells_before, total)
        with progress_bar(total=total, desc="cells", enabled=self.progress, unit="cell") as bar:
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
                            if model.spec.label not in self.hold:
                                self.backend.release(model.spec)
                            self._activate()

    def judgements(self, block: Block) -> dict[str, list[match.JudgementRecord]]:
        """The judgements of a played block per Claude (config order)."""
        result: dict[str, list[match.JudgementRecord]] = {}
        for model in self.models:
            if block.seed in model.seeds:
                path = self.store.cell_path(model.cell(block))
                result[model.spec.label] = [match.JudgementRecord.from_json(j) for j in transcripts.read_jsonl(path)]
        return result

    def assemble(self, wave: Sequence[Block]) -> None:
        """``judgements.jsonl`` and ``onebest.jsonl`` from the cells of ``wave``."""
        cells = [m.cell(b) for m in self.models for b in wave if b.seed in m.seeds]
        self.store.assemble(cells, [m.one_best_cell for m in self.models] if self.experiment.discrepancy else [])

    def _activate(self) -> None:
        """Start models while the backend allows (all at once on Ray: it queues actors
        beyond the cluster's capacity; one at a time in process)."""
        limit = self.backend.concurrent_models
        while self.waiting and (limit is None or sum(1 for n in self.outstanding.values() if n) < limit):
            model, todo = self.waiting.pop(0)
            self.submit(jobs.DescribeJob(model.spec), lambda kind, m=model, t=todo: self._start(m, kind, t), model)

    def _start(self, model: Model, kind: jobs.ClaudeKind, todo: list[Block]) -> None:
        budget = self.experiment.time_budget.claude_seconds_per_pair
        if kind.scoring and budget is None:
            self._score_cells(model, kind, todo)
        else:
            for block in todo:
                self.submit(
                    jobs.JudgeJob(model.spec, model.spec.label, tuple(block.judged), budget),
                    lambda records, b=block: self._finish(model, b, records),
                    model,
                )
        if self._one_best_due(model):
            if kind.scoring:
                self._one_best(model, kind)
            else:
                self.store.write_cell(model.one_best_cell, [])

    def _finish(self, model: Model, block: Block, records: Sequence[match.JudgementRecord]) -> None:
        self.store.write_cell(model.cell(block), (r.to_json() for r in records))
        self._bar.update(1)

    # -- scoring Claudes: deduplicated requests -------------------------------------------

    def _score_cells(self, model: Model, kind: jobs.ClaudeKind, todo: list[Block]) -> None:
        book = ScoreBook(kind.convention)
        missing: dict[str, int] = {}
        waiting: dict[tuple[str, str], list[Block]] = defaultdict(list)
        for block in todo:
            keys: set[tuple[str, str]] = set()
            for r in block.judged:
                if r.status == match.STATUS_OK:
                    keys.update(book.add(r.pair(model.spec.sees_source).source, r.candidates or ()))
            missing[block.name] = len(keys)
            for key in keys:
                waiting[key].append(block)
        self.work.setdefault(model.name, {}).update(requests=book.requested, unique=book.unique)
        logger.info("Claude %s: %d scoring requests, %d after deduplication", model.name, book.requested, book.unique)

        def judge(block: Block) -> None:
            records = match.judge_rounds(book, model.spec.label, block.judged, sees_source=model.spec.sees_source)
            self._finish(model, block, records)

        def scored(sources: Sequence[str], targets: Sequence[str], results: Sequence[tuple[float, int]]) -> None:
            book.record(sources, targets, results)
            for key in zip(sources, targets):
                for block in waiting.pop(key, ()):
                    missing[block.name] -= 1
                    if missing[block.name] == 0:
                        judge(block)

        for block in todo:
            if missing[block.name] == 0:
                judge(block)
        for sources, targets in book.chunks(self.experiment.ray.chunk_size):
            self.submit(
                jobs.ScoreJob(model.spec, sources, targets),
                lambda results, s=sources, t=targets: scored(s, t, results),
                model,
            )

    # -- 1-best translations and detectors ------------------------------------------------

    def _one_best(self, model: Model, kind: jobs.ClaudeKind) -> None:
        chunked = jobs.chunks(self.sources, self.experiment.ray.chunk_size)
        groups = jobs.zellig_groups(self.experiment.zelligs) if self.experiment.generative_rate else []
        translations: list[list[tuple[str, float, int]]] = [[] for _ in chunked]
        verdicts: dict[str, list[list[bool | None] | None]] = {z.label: [None] * len(chunked) for g in groups for z in g}
        remaining = [len(chunked) * (1 + len(groups))]
        self.work.setdefault(model.name, {})["one_best_sources"] = len(self.sources)

        def done() -> None:
            remaining[0] -= 1
            if remaining[0] == 0:
                self._write_one_best(model, kind, chunked, translations, verdicts)

        def detected(group: Sequence[PerformerSpec], position: int, results: Sequence[list[bool | None] | None]) -> None:
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
            self.store.write_cell(model.one_best_cell, [])
            return
        for position, chunk in enumerate(chunked):
            self.submit(
                jobs.TranslateJob(model.spec, tuple(chunk), self.experiment.beam),
                lambda result, p=position, c=chunk: translated(p, c, result),
                model,
            )

    def _write_one_best(
        self,
        model: Model,
        kind: jobs.ClaudeKind,
        chunked: Sequence[Sequence[str]],
        translations: Sequence[Sequence[tuple[str, float, int]]],
        verdicts: Mapping[str, Sequence[list[bool | None] | None]],
    ) -> None:
        records = []
        for position, (sources, results) in enumerate(zip(chunked, translations)):
            # in config order, Zelligs without a detector left out
            detectors = [
                z.label for z in self.experiment.zelligs
                if z.label in verdicts and verdicts[z.label][position] is not None
            ]
            for offset, (source, (translation, logprob, tokens)) in enumerate(zip(sources, results)):
                flags = {label: flag for label in detectors  # None: the detector does not apply to this source
                         if (flag := verdicts[label][position][offset]) is not None}  # type: ignore[index]
                one_best = match.OneBest(
                    model.spec.label, source, translation, logprob, tokens, flags, kind.convention, model.replica
                )
                records.append(one_best.to_json())
        self.store.write_cell(model.one_best_cell, records)

