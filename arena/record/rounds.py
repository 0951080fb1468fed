"""What a run's transcripts hold, line by line: a round of ``rounds.jsonl``
(:class:`Round`, with its status), a Claude's final answer in ``judgements.jsonl``
(:class:`JudgementRecord`, with how it was resolved) and a scoring Claude's 1-best
translation in ``onebest.jsonl`` (:class:`OneBest`).

The engine writes them (:mod:`arena.engine.match` plays the rounds); the statistics, the
people's stores, the reports and the exports read them.  :mod:`arena.codec` is their one
serialiser (``dump(round_)``, ``load(Round, data)``); what differs from a field's name and
type is declared on the field: ``Round.id`` is the key ``round``, a game's keys are written
in a game only, keys older transcripts lack read as their defaults, and a round read back
shares its candidates' strings with its reference and variant.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from pydantic import AfterValidator, Field, ValidationInfo, computed_field, field_validator

from arena.records import Instance, Pair, Variant

Interned = Annotated[str, AfterValidator(sys.intern)]  # a label that thousands of rounds repeat: one string
Missing = Field(default=None)  # a key older transcripts may lack: read as None (the constructor requires it)

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

    id: Annotated[str, Field(alias="round")]
    seed: int
    john: Interned
    zellig: Interned
    instance: Instance
    variant: Annotated[Variant | None, Missing]
    candidates: Annotated[tuple[str, ...] | None, Missing]
    corrupted: Annotated[int | None, Missing]
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

    @field_validator("candidates")
    @classmethod
    def _shared(cls, candidates: tuple[str, ...] | None, info: ValidationInfo) -> tuple[str, ...] | None:
        """Read back, the candidates are the reference's and the variant's strings, not copies."""
        if candidates is None:
            return None
        instance, variant = info.data.get("instance"), info.data.get("variant")
        reference = instance.reference if instance is not None else None
        corrupted = variant.text if variant is not None else None
        return tuple(corrupted if text == corrupted else reference if text == reference else text
                     for text in candidates)

    def json_keys(self) -> tuple[str, ...]:
        """The keys of its line in ``rounds.jsonl``, in order (see :mod:`arena.codec`):
        ``status`` after ``zellig``, and ``phase``, ``block`` and ``counts`` in a game only."""
        return ROUND_KEYS if self.phase is None else GAME_ROUND_KEYS


@dataclass(frozen=True)
class JudgementRecord:
    """One Claude's final answer for one round, as written to ``judgements.jsonl``."""

    round: str
    claude: str
    choice: Annotated[int | None, Missing]  # the index judged corrupted after coins; None only for free points
    claude_choice: Annotated[int | None, Missing]  # what the Claude said (None: abstained / not asked)
    resolved_by: str
    correct: bool
    scores: tuple[float, ...] | None = None


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
    seed: int | None = None  # the seed of the model replica that decoded it (None: no replicas, and no key)

    @computed_field  # type: ignore[prop-decorator]  # written for readers of the file, never read back
    @property
    def mean(self) -> float:
        return self.logprob / self.tokens if self.tokens else float("-inf")

    @property
    def score(self) -> float:
        """The 1-best's score in the Claude's judging convention (comparable to
        ``Judgement.scores``)."""
        return self.logprob if self.convention == "sum" else self.mean

    def json_keys(self) -> tuple[str, ...]:
        """The keys of its line in ``onebest.jsonl``, in order: ``mean`` after ``tokens``,
        ``convention`` before ``detected``, ``seed`` only when there are replicas."""
        return ONEBEST_KEYS if self.seed is None else (*ONEBEST_KEYS, "seed")


ROUND_KEYS = ("round", "seed", "john", "zellig", "status", "instance", "variant", "candidates", "corrupted",
              "n_candidates", "sample_index")
GAME_ROUND_KEYS = (*ROUND_KEYS, "phase", "block", "counts")
ONEBEST_KEYS = ("claude", "source", "translation", "logprob", "tokens", "mean", "convention", "detected")
