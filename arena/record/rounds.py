"""What a run's transcripts hold, line by line: a round of ``rounds.jsonl``
(:class:`Round`, with its status), a Claude's final answer in ``judgements.jsonl``
(:class:`JudgementRecord`, with how it was resolved) and a scoring Claude's 1-best
translation in ``onebest.jsonl`` (:class:`OneBest`).

The engine writes them (:mod:`arena.engine.match` plays the rounds); the statistics, the
people's stores, the reports and the exports read them.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.records import Instance, Pair, Variant

# how a round's final choice came about
RESOLVED_BY_CLAUDE = "claude"
RESOLVED_TIE = "tie"  # the Claude's scores were exactly equal: seeded coin
RESOLVED_ABSTAIN = "abstain"  # the Claude returned None without a tie: seeded coin
RESOLVED_LATE = "late"  # the Claude answered after its time budget: seeded coin
RESOLVED_FREE = "free"  # the Zellig produced nothing in time (y = x): a free point

STATUS_OK = "ok"
STATUS_NOT_APPLICABLE = "not_applicable"
STATUS_ZELLIG_TIMEOUT = "zellig_timeout"
STATUS_BALANCED_OUT = "balanced_out"  # left out by a John's balance (arena/engine/balance.py): not judged
NOT_JUDGED = frozenset({STATUS_NOT_APPLICABLE, STATUS_BALANCED_OUT})


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
