"""The typed results of a run and their one serialiser.

Everything ``scores.json`` and the leaderboards hold is a frozen dataclass here: a
:class:`Cell` per (John, Zellig, Claude, seed) with its :class:`Summary` (S and every
registered metric, :mod:`arena.stats.registry`), its yield, generative rate,
breakdowns and a game's :class:`Timeline`; S over seeds; paired tests between Claudes
and between Zelligs; the leaderboards (:class:`Leaderboards`) and room for the
surface-cue rows (:class:`CueRow`).  Records carry no behaviour.

:func:`to_json` is the one serialiser (dataclass → JSON value) and :func:`from_json`
its inverse; both follow the field metadata:

- ``key``: the JSON key when it is not the field's name (``yield`` is a keyword);
- ``omit``: ``"none"`` leaves the key out when the value is ``None``, ``"empty"`` when
  it is empty (the key then appears only where it means something);
- ``flatten``: the value's keys are merged into the parent object (a :class:`Summary`
  into its cell; the registered metrics into their summary); ``parse`` then names the
  function that reads them back from the parent object.

The JSON Schema of ``scores.json`` (``docs/scores.schema.json``) is generated from
these classes by :mod:`arena.stats.schema`; :data:`SCHEMA_VERSION` is written into
every ``scores.json``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.stats.aggregate import judged
from arena.stats.registry import MeanStd, MetricValue, parse_means, parse_metric_values

SCHEMA_VERSION = 3  # of scores.json: raise on any change a reader of an older file would trip over
# 3: S (and its CI, the tests and means built on it) counts only the rounds the Claude judged: abstentions and
#    late answers stay in ``rounds``/``resolved_by``; S is null in a cell the Claude judged no round of


def _omit(when: str, empty: Callable[[], Any] = tuple) -> Any:
    """A field left out of the JSON when ``None`` (``when="none"``) or empty (``"empty"``)."""
    if when == "none":
        return field(default=None, metadata={"omit": when})
    return field(default_factory=empty, metadata={"omit": when})


def _flatten(parse: Callable[[Mapping[str, Any]], Any]) -> dict[str, Any]:
    return {"flatten": True, "parse": parse}


def _metrics(data: Mapping[str, Any]) -> tuple[MetricValue, ...]:
    return parse_metric_values(data)


def _means(data: Mapping[str, Any]) -> tuple[MeanStd, ...]:
    return parse_means(data)


# -- scores.json -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Summary:
    """S of a group of rounds with its CI, how the rounds were resolved, and every
    registered metric that is defined on at least one of them.  ``rounds`` counts every round,
    S and ``correct`` only those the Claude judged (:attr:`judged`)."""

    rounds: int
    S: float | None
    S_ci95: tuple[float, float] | None
    correct: int
    resolved_by: Mapping[str, int]
    metrics: tuple[MetricValue, ...] = field(default=(), metadata=_flatten(_metrics))

    @property
    def judged(self) -> int:
        """The rounds S counts: all but those the Claude abstained on or answered late."""
        return self.rounds - sum(n for how, n in self.resolved_by.items() if not judged(how))

    def metric(self, name: str) -> MetricValue | None:
        return next((m for m in self.metrics if m.name == name), None)

    def value(self, name: str) -> float | None:
        found = self.metric(name)
        return found.value if found is not None else None


@dataclass(frozen=True)
class Yield:
    """How many of the John's instances the Zellig applied to, with how many candidates."""

    instances: int
    applicable: int
    share: float | None
    timeouts: int
    mean_candidates: float


@dataclass(frozen=True)
class GenerativeRate:
    """Share of the Claude's 1-best translations of the cell's sources showing the phenomenon."""

    sources: int
    detected: int
    rate: float


@dataclass(frozen=True)
class Window:
    """A window of a game cell's played rounds (1-based, observation phases included)."""

    first: int
    last: int
    rounds: int
    phases: tuple[int, ...]  # indices of the schedule's phases
    counts: bool
    S: float | None
    S_ci95: tuple[float, float] | None


@dataclass(frozen=True)
class Convergence:
    epsilon: float
    final_S: float | None
    rounds: int
    window: int


@dataclass(frozen=True)
class Timeline:
    """S over a game cell's rounds (:mod:`arena.stats.timeline`)."""

    window: int
    windows: tuple[Window, ...]
    convergence: Convergence | None


