"""One session of play: a run's cells played on a backend, each written as soon as it is in.

A :class:`Session` serves one run.  :meth:`Session.play` plays the unfinished cells of
a *wave* (a list of blocks; a schedule-less run is one wave of all its blocks, a game
one wave per block), with Claude models held one at a time in process (all at once
on Ray).  A :class:`~arena.roles.ScoringClaude` gets every distinct (source,
candidate) pair of the wave's cells once (:mod:`arena.engine.scoring`) and decodes
each distinct source once (1-best for the discrepancy), which every Zellig's detector
checks (generative rate); other Claudes judge cell by cell.  :meth:`Session.judgements`
reads a played block back; :meth:`Session.assemble` writes ``judgements.jsonl`` and
``onebest.jsonl`` from the cells.
"""

from __future__ import annotations

import functools
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from arena.codec import dump, load
from arena.engine import jobs, match
from arena.engine.backends import Backend
from arena.engine.scoring import ScoreBook
from arena.record import transcripts
from arena.record.order import Block, Model, models
from arena.record.rounds import STATUS_OK, JudgementRecord, OneBest, Round
from arena.record.store import RunStore
from arena.specs.config import Experiment
from arena.specs.spec import PerformerSpec

logger = logging.getLogger(__name__)

JUDGE_ROUNDS = 2048  # a larger cell is judged in parts of this many rounds (a multiple of judge_rounds' 256)
WINDOW = 2  # parts of one Claude's cells outstanding at once


