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
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from arena.edits import apply_edits
from arena.record.rounds import (
    RESOLVED_ABSTAIN,
    RESOLVED_BY_CLAUDE,
    RESOLVED_FREE,
    RESOLVED_LATE,
    RESOLVED_TIE,
    STATUS_NOT_APPLICABLE,
    STATUS_OK,
    STATUS_ZELLIG_TIMEOUT,
    JudgementRecord,
    Round,
)
from arena.records import Instance, Judgement, Variant
from arena.roles import AnswerKeyAware, Claude, Clocked, Zellig

logger = logging.getLogger(__name__)


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


