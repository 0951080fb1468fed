"""Units of work a tournament sends to an executor, and the one function that runs them.

A job names the performers it needs by their :class:`~arena.spec.PerformerSpec` (never
the performers themselves), so a Ray worker builds them from their specs where it
runs and weights never cross the wire.  :func:`run` (with :func:`run_job` for one
Claude) is the only code that touches a performer; the in-process backend and the
Ray workers both call it, which is why the two give byte-identical transcripts: the
same jobs, cut the same way, reach the same code.

Zellig jobs carry a *group* of Zelligs (those with the same Ray resources) and one
chunk of inputs, so the Zelligs of a group share whatever their process caches per
sentence (the German analysis layer analyses each sentence once for all of them).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena import match
from arena.records import Instance, RoundOutcome
from arena.registry import Catalog, build
from arena.roles import Observer
from arena.spec import PerformerSpec

logger = logging.getLogger(__name__)

CONVENTIONS = ("mean", "sum")


@dataclass(frozen=True)
class CorruptJob:
    """Run each of a group of Zelligs on a chunk of one John's instances (a CPU task);
    the answer is one list of :class:`~arena.match.Corruption` per Zellig."""

    zelligs: tuple[PerformerSpec, ...]
    instances: tuple[Instance, ...]
    seconds: float | None = None

    role = "zellig"

    @property
    def spec(self) -> PerformerSpec:
        """The Zellig whose Ray resources the task takes (all of the group share them)."""
        return self.zelligs[0]


@dataclass(frozen=True)
class DetectJob:
    """Ask each of a group of Zelligs' detectors about a chunk of 1-best translations
    (a CPU task); the answer per Zellig is a list of verdicts, or ``None`` when that
    Zellig has no detector."""

    zelligs: tuple[PerformerSpec, ...]
    texts: tuple[str, ...]
    sources: tuple[str, ...]

    role = "zellig"

    @property
    def spec(self) -> PerformerSpec:
        return self.zelligs[0]


@dataclass(frozen=True)
class DescribeJob:
    """What kind of Claude a spec builds: can it score, translate, which convention."""

    claude: PerformerSpec

    role = "claude"

    @property
    def spec(self) -> PerformerSpec:
        return self.claude


@dataclass(frozen=True)
class JudgeJob:
    """Judge one cell's rounds with ``judge`` (Claudes that do not score, or runs with
    a Claude time budget); the answer is the resolved judgement records."""

    claude: PerformerSpec
    label: str
    rounds: tuple[match.Round, ...]
    seconds_per_pair: float | None = None

    role = "claude"

    @property
    def spec(self) -> PerformerSpec:
        return self.claude


@dataclass(frozen=True)
class ScoreJob:
    """Score a chunk of deduplicated (source, target) requests: ``(logprob, tokens)`` each."""

    claude: PerformerSpec
    sources: tuple[str, ...]
    targets: tuple[str, ...]

    role = "claude"

    @property
    def spec(self) -> PerformerSpec:
        return self.claude


@dataclass(frozen=True)
class TranslateJob:
    """1-best translations of a chunk of sources and their scores: ``(text, logprob, tokens)``."""

    claude: PerformerSpec
    sources: tuple[str, ...]
    beam: int = 5

    role = "claude"

    @property
    def spec(self) -> PerformerSpec:
        return self.claude


@dataclass(frozen=True)
class ObserveJob:
    """Hand an observing Claude what it may see of a block of a game (``observe``)."""

    claude: PerformerSpec
    outcomes: tuple[RoundOutcome, ...]

    role = "claude"

    @property
    def spec(self) -> PerformerSpec:
        return self.claude


Job = CorruptJob | DetectJob | DescribeJob | JudgeJob | ScoreJob | TranslateJob | ObserveJob


@dataclass(frozen=True)
class ClaudeKind:
    """What :class:`DescribeJob` finds out about a Claude.

    ``scores``: it offers ``score(sources, targets)`` and judges by comparing those
    scores in its ``convention``, so the tournament may score deduplicated requests
    and derive the judgements (see :mod:`arena.tournament.scoring`).  ``translates``:
    it also offers ``translate`` (1-best decoding for discrepancy and generative rate).
    """

    scores: bool
    translates: bool
    convention: str = "mean"
    observes: bool = False  # it learns from outcomes during a game (arena.roles.Observer)


def spec_key(role: str, spec: PerformerSpec) -> str:
    """A stable key of a performer: role, name, params (replica-resolved), alias."""
    return json.dumps([role, spec.to_json()], sort_keys=True, ensure_ascii=False, default=str)


def describe(performer: Any) -> ClaudeKind:
    convention = str(getattr(performer, "convention", "mean"))
    scores = callable(getattr(performer, "score", None)) and convention in CONVENTIONS
    # a Claude may opt out of judgement-from-scores (e.g. a calibrated judge)
    scores = scores and bool(getattr(performer, "judges_by_score", True))
    return ClaudeKind(
        scores=scores, translates=match.is_scoring(performer), convention=convention,
        observes=isinstance(performer, Observer),
    )


def detect_all(zellig: Any, texts: Sequence[str], sources: Sequence[str]) -> list[bool] | None:
    """A Zellig's detector on each text (``None`` when it has none)."""
    if not callable(getattr(zellig, "detect", None)):
        return None
    return [bool(match._detect(zellig, text, source)) for text, source in zip(texts, sources)]


