"""The match loop (Smith 2012, §3): John's instances → every Zellig's candidates →
k sampled variants per (instance, Zellig) → random order per round → one batched
``judge`` call per Claude.

The functions here are pure with respect to the performers they are handed, so the
in-process runner and the Ray tournament share them.  All randomness comes from one
RNG per ``(seed, instance id, zellig)`` (:func:`round_rng`), so adding a performer
never reshuffles the others and every executor gives identical transcripts.
"""

from __future__ import annotations

import logging
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from arena.edits import apply_edits
from arena.records import Instance, Judgement, Pair, SequenceScore, Variant
from arena.roles import AnswerKeyAware, Claude, Clocked, Zellig

logger = logging.getLogger(__name__)

# how a round's final choice came about
RESOLVED_BY_CLAUDE = "claude"
RESOLVED_TIE = "tie"  # the Claude's scores were exactly equal: seeded coin
RESOLVED_ABSTAIN = "abstain"  # the Claude returned None without a tie: seeded coin
RESOLVED_LATE = "late"  # the Claude answered after its time budget: seeded coin
RESOLVED_FREE = "free"  # the Zellig produced nothing in time (y = x): a free point

ScoreConvention = Literal["mean", "sum"]  # how a scoring Claude compares candidates
SCORE_CONVENTIONS = get_args(ScoreConvention)

STATUS_OK = "ok"
STATUS_NOT_APPLICABLE = "not_applicable"
STATUS_ZELLIG_TIMEOUT = "zellig_timeout"
STATUS_BALANCED_OUT = "balanced_out"  # left out by a John's balance (arena/engine/balance.py): not judged
NOT_JUDGED = frozenset({STATUS_NOT_APPLICABLE, STATUS_BALANCED_OUT})


def round_rng(seed: int, instance_id: str, zellig: str) -> random.Random:
    """The one RNG of a (seed, instance, Zellig): variant sampling and candidate order."""
    return random.Random(f"{seed}/{instance_id}/{zellig}")


def coin_rng(seed: int, instance_id: str, zellig: str, claude: str, round_id: str) -> random.Random:
    """The RNG that resolves a tie, abstention or late answer of one Claude in one round."""
    return random.Random(f"{seed}/{instance_id}/{zellig}/{claude}/{round_id}/coin")


@dataclass(frozen=True)
class Corruption:
    """What one Zellig made of one instance: its candidates, deduplicated, and timing."""

    instance: Instance
    variants: tuple[Variant, ...]
    timed_out: bool = False
    dropped: int = 0  # candidates dropped as duplicates or identical to the reference


