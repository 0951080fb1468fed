"""The typed results of a run.

Everything ``scores.json`` and the leaderboards hold is a frozen dataclass here: a
:class:`Cell` per (John, Zellig, Claude, seed) with its :class:`Summary` (S and every
registered metric, :mod:`arena.stats.registry`), its yield, generative rate,
breakdowns and a game's :class:`Timeline`; S over seeds; paired tests between Claudes
and between Zelligs; the leaderboards (:class:`Leaderboards`) and room for the
surface-cue rows (:class:`CueRow`).  Records carry no behaviour.

pydantic serialises, reads and describes them (:func:`arena.codec.dump`,
:func:`load`, :func:`~arena.stats.typed.schema`), following the field annotations: a
key that is not the field's name (``yield`` is a keyword), keys left out when ``None``
(``OMIT_NONE``) or empty (``OMIT_EMPTY``), and values whose keys are merged into the
parent object (``FLAT``: a :class:`Summary` into its cell, the registered metrics into
their summary).  ``scores.json`` is ``json.dumps(dump(scores), ensure_ascii=False,
indent=2)``, written by :func:`write_scores` and read back, validated, by :func:`read_scores`
(the one reader: a run's scores are handed out typed); its JSON Schema (``docs/scores.schema.json``) is generated from these
classes by :mod:`arena.stats.schema`; :data:`SCHEMA_VERSION` is written into every
``scores.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from pydantic import Field

from arena.codec import dump, load
from arena.errors import DataError
from arena.record import transcripts
from arena.stats.aggregate import judged
from arena.stats.registry import MeanStd, MetricValue
from arena.stats.typed import FLAT, OMIT_EMPTY, OMIT_NONE, Result

__all__ = ["SCHEMA_VERSION", "Summary", "Yield", "GenerativeRate", "Window", "Convergence", "Timeline", "Cell",
           "OverSeeds", "Bootstrap", "ClaudePair", "ZelligPair", "Paired", "CueRow", "Scores", "dump", "load",
           "read_scores", "write_scores"]

SCHEMA_VERSION = 3  # of scores.json: raise on any change a reader of an older file would trip over
# 3: S (and its CI, the tests and means built on it) counts only the rounds the Claude judged: abstentions and
#    late answers stay in ``rounds``/``resolved_by``; S is null in a cell the Claude judged no round of


# -- scores.json -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Summary(Result):
    """S of a group of rounds with its CI, how the rounds were resolved, and every
    registered metric that is defined on at least one of them.  ``rounds`` counts every round,
    S and ``correct`` only those the Claude judged (:attr:`judged`)."""

    rounds: int
    S: float | None
    S_ci95: tuple[float, float] | None
    correct: int
    resolved_by: Mapping[str, int]
    metrics: tuple[MetricValue, ...] = field(default=(), metadata=FLAT)

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
class Yield(Result):
    """How many of the John's instances the Zellig applied to, with how many candidates."""

    instances: int
    applicable: int
    share: float | None
    timeouts: int
    mean_candidates: float


@dataclass(frozen=True)
class GenerativeRate(Result):
    """Share of the Claude's 1-best translations of the cell's sources showing the phenomenon."""

    sources: int
    detected: int
    rate: float


@dataclass(frozen=True)
class Window(Result):
    """A window of a game cell's played rounds (1-based, observation phases included)."""

    first: int
    last: int
    rounds: int
    phases: tuple[int, ...]  # indices of the schedule's phases
    counts: bool
    S: float | None
    S_ci95: tuple[float, float] | None


@dataclass(frozen=True)
class Convergence(Result):
    epsilon: float
    final_S: float | None
    rounds: int
    window: int


@dataclass(frozen=True)
class Timeline(Result):
    """S over a game cell's rounds (:mod:`arena.stats.timeline`)."""

    window: int
    windows: tuple[Window, ...]
    convergence: Convergence | None


