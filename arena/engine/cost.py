"""What a run will cost, before any model is loaded: ``arena tournament CONFIG --plan``.

:func:`count_work` plans the run as the engine does (every John on the driver, every Zellig in
process, rounds sampled per seed) and counts, per Claude model, what the engine would send it after
deduplication: distinct (source, candidate) pairs to score and their words, distinct sources to
decode for the 1-best and their words.  No Claude is built; whether a Claude scores is read from its
class (:class:`~arena.roles.ScoringClaude` has ``score`` and ``translate``).  The counts equal the
``work`` an actual run reports (a test checks it).

:func:`estimate` turns the counts into seconds with a calibration measured on the user's hardware
(:mod:`arena.engine.calibration`, written by ``experiments/bench/calibrate.py``).  A game
(``schedule``) is planned block by block while it is played and cannot be counted in advance.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Annotated

from pydantic import Field, PlainSerializer

from arena.engine.calibration import Calibration, claude_key
from arena.errors import ConfigError
from arena.record.rounds import STATUS_OK
from arena.specs.config import Experiment
from arena.specs.registry import Catalog, resolve
from arena.specs.spec import PerformerSpec


def _absent(value: object) -> bool:
    return value is None


Seconds = Annotated[float, PlainSerializer(lambda seconds: round(seconds, 3))]  # written to the millisecond


def words(text: str) -> int:
    """Words of a text plus one (the end-of-sentence token a model scores or decodes)."""
    return len(text.split()) + 1


@dataclass
class ModelWork:
    """What one Claude model is sent (and, estimated, its seconds: ``--plan --json`` writes them
    through :mod:`arena.codec`)."""

    name: str
    spec: Annotated[PerformerSpec, Field(exclude=True)]
    scoring: bool
    judged: int = 0  # rounds it judges (all of them for a Claude that is not scoring)
    requests: int = 0  # scoring requests before deduplication
    unique: int = 0  # distinct (source, candidate) pairs
    target_words: int = 0  # words of the distinct candidates (+1 each)
    sources: int = 0  # distinct sources of its pairs
    one_best_sources: int = 0  # distinct sources decoded for the 1-best
    one_best_words: int = 0  # their words (+1 each), a stand-in for the tokens decoded
    seconds: Annotated[Seconds | None, Field(exclude_if=_absent)] = None  # estimated (:func:`with_estimate`)


@dataclass
class WorkPlan:
    cells: int
    rounds: int
    judged: int
    instances: int
    plan_seconds: Seconds  # measured: the Johns and Zelligs of this plan, just now
    models: list[ModelWork] = field(default_factory=list)
    estimate: Annotated[Totals | None, Field(exclude_if=_absent)] = None  # :func:`with_estimate`


def is_scoring(spec: PerformerSpec, catalog: Catalog) -> bool:
    cls = resolve("claude", spec.name, catalog)
    return callable(getattr(cls, "score", None)) and callable(getattr(cls, "translate", None))


def count_work(experiment: Experiment, catalog: Catalog, progress: bool = False) -> WorkPlan:
    """Plan ``experiment`` in process (Johns and Zelligs only) and count each Claude model's work."""
    from arena.engine.backends import InProcessBackend
    from arena.engine.manifest import validate
    from arena.engine.plan import plan_experiment
    from arena.record.order import blocks, models

    if experiment.schedule is not None:
        raise ConfigError(f"{experiment.where('schedule')}: a game is planned block by block while it is played; "
                         "--plan counts schedule-less runs only")
    validate(experiment, catalog)
    started = time.process_time()
    backend = InProcessBackend(catalog)
    try:
        rounds = plan_experiment(experiment, catalog, backend, progress)
    finally:
        backend.close()
    plan_seconds = time.process_time() - started
    the_blocks = blocks(experiment, rounds)
    judged = [r for r in rounds if r.judged]
    sources = list(dict.fromkeys(r.instance.source for r in rounds))
    result = WorkPlan(len(the_blocks) * len(experiment.claudes), len(rounds), len(judged),
                      len({(r.john, r.instance.id) for r in rounds}), plan_seconds)
    for model in models(experiment):
        mine = [r for b in the_blocks if b.seed in model.seeds for r in b.judged]
        work = ModelWork(model.name, model.spec, is_scoring(model.spec, catalog), judged=len(mine))
        if work.scoring and experiment.time_budget.claude_seconds_per_pair is None:
            pairs: dict[tuple[str, str], None] = {}  # what ScoreBook deduplicates
            for r in mine:
                if r.status == STATUS_OK:
                    source = r.pair(model.spec.sees_source).source
                    for target in r.candidates or ():
                        work.requests += 1
                        pairs[source, target] = None
            work.unique = len(pairs)
            work.target_words = sum(words(t) for _, t in pairs)
            work.sources = len({s for s, _ in pairs})
            if experiment.discrepancy and model.spec.sees_source:
                work.one_best_sources = len(sources)
                work.one_best_words = sum(words(s) for s in sources)
        result.models.append(work)
    return result


@dataclass
class Estimate:
    """Seconds per part; ``missing`` names the Claudes the calibration does not know."""

    plan: float
    driver: float
    models: dict[str, float]
    missing: list[str]
    units: dict[str, str]  # per model: "CPU" or "GPU"

    @property
    def total(self) -> float:
        return self.plan + self.driver + sum(self.models.values())


@dataclass(frozen=True)
class Totals:
    """What ``--plan --json`` writes of an :class:`Estimate` beside the counts."""

    total_seconds: Seconds
    driver_seconds: Seconds
    uncalibrated: list[str]


def estimate(work: WorkPlan, calibration: Calibration, catalog: Catalog) -> Estimate:
    """Seconds on the calibration's machine: the measured planning, the driver's per-round cost,
    and per model its load plus its words scored and decoded (or rounds judged) at calibrated rates."""
    seconds: dict[str, float] = {}
    units: dict[str, str] = {}
    missing = []
    for model in work.models:
        rates = calibration.claude(claude_key(model.spec, catalog))
        if rates is None:
            missing.append(model.name)
            continue
        units[model.name] = rates.get("unit", "CPU")
        cost = rates.get("load", 0.0)
        if model.scoring:
            cost += model.target_words * rates.get("score_per_word", 0.0)
            cost += model.one_best_words * rates.get("decode_per_word", 0.0)
        else:
            cost += model.judged * rates.get("judge_per_round", 0.0)
        seconds[model.name] = cost
    judged = sum(model.judged for model in work.models)  # the driver's work grows with judgements written
    driver = judged * calibration.driver.per_round + work.cells * calibration.driver.per_cell
    return Estimate(work.plan_seconds, driver, seconds, missing, units)


def with_estimate(work: WorkPlan, result: Estimate | None) -> WorkPlan:
    """The plan with its estimate and each model's seconds, as ``--plan --json`` writes it."""
    if result is None:
        return work
    models = [replace(model, seconds=result.models.get(model.name)) for model in work.models]
    return replace(work, models=models, estimate=Totals(result.total, result.driver, result.missing))
