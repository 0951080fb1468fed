"""The metric registry: a per-round metric is declared once here and appears everywhere.

A :class:`Metric` is a per-round value (``None`` where it is not defined, e.g.
contrastive accuracy for a Claude that gives no scores) and how to show it.  Every
registered metric is computed for every group of rounds the arena summarises and
shows up, without further edits, in

- ``scores.json``: each cell and breakdown bucket as ``NAME`` (and ``NAME_ci95`` with
  ``ci``), over seeds as ``NAME_mean``/``NAME_std`` (with ``over_seeds``);
- the console tables (``arena run``, ``arena score``: column ``short``) and the
  Markdown/HTML report (column ``label``; :mod:`arena.present`);
- the tidy exports (``arena export``: columns ``NAME``, ``NAME_low``, ``NAME_high``);
- the leaderboards (with ``leaderboard``: each entry, and a column of the Claudes' board).

A metric with ``ci`` is the pooled rate over instances (``Σ values / Σ rounds``, like S)
with a 95% bootstrap CI resampling instances; one without is the plain mean of its
per-round values; one with ``aggregate`` is computed by it from the defined rounds' instances,
S values and per-round values (``s_net_of_cues``: S stratified by a cue, :mod:`arena.stats.cue_strata`),
and may be undefined with a reason (``NAME_note``).  A metric appears in a summary only when at
least one round defines it.

To add one, call :func:`register` (or add it to :data:`BUILTIN` below); ``docs/metrics.md``
shows the diff of a metric added in one file.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import model_serializer

from arena.stats.aggregate import Outcome, Tally, accurate, correct, discrepancy, instance_key, mean_std
from arena.stats.stratify import stratified
from arena.stats.typed import INTERVAL

if TYPE_CHECKING:
    from arena.stats.cue_strata import Strata

# -- the registered metrics of a group of rounds ---------------------------------------------

@dataclass(frozen=True)
class MetricValue:
    """One registered metric of a group of rounds: its value, its 95% CI where the metric
    has one (``with_ci``) and the counts it writes next to it (accuracy: ``ties``)."""

    name: str
    value: float | None
    ci95: tuple[float, float] | None = None
    with_ci: bool = False
    counts: tuple[tuple[str, int], ...] = ()
    note: str | None = None  # why the value is undefined (a metric with ``aggregate``)

    @model_serializer
    def _keys(self) -> dict[str, Any]:
        """Its keys in a summary: ``NAME`` (``NAME_ci95`` with a CI, the counts, ``NAME_note``)."""
        entry: dict[str, Any] = {self.name: self.value}
        if self.with_ci:
            entry[f"{self.name}_ci95"] = self.ci95
        entry.update(self.counts)
        if self.note is not None:
            entry[f"{self.name}_note"] = self.note
        return entry

    @staticmethod
    def parse_flat(data: Mapping[str, Any]) -> tuple[MetricValue, ...]:
        return parse_metric_values(data)

    @staticmethod
    def flat_properties() -> dict[str, Any]:
        """The JSON Schema of the keys of the metrics registered now, in a summary."""
        properties: dict[str, Any] = {}
        for metric in metrics():
            properties[metric.name] = {"type": ["number", "null"], "description": metric.description}
            if metric.ci:
                properties[f"{metric.name}_ci95"] = {"anyOf": [INTERVAL, {"type": "null"}]}
            for key in metric.counts:
                properties[key] = {"type": "integer"}
            if metric.aggregate is not None:
                properties[f"{metric.name}_note"] = {"type": "string", "description": "why the value is undefined"}
        return properties


@dataclass(frozen=True)
class MeanStd:
    """A registered metric over seeds: mean and sample standard deviation of the per-seed values."""

    name: str
    mean: float
    std: float

    @model_serializer
    def _keys(self) -> dict[str, Any]:
        """Its keys over seeds: ``NAME_mean`` and ``NAME_std``."""
        return {f"{self.name}_mean": self.mean, f"{self.name}_std": self.std}

    @staticmethod
    def parse_flat(data: Mapping[str, Any]) -> tuple[MeanStd, ...]:
        return parse_means(data)

    @staticmethod
    def flat_properties() -> dict[str, Any]:
        """The JSON Schema of the keys over seeds of the metrics registered now."""
        properties: dict[str, Any] = {}
        for metric in metrics():
            if metric.over_seeds:
                properties[f"{metric.name}_mean"] = {"type": "number", "description": f"{metric.name} over seeds"}
                properties[f"{metric.name}_std"] = {"type": "number"}
        return properties


@dataclass(frozen=True)
class Context:
    """What a per-round value may depend on besides the round: the run's policies."""

    ties: str = "wrong"  # contrastive tie policy: wrong, correct or half
    # round id -> its stratum under the strongest strong nuisance cue (arena/stats/cue_strata.py)
    cue_strata: Mapping[str, float] | Strata = field(default_factory=dict)