@dataclass(frozen=True)
class Cell:
    """One (John, Zellig, Claude, seed) of a run."""

    john: str
    zellig: str
    claude: str
    seed: int
    summary: Summary = field(metadata=_flatten(lambda data: from_json(Summary, data)))
    yield_: Yield = field(metadata={"key": "yield"})
    generative_rate: GenerativeRate | None = _omit("none")
    phenomena: Mapping[str, Summary] = field(default_factory=dict)
    by_distance: Mapping[str, Summary] = _omit("empty", dict)
    by_frequency: Mapping[str, Summary] = _omit("empty", dict)
    by_meta: Mapping[str, Mapping[str, Summary]] | None = _omit("none")  # experiment's ``breakdowns``
    observation_rounds: int | None = _omit("none")  # a game only
    timeline: Timeline | None = _omit("none")  # a game only


@dataclass(frozen=True)
class OverSeeds:
    """S (and every registered metric that has them) as mean ± std over seeds."""

    john: str
    zellig: str
    claude: str
    seeds: int
    S_mean: float | None  # None: the Claude judged no round of any seed
    S_std: float | None
    metrics: tuple[MeanStd, ...] = field(default=(), metadata=_flatten(_means))


@dataclass(frozen=True)
class Bootstrap:
    """A paired bootstrap (Koehn 2004): ``delta`` = rate(a) − rate(b), its 95% interval, p."""

    delta: float
    low: float
    high: float
    p_value: float
    n: int


@dataclass(frozen=True)
class ClaudePair:
    """Two Claudes compared on the same rounds of one (John, Zellig, seed)."""

    john: str
    zellig: str
    seed: int
    a: str
    b: str
    test: Bootstrap = field(metadata=_flatten(lambda data: from_json(Bootstrap, data)))


@dataclass(frozen=True)
class ZelligPair:
    """Two Zelligs compared on the instances both apply to, for one (John, Claude, seed)."""

    john: str
    claude: str
    seed: int
    a: str
    b: str
    test: Bootstrap = field(metadata=_flatten(lambda data: from_json(Bootstrap, data)))


@dataclass(frozen=True)
class Paired:
    claudes: tuple[ClaudePair, ...]
    zelligs: tuple[ZelligPair, ...]


@dataclass(frozen=True)
class CueRow:
    """How well a surface cue (a Claude that sees no translation model) solves a cell's
    pairs, out of fold; a result the cue explains is reported as confounded."""

    john: str
    zellig: str
    seed: int
    cue: str
    rounds: int
    accuracy: float | None
    accuracy_ci95: tuple[float, float] | None
    confounded: bool | None


@dataclass(frozen=True)
class Scores:
    """What ``scores.json`` holds (always derived from the transcripts)."""

    signature: str
    contrastive_ties: str
    cells: tuple[Cell, ...]
    over_seeds: tuple[OverSeeds, ...]
    paired: Paired
    cues: tuple[CueRow, ...] = _omit("empty")
    signatures: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION


# -- the one serialiser ----------------------------------------------------------------------

def to_json(value: Any) -> Any:
    """A typed result as JSON values (dicts in field order, tuples as lists)."""
    if hasattr(value, "__json__"):
        return value.__json__()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for item in dataclasses.fields(value):
            content = getattr(value, item.name)
            omit = item.metadata.get("omit")
            if (omit == "none" and content is None) or (omit == "empty" and not content):
                continue
            if item.metadata.get("flatten"):
                parts = content if isinstance(content, tuple) else (content,)
                for part in parts:
                    out.update(to_json(part))
                continue
            out[item.metadata.get("key", item.name)] = to_json(content)
        return out
    if isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    return value


def from_json(cls: type, data: Mapping[str, Any]) -> Any:
    """Read a typed result back from what :func:`to_json` wrote."""
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for item in dataclasses.fields(cls):
        if item.metadata.get("flatten"):
            kwargs[item.name] = item.metadata["parse"](data)
            continue
        key = item.metadata.get("key", item.name)
        if key in data:
            kwargs[item.name] = _parse(hints[item.name], data[key])
    return cls(**kwargs)


def _parse(kind: Any, value: Any) -> Any:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        kind = next(arg for arg in args if arg is not type(None))
        origin, args = typing.get_origin(kind), typing.get_args(kind)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return from_json(kind, value)
    if origin is tuple:
        inner = args[0] if len(args) == 2 and args[1] is Ellipsis else Any
        return tuple(_parse(inner, item) for item in value)
    if origin in (dict, Mapping, typing.Mapping) or kind is Mapping:
        inner = args[1] if args else Any
        return {key: _parse(inner, item) for key, item in value.items()}
    return value
