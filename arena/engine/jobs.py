"""Units of work the engine sends to a backend, and the one function that runs them.

A job names the performers it needs by their :class:`~arena.specs.spec.PerformerSpec` (never
the performers themselves), so a Ray worker builds them from their specs where it
runs and weights never cross the wire.  :func:`run` (with :func:`run_claude_job` for
one built Claude) is the only code that touches a performer; the in-process backend
and the Ray workers both call it, which is why the two give byte-identical
transcripts: the same jobs, cut the same way, reach the same code.

Zellig jobs carry a *group* of Zelligs (those with the same Ray resources) and one
chunk of inputs, so the Zelligs of a group share whatever their process caches per
sentence (the German analysis layer analyses each sentence once for all of them).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from arena.codec import dump
from arena.engine import match
from arena.record.rounds import Round
from arena.record.scoring_rule import SCORE_CONVENTIONS
from arena.records import Instance, RoundOutcome
from arena.roles import Claude, ConditionalDetector, Detector, Observer, ScoringClaude, Zellig
from arena.specs.registry import Catalog, build
from arena.specs.spec import PerformerSpec

logger = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class CorruptJob:
    """Run each of a group of Zelligs on a chunk of one John's instances (a CPU task);
    the answer is one list of :class:`~arena.engine.match.Corruption` per Zellig."""

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
    Zellig is no :class:`~arena.roles.Detector`."""

    zelligs: tuple[PerformerSpec, ...]
    texts: tuple[str, ...]
    sources: tuple[str, ...]

    role = "zellig"

    @property
    def spec(self) -> PerformerSpec:
        return self.zelligs[0]


@dataclass(frozen=True)
class DescribeJob:
    """What kind of Claude a spec builds: the answer is a :class:`ClaudeKind`."""

    spec: PerformerSpec

    role = "claude"


@dataclass(frozen=True)
class JudgeJob:
    """Judge one cell's rounds with ``judge`` (Claudes that do not score, or runs with
    a Claude time budget); the answer is the resolved judgement records."""

    spec: PerformerSpec
    label: str
    rounds: tuple[Round, ...]
    seconds_per_pair: float | None = None

    role = "claude"


@dataclass(frozen=True)
class ScoreJob:
    """Score a chunk of deduplicated (source, target) requests: ``(logprob, tokens)`` each."""

    spec: PerformerSpec
    sources: tuple[str, ...]
    targets: tuple[str, ...]

    role = "claude"


@dataclass(frozen=True)
class TranslateJob:
    """1-best translations of a chunk of sources and their scores: ``(text, logprob, tokens)``."""

    spec: PerformerSpec
    sources: tuple[str, ...]
    beam: int = 5

    role = "claude"


@dataclass(frozen=True)
class ObserveJob:
    """Hand an observing Claude what it may see of a block of a game (``observe``)."""

    spec: PerformerSpec
    outcomes: tuple[RoundOutcome, ...]

    role = "claude"


Job = CorruptJob | DetectJob | DescribeJob | JudgeJob | ScoreJob | TranslateJob | ObserveJob
ClaudeJob = DescribeJob | JudgeJob | ScoreJob | TranslateJob | ObserveJob  # the jobs a Claude runs


@dataclass(frozen=True)
class ClaudeKind:
    """What :class:`DescribeJob` finds out about a Claude: whether it is a
    :class:`~arena.roles.ScoringClaude` (the engine then scores deduplicated requests,
    derives the judgements and decodes 1-bests) and in which convention it judges."""

    scoring: bool
    convention: str = "mean"
    observes: bool = False  # it learns from outcomes during a game (arena.roles.Observer)


def spec_key(role: str, spec: PerformerSpec) -> str:
    """A stable key of a performer: role, name, params (replica-resolved), alias."""
    return json.dumps([role, dump(spec)], sort_keys=True, ensure_ascii=False, default=str)


def describe(claude: Claude, label: str) -> ClaudeKind:
    if not isinstance(claude, ScoringClaude):
        return ClaudeKind(scoring=False, observes=isinstance(claude, Observer))
    if claude.convention not in SCORE_CONVENTIONS:
        raise ValueError(
            f"Claude {label}: convention must be one of {', '.join(SCORE_CONVENTIONS)}, not {claude.convention!r}"
        )
    return ClaudeKind(scoring=True, convention=claude.convention, observes=isinstance(claude, Observer))


def detect_all(
    zellig: Zellig, texts: Sequence[str], sources: Sequence[str | None]
) -> list[bool | None] | None:
    """A Zellig's detector on each text (``None`` when it is no detector); a text whose source a
    :class:`~arena.roles.ConditionalDetector` does not apply to gets ``None`` instead of a verdict."""
    if not isinstance(zellig, Detector):
        return None
    if isinstance(zellig, ConditionalDetector):
        return [bool(zellig.detect(text, source=source)) if zellig.applies(source) else None
                for text, source in zip(texts, sources)]
    return [bool(zellig.detect(text, source=source)) for text, source in zip(texts, sources)]


def _checked(results: list[T], expected: int, what: str, label: str) -> list[T]:
    if not isinstance(results, list) or len(results) != expected:
        got = len(results) if isinstance(results, list) else type(results).__name__
        raise ValueError(f"Claude {label} returned {got} {what} for {expected} inputs")
    return results


def run(job: Job, performer: Callable[[str, PerformerSpec], Any]) -> Any:
    """Run a job, getting each performer it names from ``performer(role, spec)``; the
    result is plain, picklable data."""
    if isinstance(job, CorruptJob):
        return [match.corrupt_all(performer("zellig", z), job.instances, job.seconds) for z in job.zelligs]
    if isinstance(job, DetectJob):
        return [detect_all(performer("zellig", z), job.texts, job.sources) for z in job.zelligs]
    return run_claude_job(performer("claude", job.spec), job)


def run_claude_job(claude: Claude, job: ClaudeJob) -> Any:
    """Run one Claude job on a built Claude."""
    label = job.spec.label
    if isinstance(job, DescribeJob):
        return describe(claude, label)
    if isinstance(job, ObserveJob):
        if not isinstance(claude, Observer):
            raise TypeError(f"Claude {label} does not observe")
        claude.observe(list(job.outcomes))
        return None
    if isinstance(job, JudgeJob):
        return match.judge_rounds(
            claude, job.label, job.rounds, job.seconds_per_pair,
            sees_source=job.spec.sees_source, sees_metadata=job.spec.sees_metadata,
        )
    if not isinstance(claude, ScoringClaude):
        raise TypeError(f"Claude {label} cannot score or translate (it is no ScoringClaude)")
    if isinstance(job, ScoreJob):
        scores = _checked(claude.score(list(job.sources), list(job.targets)), len(job.targets), "scores", label)
        return [(float(s.logprob), int(s.tokens)) for s in scores]
    translations = _checked(claude.translate(list(job.sources), beam=job.beam), len(job.sources), "translations", label)
    scores = _checked(claude.score(list(job.sources), translations), len(translations), "scores", label)
    return [(t, float(s.logprob), int(s.tokens)) for t, s in zip(translations, scores)]


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


def chunks(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """Consecutive chunks of at most ``size`` items."""
    size = max(1, int(size))
    return [items[start : start + size] for start in range(0, len(items), size)]