@dataclass(frozen=True)
class Metric:
    name: str  # key in scores.json and column of the exports
    label: str  # column header in the Markdown/HTML report
    short: str  # column header on the console
    value: Callable[[Outcome, Context], float | None]  # per round; None where undefined
    description: str
    ci: bool = True  # pooled over instances with a bootstrap CI (else the plain mean)
    leaderboard: bool = True  # in the leaderboard entries and the Claudes' board
    over_seeds: bool = True  # mean ± std over seeds
    counts: Mapping[str, Callable[[Sequence[Outcome]], int]] = field(default_factory=dict)  # written beside it
    # (instance keys, S values, per-round values, bootstrap samples) of the defined rounds the Claude judged -> (value, CI,
    # why undefined); replaces the pooled rate
    aggregate: Callable[[Sequence[Hashable], np.ndarray, np.ndarray, int],
                        tuple[float | None, tuple[float, float] | None, str | None]] | None = None
    uses_cue_strata: bool = False  # reads Context.cue_strata (computed only when a registered metric does)

    def summarise(self, outcomes: Sequence[Outcome], context: Context, samples: int) -> MetricValue | None:
        """The metric of a group of rounds; ``None`` when no round defines it."""
        if self.aggregate is not None:
            defined = [(o, s, v) for o in outcomes
                       if (v := self.value(o, context)) is not None and (s := correct(o)) is not None]
            if not defined:
                return None
            value, ci95, note = self.aggregate([instance_key(o) for o, _, _ in defined],
                                               np.array([s for _, s, _ in defined], dtype=float),
                                               np.array([v for _, _, v in defined], dtype=float), samples)
            return MetricValue(self.name, value, ci95, self.ci, (), note)
        if self.ci:
            tally = Tally.of(outcomes, lambda o: self.value(o, context))
            if not tally.rounds:
                return None
            value, ci95 = tally.rate(), tally.ci(samples)
        else:
            values = [v for v in (self.value(o, context) for o in outcomes) if v is not None]
            if not values:
                return None
            value, ci95 = float(np.mean(values)), None
        counts = tuple((key, count(outcomes)) for key, count in self.counts.items())
        return MetricValue(self.name, value, ci95, self.ci, counts)


def _ties(outcomes: Sequence[Outcome]) -> int:
    return sum(1 for o in outcomes if o.scores is not None and o.scores[0] == o.scores[1])


BUILTIN: tuple[Metric, ...] = (
    Metric(
        "s_net_of_cues", "S net of cues", "S net", lambda o, context: context.cue_strata.get(o.round.id),
        "S net of cues: the mean of S over the pairs the strongest strong nuisance cue (length) gets right and "
        "over those it gets wrong (ties split evenly), each stratum weighted equally, so the cue sits at chance; "
        "only rounds of tables with such a cue (>= 30 pairs); undefined (NAME_note) when a stratum has < 10 pairs",
        aggregate=stratified, uses_cue_strata=True,
    ),
    Metric(
        "accuracy", "accuracy", "acc", lambda o, context: accurate(context.ties)(o),
        "contrastive accuracy: share of rounds whose correct candidate scores higher than the corrupted one "
        "(ties by the experiment's contrastive_ties policy); scoring Claudes only",
        counts={"ties": _ties},
    ),
    Metric(
        "discrepancy", "discrepancy", "discr", lambda o, context: discrepancy(o),
        "distributional discrepancy (Vamvas & Sennrich 2021): mean of max(0, s(1-best) - max(s(correct), "
        "s(corrupted))) with the Claude's own beam-5 translation",
        ci=False, leaderboard=False, over_seeds=False,
    ),
)