class Session:
    """The one session of play of a run: submits the jobs of the unfinished cells, writes
    each cell as soon as its answers are in, frees each Claude model when its work is
    done (unless :attr:`hold` names it)."""

    def __init__(self, experiment: Experiment, backend: Backend, store: RunStore, progress: bool = True):
        self.experiment = experiment
        self.backend = backend
        self.store = store
        self.progress = progress
        self.models = models(experiment)
        # labels of Claudes kept built when their work is done (a game's observing
        # Claudes, whose state lives where they were built)
        self.hold: Sequence[str] = ()
        self.one_best = False  # whether the wave being played decodes 1-bests
        self.wave: Sequence[Block] = ()  # the wave being played
        self.feeds: dict[str, Iterator[tuple[jobs.Job, Callable[[Any], None]]]] = {}
        self.parts: dict[str, int] = {}  # a cell judged in parts: how many are still out
        self.closed: dict[str, int] = {}  # cells judged in parts whose last part is out: their parts
        self.pending: dict[Any, tuple[Callable[[Any], None], Model | None]] = {}
        self.outstanding: dict[str, int] = defaultdict(int)
        self.waiting: list[tuple[Model, list[Block]]] = []
        self.work: dict[str, dict[str, int]] = {}
        self.cells_before = 0  # cells found finished that no wave of this session played
        self.written: set[str] = set()  # cells this session wrote
        self._bar: Any = None

    def _finished(self, model: Model, block: Block) -> bool:
        return self.store.cell_finished(model.cell(block), (r.id for r in block.judged), model.spec.label)

    @functools.cached_property
    def sources(self) -> list[str]:
        """The distinct sources of the wave's played rounds (for the 1-bests), read when first needed."""
        return list(dict.fromkeys(
            r.instance.source for block in self.wave for r in block.rounds if r.status == STATUS_OK
        ))

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

    def play(self, wave: Sequence[Block], *, one_best: bool = True, quiet: bool = False) -> None:
        """Play every unfinished cell of ``wave`` (a list of blocks) to its file; with
        ``one_best``, also decode the 1-bests of the wave's sources (once per run: a
        game plays its blocks without, then every block again with, finding their cells
        finished); ``quiet``: no progress bar."""
        from arena.engine.progress import progress_bar

        self.store.cells.mkdir(exist_ok=True)
        self.one_best = one_best
        self.wave = wave
        self.__dict__.pop("sources", None)
        total = finished = before = 0
        for model in self.models:
            mine = [b for b in wave if b.seed in model.seeds]
            todo = [b for b in mine if not self._finished(model, b)]
            done = {model.cell(b) for b in mine} - {model.cell(b) for b in todo}
            total += len(mine)
            finished += len(done)
            before += len(done - self.written)
            if todo or self._one_best_due(model):
                self.waiting.append((model, todo))
        self.cells_before += before
        if before:
            logger.info("%d of %d cells were finished before; playing the rest", before, total)
        with progress_bar(total=total, desc="cells", enabled=self.progress and not quiet, unit="cell") as bar:
            self._bar = bar
            bar.update(finished)
            self._activate()
            self._drain()

    def _drain(self) -> None:
        """Wait for every submitted job, handing each result to its callback; release a
        model when its last job is in and start the next."""
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

    def judgements(self, block: Block) -> dict[str, list[JudgementRecord]]:
        """The judgements of a played block per Claude (config order)."""
        result: dict[str, list[JudgementRecord]] = {}
        for model in self.models:
            if block.seed in model.seeds:
                path = self.store.cell_path(model.cell(block))
                result[model.spec.label] = [load(JudgementRecord, j) for j in transcripts.read_jsonl(path)]
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
            self.submit(jobs.DescribeJob(model.spec), functools.partial(self._start, model, todo=todo), model)

    def _start(self, model: Model, kind: jobs.ClaudeKind, todo: list[Block]) -> None:
        budget = self.experiment.time_budget.claude_seconds_per_pair
        if kind.scoring and budget is None:
            self._score_cells(model, kind, todo)
        else:
            self.feeds[model.name] = self._judge_jobs(model, todo, budget)
            for _ in range(WINDOW):
                self._feed(model)
        if self._one_best_due(model):
            if kind.scoring:
                self._one_best(model, kind)
            else:
                self.store.write_cell(model.one_best_cell, [])

    def _finish(self, model: Model, block: Block, records: Sequence[JudgementRecord]) -> None:
        self.store.write_cell(model.cell(block), (dump(r) for r in records))
        self.written.add(model.cell(block))
        self._bar.update(1)

    # -- Claudes that judge: cells in parts, a window of them outstanding -----------------

    def _feed(self, model: Model) -> None:
        """Submit the next judging job of ``model``, if any is left."""
        item = next(self.feeds.get(model.name, iter(())), None)
        if item is not None:
            self.submit(*item, model)

    def _judge_jobs(self, model: Model, todo: Sequence[Block],
                    budget: float | None) -> Iterator[tuple[jobs.Job, Callable[[Any], None]]]:
        """The jobs that judge ``todo``: one per cell, or one per :data:`JUDGE_ROUNDS` rounds
        of a larger cell (its parts written to ``cells/`` and joined in order when all are in).
        Each job's callback submits the next, so memory holds :data:`WINDOW` parts."""
        for block in todo:
            parts = _parts(block.judged)
            current: tuple[Round, ...] | None = next(parts)
            upcoming = next(parts, None)
            if upcoming is None:  # the whole cell in one job
                job = jobs.JudgeJob(model.spec, model.spec.label, current or (), budget)
                yield job, functools.partial(self._fed, model, functools.partial(self._finish, model, block))
                continue
            cell, index = model.cell(block), 0
            self.parts[cell] = 0
            while current is not None:
                self.parts[cell] += 1
                if upcoming is None:
                    self.closed[cell] = index + 1  # its last part is out: how many there are
                job = jobs.JudgeJob(model.spec, model.spec.label, current, budget)
                yield job, functools.partial(self._fed, model, functools.partial(self._part_done, model, block, index))
                index += 1
                current, upcoming = upcoming, (next(parts, None) if upcoming is not None else None)

    def _fed(self, model: Model, callback: Callable[[Any], None], result: Any) -> None:
        callback(result)
        self._feed(model)

    def _part_done(self, model: Model, block: Block, index: int, records: Sequence[JudgementRecord]) -> None:
        cell = model.cell(block)
        self.store.write_cell_part(cell, index, (dump(r) for r in records))
        self.parts[cell] -= 1
        if self.parts[cell] == 0 and cell in self.closed:
            self.store.join_cell_parts(cell, self.closed.pop(cell))
            del self.parts[cell]
            self.written.add(cell)
            self._bar.update(1)

    # -- scoring Claudes: deduplicated requests -------------------------------------------

    def _score_cells(self, model: Model, kind: jobs.ClaudeKind, todo: list[Block]) -> None:
        book = ScoreBook(kind.convention)
        missing: dict[str, int] = {}
        waiting: dict[tuple[str, str], list[Block]] = defaultdict(list)
        for block in todo:
            keys: set[tuple[str, str]] = set()
            for r in block.judged:
                if r.status == STATUS_OK:
                    keys.update(book.add(r.pair(model.spec.sees_source).source, r.candidates or ()))
            missing[block.name] = len(keys)
            for key in keys:
                waiting[key].append(block)
        work = self.work.setdefault(model.name, {})  # summed over the waves of a game
        work["requests"] = work.get("requests", 0) + book.requested
        work["unique"] = work.get("unique", 0) + book.unique
        logger.info("Claude %s: %d scoring requests, %d after deduplication", model.name, book.requested, book.unique)

        def judge(block: Block) -> None:
            records = match.judge_rounds(book, model.spec.label, list(block.judged), sees_source=model.spec.sees_source)
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
                functools.partial(scored, sources, targets),
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
                    functools.partial(detected, group, position),
                )
            done()

        if not chunked:
            self.store.write_cell(model.one_best_cell, [])
            return
        for position, chunk in enumerate(chunked):
            self.submit(
                jobs.TranslateJob(model.spec, tuple(chunk), self.experiment.beam),
                functools.partial(translated, position, chunk),
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
                one_best = OneBest(
                    model.spec.label, source, translation, logprob, tokens, flags, kind.convention, model.replica
                )
                records.append(dump(one_best))
        self.store.write_cell(model.one_best_cell, records)


def _parts(rounds: Iterable[Round]) -> Iterator[tuple[Round, ...]]:
    """``rounds`` in tuples of :data:`JUDGE_ROUNDS` (at least one tuple, maybe empty)."""
    chunk: list[Round] = []
    given = False
    for r in rounds:
        chunk.append(r)
        if len(chunk) == JUDGE_ROUNDS:
            yield tuple(chunk)
            chunk, given = [], True
    if chunk or not given:
        yield tuple(chunk)
