"""``scores.json`` in one streamed pass, in memory that grows by a few dozen bytes a round.

This is the one path to a run's scores, whether the run is held in memory or not
(``arena run``, ``arena tournament``, ``arena score``, :func:`arena.api.run`).  It computes,
byte for byte, what the in-memory reference (``tests/arena/stats/oracle.py``: every round
joined with its judgements as :class:`~arena.stats.aggregate.Outcome` objects, several
kilobytes a round, then grouped) computes, from the run directory without holding records,
each line of a transcript decoded at most twice:

1. the run is verified in streamed passes (:class:`arena.record.run_dir.RunDir`), which index
   the judged rounds (:mod:`arena.record.scan`); the same pass over ``rounds.jsonl`` feeds
   the run signature's data digest and keeps per (John, Zellig, seed) what yield and
   generative rate need: per round its instance, status, candidate count and source as
   fixed-width columns;
2. one pass over ``judgements.jsonl``, each judgement with its round read at the offset the
   index recorded, builds each outcome once, evaluates every registered metric on it and
   keeps per (John, Zellig, Claude, seed) only columns: instance digest, S's value, how it was
   resolved, phase, the breakdown keys as small codes, each metric's value and counts;
3. the cells are summarised from the columns with the aggregation core's own
   :class:`~arena.stats.aggregate.Tally` (per-instance sums accumulated in the same order,
   so the same floats, the same bootstrap draws and the same CIs).

Instances are told apart by a 64-bit digest of (John, instance id) (:func:`arena.record.scan.key_hash`).
A registered metric's ``counts`` are evaluated one round at a time and summed, so they must be
sums over rounds (the built-in ``ties`` is).
"""

from __future__ import annotations

from array import array
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.codec import load
from arena.record import scan, transcripts
from arena.record.rounds import STATUS_BALANCED_OUT, STATUS_NOT_APPLICABLE, STATUS_OK, JudgementRecord, OneBest, Round
from arena.record.run_dir import RunDir
from arena.specs.signature import DataDigests
from arena.stats import cells, cue_strata, registry
from arena.stats.aggregate import Outcome, Tally, judged
from arena.stats.results import Cell, GenerativeRate, Paired, Scores, Summary, Timeline, Window, Yield

NO_PHASE = -(1 << 62)


class _Codes:
    """Small integer codes of the strings of one breakdown key (-1: no bucket)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.names: list[str] = []

    def code(self, value: str | None) -> int:
        if value is None:
            return -1
        if value not in self.index:
            self.index[value] = len(self.names)
            self.names.append(value)
        return self.index[value]


class _RoundCell:
    """Per (John, Zellig, seed): each round's instance, status (0: the Zellig made a pair,
    ``ok`` or ``balanced_out``; 1: not applicable; 2: timed out) and candidate count; the
    sources of its ``ok`` rounds."""

    def __init__(self) -> None:
        self.instances, self.status, self.candidates, self.sources = array("Q"), array("b"), array("q"), array("Q")

    def add(self, record: Mapping[str, Any]) -> None:
        instance = record["instance"]
        status = record.get("status", STATUS_OK)
        self.instances.append(scan.key_hash(instance["id"]))
        self.status.append(0 if status in (STATUS_OK, STATUS_BALANCED_OUT) else 1 if status == STATUS_NOT_APPLICABLE else 2)
        self.candidates.append(record.get("n_candidates", 0))
        if status == STATUS_OK:
            self.sources.append(scan.key_hash(instance["source"]))

    def yield_(self) -> Yield:
        instances = np.frombuffer(self.instances, dtype=np.uint64)
        _, first = np.unique(instances, return_index=True)
        first = np.sort(first)  # first round of each instance, in first-seen order
        status = np.frombuffer(self.status, dtype=np.int8)[first]
        applicable = first[status == 0]
        return Yield(
            instances=len(first), applicable=len(applicable),
            share=len(applicable) / len(first) if len(first) else None,
            timeouts=int(np.count_nonzero(status == 2)),
            mean_candidates=float(np.mean(np.frombuffer(self.candidates, dtype=np.int64)[applicable]))
            if len(applicable) else 0.0,
        )

    def generative_rate(self, zellig: str, one_bests: Mapping[int, OneBest]) -> GenerativeRate | None:
        sources = np.unique(np.frombuffer(self.sources, dtype=np.uint64)).tolist()
        verdicts = [one_bests[s].detected[zellig] for s in sources if s in one_bests and zellig in one_bests[s].detected]
        if not verdicts:
            return None
        return GenerativeRate(sources=len(verdicts), detected=int(sum(verdicts)), rate=float(np.mean(verdicts)))


class _OutcomeCell:
    """One (John, Zellig, Claude, seed)'s outcomes as columns, in judgement order."""

    def __init__(self, keys: Sequence[str], metrics: Sequence[registry.Metric]) -> None:
        self.instances, self.correct, self.resolved = array("Q"), array("d"), array("b")
        self.judged, self.counted, self.phase = array("b"), array("b"), array("q")
        self.keys = {name: array("i") for name in keys}
        self.values = {m.name: array("d") for m in metrics}
        self.defined = {m.name: array("b") for m in metrics}
        self.tallies = {(m.name, key): array("q") for m in metrics for key in m.counts}

    def columns(self) -> dict[str, Any]:
        def column(values: array, dtype: Any) -> np.ndarray:
            return np.frombuffer(values, dtype=dtype) if len(values) else np.zeros(0, dtype=dtype)

        return {
            "instances": column(self.instances, np.uint64), "correct": column(self.correct, np.float64),
            "resolved": column(self.resolved, np.int8), "judged": column(self.judged, np.int8).astype(bool),
            "counted": column(self.counted, np.int8).astype(bool),
            "phase": column(self.phase, np.int64),
            "keys": {k: column(v, np.int32) for k, v in self.keys.items()},
            "values": {k: column(v, np.float64) for k, v in self.values.items()},
            "defined": {k: column(v, np.int8).astype(bool) for k, v in self.defined.items()},
            "tallies": {k: column(v, np.int64) for k, v in self.tallies.items()},
        }