def run(job: Job, performer: Callable[[str, PerformerSpec], Any]) -> Any:
    """Run a job, getting each performer it names from ``performer(role, spec)``; the
    result is plain, picklable data."""
    if isinstance(job, CorruptJob):
        return [match.corrupt_all(performer("zellig", z), job.instances, job.seconds) for z in job.zelligs]
    if isinstance(job, DetectJob):
        return [detect_all(performer("zellig", z), job.texts, job.sources) for z in job.zelligs]
    return run_job(performer(job.role, job.spec), job)


def run_job(performer: Any, job: Job) -> Any:
    """Run one Claude job on a built Claude."""
    if isinstance(job, DescribeJob):
        return describe(performer)
    if isinstance(job, ObserveJob):
        performer.observe(list(job.outcomes))
        return None
    if isinstance(job, JudgeJob):
        return match.judge_rounds(
            performer, job.label, job.rounds, job.seconds_per_pair,
            sees_source=job.claude.sees_source, sees_metadata=job.claude.sees_metadata,
        )
    if isinstance(job, ScoreJob):
        scores = performer.score(list(job.sources), list(job.targets))
        if len(scores) != len(job.targets):
            raise ValueError(f"Claude {job.claude.label} returned {len(scores)} scores for {len(job.targets)} targets")
        return [(float(s.logprob), int(s.tokens)) for s in scores]
    if isinstance(job, TranslateJob):
        translations = performer.translate(list(job.sources), beam=job.beam)
        if len(translations) != len(job.sources):
            raise ValueError(
                f"Claude {job.claude.label} returned {len(translations)} translations for {len(job.sources)} sources"
            )
        scores = performer.score(list(job.sources), translations)
        return [(t, float(s.logprob), int(s.tokens)) for t, s in zip(translations, scores)]
    raise TypeError(f"unknown job {type(job).__name__}")


class PerformerCache:
    """Performers built from specs, once per process (a Ray worker keeps its Zelligs
    between tasks; the in-process backend keeps everything until released)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self._built: dict[str, Any] = {}

    def get(self, role: str, spec: PerformerSpec) -> Any:
        key = spec_key(role, spec)
        if key not in self._built:
            logger.info("building %s %s", role, spec.label)
            self._built[key] = build(role, spec, self.catalog, where=f"{role} {spec.label}")
        return self._built[key]

    def run(self, job: Job) -> Any:
        return run(job, self.get)

    def release(self, role: str, spec: PerformerSpec) -> None:
        self._built.pop(spec_key(role, spec), None)

    def clear(self) -> None:
        self._built.clear()


def zellig_groups(zelligs: Sequence[PerformerSpec]) -> list[tuple[PerformerSpec, ...]]:
    """Zelligs with the same Ray ``resources``, in config order: one task per group and chunk."""
    groups: dict[str, list[PerformerSpec]] = {}
    for zellig in zelligs:
        groups.setdefault(json.dumps(dict(zellig.resources), sort_keys=True, default=str), []).append(zellig)
    return [tuple(group) for group in groups.values()]


def chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    """Consecutive chunks of at most ``size`` items."""
    size = max(1, int(size))
    return [items[start : start + size] for start in range(0, len(items), size)]
