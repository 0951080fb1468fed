"""A run from start to end: open its directory, plan or resume, play, assemble.

1. **Check** (:mod:`arena.engine.manifest`): every performer's name, params and
   resources, without building anything; the run directory ``OUT/<name>-<hash>`` and
   its lock (:mod:`arena.record.store`).
2. **Plan** (:mod:`arena.engine.plan_stream`): instances a chunk at a time, corruptions
   as chunked jobs, rounds per seed, written to ``rounds.jsonl`` as they come (memory
   does not grow with the run), then the manifest with the plan's hash; the blocks read
   their rounds back from the file.  A run with a :class:`~arena.engine.driver.Driver`
   (a game) is planned block by block by the driver while it is played instead.
3. **Play** (:mod:`arena.engine.session`): the run's one :class:`Session` plays the
   blocks' cells (one Claude model on one block each), a static run as one wave, a
   game one wave per block; then the 1-best translations of every source.
4. **Assemble**: ``judgements.jsonl`` and ``onebest.jsonl`` from the cells (Claudes
   in config order, inside them blocks in order), their line counts and digests in the
   manifest.  The API then scores the run and writes ``scores.json``, the finished marker
   (:func:`arena.api.finish`); the engine knows no statistics.

The jobs are cut the same way whatever the backend and every job runs through
:func:`arena.engine.jobs.run`, so runs on Ray and in process give byte-identical
transcripts.  Re-running an interrupted run resumes it: the plan is checked against
its hash, finished cells are kept, the rest is played.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

from arena.codec import dump, load
from arena.engine import plan_stream
from arena.engine.backends import Backend, make_backend
from arena.engine.driver import Driver
from arena.engine.manifest import make_manifest, run_dir_for, validate
from arena.engine.plan import plan_experiment
from arena.engine.session import Session
from arena.errors import UsageError
from arena.record import transcripts, verify
from arena.record.manifest import Manifest
from arena.record.order import Block, blocks
from arena.record.rounds import Round
from arena.record.store import RunStore
from arena.specs.config import Experiment
from arena.specs.registry import Catalog

logger = logging.getLogger(__name__)


@dataclass
class RunResult:
    """What playing a run did (the engine scores nothing: :func:`arena.api.finish` adds the run's typed
    scores, :class:`arena.api.Finished`)."""

    run_dir: Path
    backend: str = ""
    cells: int = 0
    cells_before: int = 0  # cells finished by an earlier, interrupted session
    already_finished: bool = False
    resumed: bool = False
    seconds: float = 0.0
    # per Claude model: scoring requests before and after deduplication, 1-best sources
    work: dict[str, dict[str, int]] = field(default_factory=dict)


def prepare(
    experiment: Experiment, catalog: Catalog, out: Path, progress: bool = True
) -> tuple[Path, list[Round]]:
    """A run's directory and its planned rounds, planning them (under the run's lock) if
    no run has yet; nothing is played.  People judge these rounds (``arena play``,
    ``arena serve``) before, during or after ``arena run`` plays the Claudes: a
    planned run's rounds are read, checked against the plan, without the lock.  Only a
    static run can be prepared (a game is planned while it is played:
    :func:`arena.api.prepare` refuses one)."""
    signatures = validate(experiment, catalog)
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
                store.write_plan((dump(r) for r in rounds), make_manifest(experiment, signatures, backend=backend.name))
                return store.run_dir, rounds
    _check_same_config(store, manifest, experiment)
    return store.run_dir, [load(Round, r) for r in store.planned_rounds(manifest)]


def run(
    experiment: Experiment,
    catalog: Catalog,
    out: Path,
    backend: str | Backend = "in-process",
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    progress: bool = True,
    driver: Driver | None = None,
) -> RunResult:
    """Play (or resume) a run and assemble its transcripts; return its run directory (the
    API scores it: :func:`arena.api.finish`).

    ``backend`` is ``"in-process"``, ``"ray"`` (join ``address``/``RAY_ADDRESS``/
    ``ray.address`` or start a local Ray) or a backend object (which the caller closes).
    ``driver`` plans and plays the blocks (a game: :func:`arena.game.play.driver_for`);
    without one the static plan is played.  A finished run is returned as it is (after
    checking its transcripts against the plan), never overwritten; an unfinished one is
    resumed (one played to the end but not scored yet plays nothing and is assembled again).
    """
    started = time.perf_counter()
    signatures = validate(experiment, catalog)
    store = RunStore(run_dir_for(experiment, Path(out)))
    with store.locked():
        manifest = store.manifest()
        if manifest is not None:
            _check_same_config(store, manifest, experiment)
            if transcripts.is_finished(store.run_dir) and not _repair(store, manifest):
                return _finished(experiment, store, manifest)
            logger.info("resuming %s", store.run_dir)
        own = isinstance(backend, str)
        engine_backend = (
            make_backend(backend, experiment, catalog, address, num_cpus) if isinstance(backend, str) else backend
        )
        session = Session(experiment, engine_backend, store, progress)
        try:
            if driver is not None:  # a game: blocks planned and played one at a time
                extra = {"backend": engine_backend.name, **driver.manifest()}
                the_blocks = blocks(experiment, driver.play(session, make_manifest(experiment, signatures, **extra)))
            else:  # a static run: its rounds stay on disk, each block reads its own
                the_blocks = _static_plan(experiment, catalog, session, manifest, signatures)
            session.play(the_blocks, one_best=True)
        finally:
            if own:
                engine_backend.close()
        session.assemble(the_blocks)
        store.record_written(verify.written(store.run_dir))
        cells, cells_before, work = len(the_blocks) * len(experiment.claudes), session.cells_before, session.work
    return RunResult(
        store.run_dir, engine_backend.name, cells, cells_before, resumed=manifest is not None,
        seconds=time.perf_counter() - started, work=work,
    )


def _check_same_config(store: RunStore, manifest: Manifest, experiment: Experiment) -> None:
    if manifest.experiment != json.loads(json.dumps(dump(experiment))):
        raise UsageError(f"{store.run_dir}: holds a run of a different configuration; choose another --out")


def _repair(store: RunStore, manifest: Manifest) -> bool:
    """Whether a finished run's transcripts were damaged and removed for the engine to
    rebuild them from ``cells/`` (:func:`arena.record.verify.repair`); a plan that does not
    match cannot be replayed and is refused."""
    if manifest.plan is None:
        return False
    store.check_plan(manifest)
    return verify.repair(store.run_dir)


def _finished(experiment: Experiment, store: RunStore, manifest: Manifest) -> RunResult:
    """A finished run as it is (its transcripts verified by :func:`_repair`)."""
    if manifest.plan is None:
        logger.warning("%s: finished by an earlier arena that recorded no plan; not checked", store.run_dir)
        return RunResult(store.run_dir, already_finished=True)
    store.check_plan(manifest)
    path = store.path(transcripts.ROUNDS)
    if plan_stream.is_static(path):
        count = len(experiment.seeds) * len(experiment.johns) * len(experiment.zelligs)
    else:
        count = len(blocks(experiment, [load(Round, r) for r in store.planned_rounds(manifest)]))
    return RunResult(store.run_dir, cells=count * len(experiment.claudes), already_finished=True)


def _static_plan(
    experiment: Experiment,
    catalog: Catalog,
    session: Session,
    manifest: Manifest | None,
    signatures: dict[str, dict[str, str]],
) -> list[Block]:
    """A static run's blocks: planned into ``rounds.jsonl`` now (streamed,
    :func:`arena.engine.plan_stream.write_plan`), or checked against the plan on resume;
    either way read back from the file block by block while they are played."""
    path = session.store.path(transcripts.ROUNDS)
    if manifest is not None:
        if not plan_stream.is_static(path):  # rounds that carry their blocks: held in memory, as a game plays them
            return blocks(experiment, [load(Round, r) for r in session.store.planned_rounds(manifest)])
        session.store.check_plan(manifest)
        return plan_stream.stored_blocks(experiment, path)
    begun = time.perf_counter()
    counts = plan_stream.write_plan(experiment, catalog, session.backend, session.store,
                                    make_manifest(experiment, signatures, backend=session.backend.name),
                                    session.progress)
    logger.info("planned %d rounds in %.1f s", sum(counts.values()), time.perf_counter() - begun)
    return plan_stream.stored_blocks(experiment, path, counts)