@dataclass(frozen=True)
class Round:
    """One round of a match.  ``status`` is ``ok``, ``not_applicable`` (the Zellig had
    no candidate: recorded for its yield, not judged), ``zellig_timeout`` (y = x) or
    ``balanced_out`` (a pair the John's ``balance:`` left out: recorded, not judged)."""

    id: str
    seed: int
    john: str
    zellig: str
    instance: Instance
    variant: Variant | None
    candidates: tuple[str, ...] | None
    corrupted: int | None
    status: str = STATUS_OK
    n_candidates: int = 0
    sample_index: int = 0
    # in a game (a run with a schedule): the round's phase, its block, and whether the
    # phase counts toward S; None/True (and not written) in a schedule-less run
    phase: int | None = None
    block: int | None = None
    counts: bool = True

    @property
    def judged(self) -> bool:
        return self.status not in NOT_JUDGED

    def pair(self, sees_source: bool = True, sees_metadata: bool = False) -> Pair:
        """What a Claude is shown: the source unless it judges fluency only (then an
        empty source), the John's metadata when it may see it."""
        assert self.candidates is not None
        source = self.instance.source if sees_source else ""
        return Pair(self.id, source, self.candidates, dict(self.instance.meta) if sees_metadata else {})

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.id,
            "seed": self.seed,
            "john": self.john,
            "zellig": self.zellig,
            "status": self.status,
            "instance": self.instance.to_json(),
            "variant": self.variant.to_json() if self.variant is not None else None,
            "candidates": list(self.candidates) if self.candidates is not None else None,
            "corrupted": self.corrupted,
            "n_candidates": self.n_candidates,
            "sample_index": self.sample_index,
            **({"phase": self.phase, "block": self.block, "counts": self.counts} if self.phase is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        instance = Instance.from_json(data["instance"])
        variant = Variant.from_json(data["variant"]) if data.get("variant") else None
        known = {instance.reference: instance.reference, **({variant.text: variant.text} if variant else {})}
        candidates = data.get("candidates")  # the reference and the variant's text: share their strings
        return cls(
            id=data["round"], seed=data["seed"], john=sys.intern(data["john"]), zellig=sys.intern(data["zellig"]),
            instance=instance, variant=variant,
            candidates=tuple(known.get(t, t) for t in candidates) if candidates is not None else None,
            corrupted=data.get("corrupted"), status=data.get("status", STATUS_OK),
            n_candidates=data.get("n_candidates", 0), sample_index=data.get("sample_index", 0),
            phase=data.get("phase"), block=data.get("block"), counts=bool(data.get("counts", True)),
        )


@dataclass(frozen=True)
class JudgementRecord:
    """One Claude's final answer for one round, as written to ``judgements.jsonl``."""

    round: str
    claude: str
    choice: int | None  # the index judged corrupted after coins; None only for free points
    claude_choice: int | None  # what the Claude said (None: abstained / not asked)
    resolved_by: str
    correct: bool
    scores: tuple[float, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "claude": self.claude,
            "choice": self.choice,
            "claude_choice": self.claude_choice,
            "resolved_by": self.resolved_by,
            "correct": self.correct,
            "scores": list(self.scores) if self.scores is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JudgementRecord:
        scores = data.get("scores")
        return cls(
            data["round"],
            data["claude"],
            data.get("choice"),
            data.get("claude_choice"),
            data["resolved_by"],
            bool(data["correct"]),
            tuple(scores) if scores is not None else None,
        )


def corrupt_one(zellig: Zellig, instance: Instance, zellig_seconds: float | None = None) -> Corruption:
    """Run one Zellig on one instance; check and deduplicate its candidates.

    Raises ``ValueError`` (naming the instance) when a candidate's edits do not
    reproduce its text.  With a time budget, a Zellig slower than ``zellig_seconds``
    counts as having produced nothing in time.
    """
    started = time.perf_counter()
    variants = zellig.corrupt(instance)
    elapsed = time.perf_counter() - started
    if variants is None:
        raise TypeError(f"{type(zellig).__name__}.corrupt returned None for {instance.id}; return [] instead")
    if zellig_seconds is not None and elapsed > zellig_seconds:
        return Corruption(instance, (), timed_out=True)
    kept: list[Variant] = []
    seen: set[str] = set()
    dropped = 0
    for variant in variants:
        if variant.edits and apply_edits(instance.reference, variant.edits) != variant.text:
            raise ValueError(
                f"{type(zellig).__name__}: the edits of a variant of {instance.id} do not reproduce its text"
            )
        if variant.text == instance.reference or variant.text in seen:
            dropped += 1
            continue
        seen.add(variant.text)
        kept.append(variant)
    return Corruption(instance, tuple(kept), dropped=dropped)


def corrupt_all(
    zellig: Zellig,
    instances: Sequence[Instance],
    zellig_seconds: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Corruption]:
    """Run one Zellig on every instance, in order."""
    result = []
    for instance in instances:
        result.append(corrupt_one(zellig, instance, zellig_seconds))
        if progress is not None:
            progress(1)
    return result


def plan_rounds(
    corruptions: Iterable[Corruption],
    seed: int,
    john: str,
    zellig: str,
    variants_per_instance: int = 1,
    choose: Callable[[Instance, Sequence[Variant], random.Random], int] | None = None,
) -> list[Round]:
    """Sample up to k variants per instance and an order for each; deterministic.

    ``choose`` (a :class:`~arena.roles.Chooser` Zellig's method) picks the variants
    instead of the uniform draw, one at a time among those not yet offered, with the
    round's RNG."""
    rounds: list[Round] = []
    for corruption in corruptions:
        instance = corruption.instance
        rng = round_rng(seed, instance.id, zellig)
        base = f"{seed}|{john}|{zellig}|{instance.id}"
        if corruption.timed_out:
            corrupted = rng.randrange(2)
            rounds.append(
                Round(
                    f"{base}|0", seed, john, zellig, instance, None,
                    (instance.reference, instance.reference), corrupted, STATUS_ZELLIG_TIMEOUT,
                )
            )
            continue
        if not corruption.variants:
            rounds.append(Round(f"{base}|-", seed, john, zellig, instance, None, None, None, STATUS_NOT_APPLICABLE))
            continue
        count = min(variants_per_instance, len(corruption.variants))
        if choose is None:
            chosen = rng.sample(range(len(corruption.variants)), count)
        else:
            chosen = _chosen(choose, instance, corruption.variants, count, rng, zellig)
        for sample_index, variant_index in enumerate(chosen):
            variant = corruption.variants[variant_index]
            corrupted = rng.randrange(2)
            candidates = (instance.reference, variant.text) if corrupted == 1 else (variant.text, instance.reference)
            rounds.append(
                Round(
                    f"{base}|{sample_index}", seed, john, zellig, instance, variant, candidates, corrupted,
                    STATUS_OK, len(corruption.variants), sample_index,
                )
            )
    return rounds


def _chosen(
    choose: Callable[[Instance, Sequence[Variant], random.Random], int],
    instance: Instance,
    variants: Sequence[Variant],
    count: int,
    rng: random.Random,
    zellig: str,
) -> list[int]:
    """Indices of ``count`` variants picked one by one by a choosing Zellig."""
    remaining = list(range(len(variants)))
    chosen = []
    for _ in range(count):
        index = choose(instance, [variants[i] for i in remaining], rng)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(remaining):
            raise ValueError(
                f"Zellig {zellig} chose {index!r} for {instance.id}; expected an index below {len(remaining)}"
            )
        chosen.append(remaining.pop(index))
    return chosen


def resolve(round_: Round, claude: str, judgement: Judgement | None, late: bool) -> JudgementRecord:
    """One Claude's final answer for one round: its choice when given in time, else a
    seeded coin (tie, abstention, late answer); a Zellig timeout is a free point."""
    if round_.status == STATUS_ZELLIG_TIMEOUT:
        return JudgementRecord(round_.id, claude, None, None, RESOLVED_FREE, True)
    said = judgement.corrupted if judgement is not None else None
    scores = tuple(float(s) for s in judgement.scores) if judgement is not None and judgement.scores else None
    if said is not None and not late:
        if not isinstance(said, int) or isinstance(said, bool) or not 0 <= said < len(round_.candidates or ()):
            raise ValueError(f"Claude {claude} answered {said!r} for round {round_.id}; expected a candidate index")
        return JudgementRecord(round_.id, claude, said, said, RESOLVED_BY_CLAUDE, said == round_.corrupted, scores)
    if late:
        how = RESOLVED_LATE
    elif scores is not None and len(set(scores)) == 1:
        how = RESOLVED_TIE
    else:
        how = RESOLVED_ABSTAIN
    coin = coin_rng(round_.seed, round_.instance.id, round_.zellig, claude, round_.id).randrange(2)
    return JudgementRecord(round_.id, claude, coin, None if late else said, how, coin == round_.corrupted, scores)


def judge_rounds(
    claude: Claude,
    label: str,
    rounds: Sequence[Round],
    seconds_per_pair: float | None = None,
    chunk_size: int = 256,
    sees_source: bool = True,
    sees_metadata: bool = False,
) -> list[JudgementRecord]:
    """Ask one Claude about every judged round in one batched call (timed chunks under a budget, where
    a :class:`~arena.roles.Clocked` Claude's cached answers cost what they took); coins resolve ties,
    abstentions and lateness.  ``sees_source``/``sees_metadata``: its visibility (:class:`PerformerSpec`)."""
    judged = [r for r in rounds if r.judged]
    asked = [r for r in judged if r.status == STATUS_OK]
    answers: dict[str, tuple[Judgement | None, bool]] = {}
    if isinstance(claude, AnswerKeyAware):
        claude.observe_answers({r.id: r.corrupted for r in asked if r.corrupted is not None})
    chunks = [asked] if seconds_per_pair is None else [asked[i : i + chunk_size] for i in range(0, len(asked), chunk_size)]
    for chunk in chunks:
        if not chunk:
            continue
        started = time.perf_counter() + (claude.replayed_seconds() if isinstance(claude, Clocked) else 0.0)
        judgements = claude.judge([r.pair(sees_source, sees_metadata) for r in chunk])
        elapsed = time.perf_counter() + (claude.replayed_seconds() if isinstance(claude, Clocked) else 0.0) - started
        if not isinstance(judgements, list) or len(judgements) != len(chunk):
            got = len(judgements) if isinstance(judgements, list) else type(judgements).__name__
            raise ValueError(f"Claude {label} returned {got} judgements for {len(chunk)} pairs")
        late = seconds_per_pair is not None and elapsed > seconds_per_pair * len(chunk)
        for r, judgement in zip(chunk, judgements):
            answers[r.id] = (judgement, late)
    return [resolve(r, label, *answers.get(r.id, (None, False))) for r in judged]


@dataclass(frozen=True)
class OneBest:
    """A scoring Claude's own beam-search translation of a source and its score, with
    each Zellig detector's verdict on it (for the generative rate)."""

    claude: str
    source: str
    translation: str
    logprob: float
    tokens: int
    detected: Mapping[str, bool] = field(default_factory=dict)
    convention: str = "mean"  # the Claude's judging score: "mean" or "sum" of log-probs
    seed: int | None = None  # the seed of the model replica that decoded it (None: no replicas)

    @property
    def mean(self) -> float:
        return self.logprob / self.tokens if self.tokens else float("-inf")

    @property
    def score(self) -> float:
        """The 1-best's score in the Claude's judging convention (comparable to
        ``Judgement.scores``)."""
        return self.logprob if self.convention == "sum" else self.mean

    def to_json(self) -> dict[str, Any]:
        return {
            "claude": self.claude,
            "source": self.source,
            "translation": self.translation,
            "logprob": self.logprob,
            "tokens": self.tokens,
            "mean": self.mean,
            "convention": self.convention,
            "detected": dict(self.detected),
            **({"seed": self.seed} if self.seed is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OneBest:
        return cls(
            data["claude"], data["source"], data["translation"], float(data["logprob"]), int(data["tokens"]),
            dict(data.get("detected", {})),
            data.get("convention", "mean"),
            data.get("seed"),
        )


def candidate_score(score: SequenceScore, convention: str) -> float:
    """One candidate's score in a scoring Claude's convention: the ``mean`` log-probability
    per token (DistilLingEval's length normalisation, end-of-sentence token included) or
    the ``sum``."""
    return score.logprob if convention == "sum" else score.mean


def judgement_from_scores(scores: Sequence[float]) -> Judgement:
    """The score → judgement rule of every scoring Claude: the lowest-scored candidate is
    the corrupted one; an exact tie for lowest (or a NaN score) abstains, and the arena's
    seeded coin decides."""
    values = tuple(float(s) for s in scores)
    if any(math.isnan(v) for v in values):
        return Judgement(None, values)
    lowest = min(values)
    if values.count(lowest) > 1:
        return Judgement(None, values)
    return Judgement(values.index(lowest), values)