@dataclass(frozen=True)
class Cell(Result):
    """One (John, Zellig, Claude, seed) of a run."""

    john: str
    zellig: str
    claude: str
    seed: int
    summary: Summary = field(metadata=FLAT)
    yield_: Annotated[Yield, Field(alias="yield")]
    generative_rate: Annotated[GenerativeRate | None, OMIT_NONE] = None
    phenomena: Mapping[str, Summary] = field(default_factory=dict)
    by_distance: Annotated[Mapping[str, Summary], OMIT_EMPTY] = field(default_factory=dict)
    by_frequency: Annotated[Mapping[str, Summary], OMIT_EMPTY] = field(default_factory=dict)
    by_meta: Annotated[Mapping[str, Mapping[str, Summary]] | None, OMIT_NONE] = None  # experiment's ``breakdowns``
    observation_rounds: Annotated[int | None, OMIT_NONE] = None  # a game only
    timeline: Annotated[Timeline | None, OMIT_NONE] = None  # a game only


@dataclass(frozen=True)
class OverSeeds(Result):
    """S (and every registered metric that has them) as mean ± std over seeds."""

    john: str
    zellig: str
    claude: str
    seeds: int
    S_mean: float | None  # None: the Claude judged no round of any seed
    S_std: float | None
    metrics: tuple[MeanStd, ...] = field(default=(), metadata=FLAT)


@dataclass(frozen=True)
class Bootstrap(Result):
    """A paired bootstrap (Koehn 2004): ``delta`` = rate(a) − rate(b), its 95% interval, p."""

    delta: float
    low: float
    high: float
    p_value: float
    n: int


@dataclass(frozen=True)
class ClaudePair(Result):
    """Two Claudes compared on the same rounds of one (John, Zellig, seed)."""

    john: str
    zellig: str
    seed: int
    a: str
    b: str
    test: Bootstrap = field(metadata=FLAT)


@dataclass(frozen=True)
class ZelligPair(Result):
    """Two Zelligs compared on the instances both apply to, for one (John, Claude, seed)."""

    john: str
    claude: str
    seed: int
    a: str
    b: str
    test: Bootstrap = field(metadata=FLAT)


@dataclass(frozen=True)
class Paired(Result):
    claudes: tuple[ClaudePair, ...]
    zelligs: tuple[ZelligPair, ...]


@dataclass(frozen=True)
class CueRow(Result):
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
class Scores(Result):
    """What ``scores.json`` holds (always derived from the transcripts)."""

    signature: str
    contrastive_ties: str
    cells: tuple[Cell, ...]
    over_seeds: tuple[OverSeeds, ...]
    paired: Paired
    cues: Annotated[tuple[CueRow, ...], OMIT_EMPTY] = ()
    signatures: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    schema_version: Annotated[int, Field(json_schema_extra={"const": SCHEMA_VERSION})] = SCHEMA_VERSION


def read_scores(run_dir: str | Path) -> Scores:
    """``scores.json`` of a run directory as typed results, the one reader of the file (:attr:`arena.api.Run.scores`,
    the reports and exports, the verbs); one that is not JSON or does not fit is a
    :class:`~arena.errors.DataError` naming the file and the line or the first key that does not fit (keys this
    arena does not know, e.g. of a metric no longer registered, are ignored)."""
    path = Path(run_dir) / transcripts.SCORES
    data = transcripts.read_json(path)
    try:
        return load(Scores, data)
    except DataError as error:
        raise DataError(f"not the scores of a run ({error.message}); re-derive it with 'arena score RUN'",
                        file=str(path), key=error.key) from None


def write_scores(run_dir: str | Path, scores: Scores) -> None:
    """Write ``scores.json`` (the finished marker) into a run directory, atomically: ``scores`` as the one
    serialiser gives their JSON values (:func:`arena.codec.dump`)."""
    transcripts.atomic_write_json(Path(run_dir) / transcripts.SCORES, dump(scores))
