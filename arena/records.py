"""The records that flow between performers and the arena.

Records are frozen dataclasses with full-word names and no behaviour.  ``meta`` mappings
hold JSON-serialisable values only.  :mod:`arena.codec` writes and reads them
(``dump(variant)``, ``load(Variant, data)``); their JSON keys are their fields' names.

- :class:`Instance` — what a John yields: an English source, a German reference.
- :class:`Edit` — one character span of the reference that a Zellig changed.
- :class:`Variant` — one corruption of an instance's reference.
- :class:`Pair` — what a Claude sees: a source and candidates, no answer.
- :class:`Judgement` — what a Claude answers: the index judged corrupted.
- :class:`SequenceScore` — a scoring Claude's log-probability of one target.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Instance:
    """One data point ``x_n``: ``source`` (English) and ``reference`` (German).

    ``id`` is stable and unique within a John (e.g. ``newstest2009.17``).  ``meta``
    carries origin, genre, ``reference_kind`` (``human`` or ``machine``), and for
    Johns that ship pre-made corruptions a ``variants`` list (see the ``replay``
    Zellig).
    """

    id: str
    source: str
    reference: str
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Edit:
    """A changed character span of the reference: ``reference[start:end] == before``
    is replaced by ``after``.  Offsets refer to the original reference."""

    start: int
    end: int
    before: str
    after: str


@dataclass(frozen=True)
class Variant:
    """One corruption ``y_n`` of ``Instance.reference``.

    ``text`` is the corrupted reference; ``edits`` reproduce it from the reference
    (:func:`arena.edits.apply_edits`).  ``phenomenon`` is a label such as
    ``placeholder_ding``.  ``meta`` holds LingEval97-style ``distance`` and
    ``frequency`` where they apply, and anything else the Zellig wants to record.
    """

    instance_id: str
    text: str
    phenomenon: str
    edits: tuple[Edit, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pair:
    """What a Claude is shown: a source and candidate translations in the arena's
    order.  It carries no answer.  ``source`` is empty for a Claude that judges
    fluency only (``sees: {source: false}``); ``meta`` holds the John's metadata m_n
    for a Claude that sees it (``sees: {metadata: true}``), else it is empty."""

    id: str
    source: str
    candidates: tuple[str, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Judgement:
    """A Claude's answer for one :class:`Pair`.

    ``corrupted`` is the index of the candidate judged corrupted, or ``None`` when the
    Claude abstains (e.g. an exact score tie); the arena then flips a seeded coin and
    records that it did.  ``scores`` are the per-candidate scores a scoring Claude
    used (higher = more likely correct), or ``None``.
    """

    corrupted: int | None
    scores: tuple[float, ...] | None = None


@dataclass(frozen=True)
class RoundOutcome:
    """What one performer is shown of one round of a game (``Observer.observe``).

    Fields the performer may not see are ``None`` (``choices``/``scores``: absent
    keys).  In a round *transparent* to it a performer sees the instance, the
    variant, the candidates in the order shown, the answer key ``corrupted`` and
    every Claude's final ``choices``.  Otherwise it sees only its own inputs and
    outputs: a John its instance; a Zellig the instance and the variant it offered;
    a Claude the source it was shown (empty when it judges fluency), the candidates
    and its own choice and ``scores``.  ``counts`` tells whether the round counts
    toward S (evaluation) or belongs to an observation phase.
    """

    round: str
    seed: int
    phase: int
    transparent: bool
    counts: bool
    instance: Instance | None = None
    source: str | None = None
    candidates: tuple[str, ...] | None = None
    variant: Variant | None = None
    corrupted: int | None = None
    choices: Mapping[str, int | None] = field(default_factory=dict)
    scores: Mapping[str, tuple[float, ...] | None] = field(default_factory=dict)


@dataclass(frozen=True)
class SequenceScore:
    """Log-probability of one target given its source.

    ``logprob`` is the sum of natural-log token probabilities, ``tokens`` the number
    of target tokens scored (end-of-sentence token included), ``mean`` their ratio —
    the length-normalised score that DistilLingEval compares.
    """

    logprob: float
    tokens: int

    @property
    def mean(self) -> float:
        return self.logprob / self.tokens if self.tokens else float("-inf")


@dataclass(frozen=True)
class TokenScores:
    """Per-token log-probabilities of one target given its source: ``tokens`` are the
    model's subword pieces (end-of-sentence token included), ``logprobs`` their natural-log
    probabilities, in order; their sum is :attr:`SequenceScore.logprob`."""

    tokens: tuple[str, ...]
    logprobs: tuple[float, ...]

    @property
    def score(self) -> SequenceScore:
        return SequenceScore(float(sum(self.logprobs)), len(self.logprobs))