def tally(instances: np.ndarray, values: np.ndarray) -> Tally:
    """:meth:`Tally.of` from columns: per instance digest, in first-seen order, the sum of
    ``values`` (accumulated in row order, as :meth:`Tally.of` adds them) and the row count."""
    if not len(instances):
        return Tally((), np.array([], dtype=float), np.array([], dtype=int))
    unique, first, inverse = np.unique(instances, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    dense = rank[inverse.reshape(-1)]
    sums = np.bincount(dense, weights=values, minlength=len(order)).astype(float)
    counts = np.bincount(dense, minlength=len(order)).astype(int)
    return Tally(tuple(unique[order].tolist()), sums, counts)


def s_tally(columns: Mapping[str, Any], rows: np.ndarray) -> Tally:
    """S's :class:`Tally` of the outcomes at ``rows``: over the rounds the Claude judged
    (:func:`arena.stats.aggregate.judged`), as :meth:`Tally.of` with its default value."""
    kept = rows[columns["judged"][rows]]
    return tally(columns["instances"][kept], columns["correct"][kept])


class _Run:
    """The streamed passes over one run directory."""

    def __init__(self, record: RunDir) -> None:
        self.record = record
        self.round_cells: dict[tuple[str, str, int], _RoundCell] = {}
        self.data = DataDigests()
        self.metrics = registry.metrics()
        # the pairs of the rounds for the cue strata of S net of cues, read in the verification's pass;
        # which Johns are balanced is known from the manifest once that pass is done
        self.cue_pairs = cue_strata.Collector() if registry.uses_cue_strata(self.metrics) else None
        record.verify(self._round)  # one pass over rounds.jsonl: verified, indexed, and kept as columns
        self.digests = self.data.digests()
        del self.data  # the instance ids it kept are not needed past the pass
        self.manifest = record.manifest
        self.experiment = self.manifest.experiment
        self.ties = self.experiment.get("contrastive_ties", "wrong")
        self.samples = int(self.experiment.get("bootstrap_samples", 1000))
        if self.cue_pairs is not None:
            self.cue_pairs.balanced = set(cue_strata.balanced_johns(self.experiment))
        self.context = registry.Context(self.ties)
        self.breakdowns: dict[str, Any] = {
            "phenomenon": cells.phenomenon_key, "distance": cells.meta_bin_key("distance"),
            "frequency": cells.meta_bin_key("frequency"),
            **{f"meta:{k}": cells.meta_value_key(k) for k in self.experiment.get("breakdowns") or ()},
        }
        self.codes = {name: _Codes() for name in self.breakdowns}
        self.resolutions = _Codes()
        self.cells: dict[tuple[str, str, str, int], _OutcomeCell] = {}
        self.one_bests: dict[tuple[str, int | None], dict[int, OneBest]] = defaultdict(dict)

    def _round(self, record: dict[str, Any]) -> None:
        """One record of ``rounds.jsonl``, kept as its round cell's columns and in the data digest."""
        key = (record["john"], record["zellig"], record["seed"])
        cell = self.round_cells.get(key)
        if cell is None:
            cell = self.round_cells[key] = _RoundCell()
        cell.add(record)
        self.data.add(record)
        if self.cue_pairs is not None:
            self.cue_pairs.add_record(record)

    def judgements(self) -> None:
        if self.cue_pairs is not None:
            self.context = registry.Context(self.ties, self.cue_pairs.strata())
            self.cue_pairs = None  # the pairs are not needed past their strata
        if not (self.record.path / transcripts.JUDGEMENTS).exists():  # not judged yet: no outcomes, no 1-bests read
            return
        for record in self.record.lines(transcripts.ONEBEST):
            best = load(OneBest, record)
            self.one_bests[best.claude, best.seed][scan.key_hash(best.source)] = best
        for round_, judgements in self.record.judged():  # each round decoded and built once
            for judgement in judgements:
                self._add(round_, judgement)

    def _add(self, round_: Round, judgement: JudgementRecord) -> None:
        one_best = None
        if self.one_bests:  # a run that decoded 1-bests
            source = scan.key_hash(round_.instance.source)
            one_best = (self.one_bests.get((judgement.claude, round_.seed), {}).get(source)
                        or self.one_bests.get((judgement.claude, None), {}).get(source))
        outcome = Outcome(round_, judgement, one_best)
        key = (round_.john, round_.zellig, judgement.claude, round_.seed)
        cell = self.cells.get(key)
        if cell is None:
            cell = self.cells[key] = _OutcomeCell(list(self.breakdowns), self.metrics)
        cell.instances.append(scan.key_hash(round_.john, round_.instance.id))
        cell.correct.append(float(judgement.correct))
        cell.resolved.append(self.resolutions.code(judgement.resolved_by))
        cell.judged.append(judged(judgement.resolved_by))
        cell.counted.append(bool(round_.counts))
        cell.phase.append(NO_PHASE if round_.phase is None else round_.phase)
        for name, key_of in self.breakdowns.items():
            cell.keys[name].append(self.codes[name].code(key_of(outcome)))
        for metric in self.metrics:
            value = metric.value(outcome, self.context)
            cell.values[metric.name].append(0.0 if value is None else value)
            cell.defined[metric.name].append(value is not None)
            for count_key, count in metric.counts.items():
                cell.tallies[metric.name, count_key].append(count((outcome,)))

    def one_bests_of(self, claude: str, seed: int) -> dict[int, OneBest]:
        return self.one_bests.get((claude, seed)) or self.one_bests.get((claude, None), {})


def summarise(columns: Mapping[str, Any], rows: np.ndarray, run: _Run, samples: int) -> Summary:
    """:func:`arena.stats.metrics.summarise` of the outcomes at ``rows`` of a cell's columns."""
    s = s_tally(columns, rows)
    resolved = Counter(run.resolutions.names[c] for c in columns["resolved"][rows].tolist())
    metrics = []
    for metric in run.metrics:
        defined = rows[columns["defined"][metric.name][rows]]
        if metric.aggregate is not None:
            defined = defined[columns["judged"][defined]]  # S's values: of the rounds the Claude judged
        values = columns["values"][metric.name][defined]
        if metric.aggregate is not None:
            if not len(values):
                continue
            value, ci95, note = metric.aggregate(columns["instances"][defined].tolist(), columns["correct"][defined],
                                                 values, samples)
            metrics.append(registry.MetricValue(metric.name, value, ci95, metric.ci, (), note))
            continue
        if metric.ci:
            metric_tally = tally(columns["instances"][defined], values)
            if not metric_tally.rounds:
                continue
            value, ci95 = metric_tally.rate(), metric_tally.ci(samples)
        else:
            if not len(values):
                continue
            value, ci95 = float(np.mean(values)), None
        counts = tuple((key, int(columns["tallies"][metric.name, key][rows].sum())) for key in metric.counts)
        metrics.append(registry.MetricValue(metric.name, value, ci95, metric.ci, counts))
    return Summary(
        rounds=len(rows), S=s.rate(), S_ci95=s.ci(samples), correct=int(s.sums.sum()),
        resolved_by=dict(sorted(resolved.items())), metrics=tuple(metrics),
    )


def breakdown(columns: Mapping[str, Any], rows: np.ndarray, run: _Run, name: str,
              order: Sequence[str] | None = None) -> dict[str, Summary]:
    """:func:`arena.stats.metrics.breakdown` by the breakdown key ``name``."""
    codes = columns["keys"][name][rows]
    present = codes[codes >= 0]
    _, first = np.unique(present, return_index=True)
    seen = [run.codes[name].names[c] for c in present[np.sort(first)].tolist()]
    names = [b for b in order if b in seen] if order is not None else sorted(seen)
    return {label: summarise(columns, rows[codes == run.codes[name].index[label]], run, 0) for label in names}


def timeline(columns: Mapping[str, Any], rows: np.ndarray, window: int, epsilon: float, samples: int) -> Timeline:
    """:func:`arena.stats.timeline.timeline` of the played outcomes at ``rows``."""
    from arena.stats.timeline import convergence

    cut = []
    for start in range(0, len(rows), window):
        chunk = rows[start : start + window]
        chunk_tally = s_tally(columns, chunk)
        phases = columns["phase"][chunk]
        cut.append(Window(
            first=start + 1, last=start + len(chunk), rounds=len(chunk),
            phases=tuple(sorted({int(p) for p in phases[phases != NO_PHASE].tolist()})),
            counts=bool(np.all(columns["counted"][chunk])), S=chunk_tally.rate(), S_ci95=chunk_tally.ci(samples),
        ))
    return Timeline(window=window, windows=tuple(cut), convergence=convergence(cut, epsilon))


def _cell(run: _Run, key: tuple[str, str, str, int], game: Mapping[str, Any] | None,
          counted: dict[tuple[str, str, str, int], Tally]) -> Cell:
    from arena.stats import bins

    john, zellig, claude, seed = key
    outcomes = run.cells.get(key)
    columns = outcomes.columns() if outcomes is not None else _OutcomeCell(list(run.breakdowns), run.metrics).columns()
    played = np.arange(len(columns["correct"]))
    rows = played[columns["counted"]]
    if len(rows):
        counted[key] = s_tally(columns, rows)
    round_cell = run.round_cells[john, zellig, seed]
    breakdowns = run.experiment.get("breakdowns")
    return Cell(
        john, zellig, claude, seed,
        summary=summarise(columns, rows, run, run.samples),
        yield_=round_cell.yield_(),
        generative_rate=round_cell.generative_rate(zellig, run.one_bests_of(claude, seed)),
        phenomena=breakdown(columns, rows, run, "phenomenon"),
        by_distance=breakdown(columns, rows, run, "distance", bins.DISTANCE_BINS),
        by_frequency=breakdown(columns, rows, run, "frequency", bins.FREQUENCY_BINS),
        by_meta={k: breakdown(columns, rows, run, f"meta:{k}") for k in breakdowns} if breakdowns else None,
        observation_rounds=len(played) - len(rows) if game is not None else None,
        timeline=timeline(columns, played, int(game["window"]), float(game["epsilon"]), run.samples)
        if game is not None else None,
    )


def score_run(run: RunDir | Path) -> Scores:
    """The typed scores of a run directory (a path, or a :class:`RunDir` read already), streamed."""
    from arena.specs.signature import run_signature

    streamed = _Run(run if isinstance(run, RunDir) else RunDir(run))
    manifest = streamed.manifest
    signature = run_signature(manifest.dump(), data=streamed.digests)
    streamed.judgements()
    claudes = [c.get("alias") or cells.claude_label(c) for c in streamed.experiment["claudes"]]
    counted: dict[tuple[str, str, str, int], Tally] = {}
    game = manifest.game
    scored = tuple(_cell(streamed, (john, zellig, claude, seed), game, counted)
                   for (john, zellig, seed) in streamed.round_cells for claude in claudes)
    for key in streamed.cells:  # outcomes of a Claude the config does not name: counted, as the reference does
        if key not in counted:
            columns = streamed.cells[key].columns()
            rows = np.flatnonzero(columns["counted"])
            if len(rows):
                counted[key] = s_tally(columns, rows)
    return Scores(
        signature, streamed.ties, scored, cells.over_seeds(scored),
        Paired(cells.paired_claudes(counted, claudes, streamed.samples), cells.paired_zelligs(counted, streamed.samples)),
        signatures=manifest.signatures,
    )