_METRICS: dict[str, Metric] = {metric.name: metric for metric in BUILTIN}

# keys a summary holds besides its metrics; a metric may not take them
RESERVED = frozenset({"rounds", "S", "S_ci95", "correct", "resolved_by", "instances", "seeds", "S_mean", "S_std",
                      "john", "zellig", "claude", "seed", "yield", "generative_rate", "phenomena", "by_distance",
                      "by_frequency", "by_meta", "observation_rounds", "timeline", "rank", "vs_next"})


def register(metric: Metric) -> Metric:
    """Add a metric (or replace one of the same name); returns it."""
    taken = {metric.name, f"{metric.name}_ci95", *metric.counts}
    if taken & RESERVED:
        raise ValueError(f"metric {metric.name!r}: {sorted(taken & RESERVED)[0]!r} is a reserved key of scores.json")
    _METRICS[metric.name] = metric
    return metric


def unregister(name: str) -> None:
    """Remove a registered metric (the built-ins included)."""
    _METRICS.pop(name, None)


def metrics() -> tuple[Metric, ...]:
    """The registered metrics, in registration order."""
    return tuple(_METRICS.values())


def uses_cue_strata(only: Sequence[Metric] | None = None) -> bool:
    """Whether a registered metric (or one of ``only``) reads the cue strata."""
    return any(m.uses_cue_strata for m in (metrics() if only is None else only))


def leaderboard_metrics() -> tuple[Metric, ...]:
    return tuple(m for m in _METRICS.values() if m.leaderboard)


def summarise(outcomes: Sequence[Outcome], context: Context, samples: int,
              only: Sequence[Metric] | None = None) -> tuple[MetricValue, ...]:
    """Every registered metric (or those of ``only``) defined on the group of rounds."""
    values = (metric.summarise(outcomes, context, samples) for metric in (metrics() if only is None else only))
    return tuple(value for value in values if value is not None)


def over_seeds(per_seed: Sequence[Sequence[MetricValue]]) -> tuple[MeanStd, ...]:
    """Mean ± std over seeds of every ``over_seeds`` metric that some seed defines."""
    result = []
    for metric in metrics():
        if not metric.over_seeds:
            continue
        values = [v.value for seed in per_seed for v in seed if v.name == metric.name and v.value is not None]
        if values:
            result.append(MeanStd(metric.name, *mean_std(values)))
    return tuple(result)


def parse_metric_values(data: Mapping[str, object]) -> tuple[MetricValue, ...]:
    """The registered metrics of a summary read back from ``scores.json``."""
    result = []
    for metric in metrics():
        if metric.name not in data:
            continue
        ci95 = data.get(f"{metric.name}_ci95") if metric.ci else None
        counts = tuple((key, int(data[key])) for key in metric.counts if key in data)  # type: ignore[call-overload]
        note = data.get(f"{metric.name}_note")
        result.append(MetricValue(metric.name, data[metric.name], tuple(ci95) if ci95 else None,  # type: ignore[arg-type]
                                  metric.ci, counts, None if note is None else str(note)))
    return tuple(result)


def parse_means(data: Mapping[str, object]) -> tuple[MeanStd, ...]:
    return tuple(MeanStd(m.name, data[f"{m.name}_mean"], data[f"{m.name}_std"])  # type: ignore[arg-type]
                 for m in metrics() if f"{m.name}_mean" in data)
