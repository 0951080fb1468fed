"""The records that flow between performers and the arena.

Records are frozen dataclasses with full-word names and no behaviour beyond
(de)serialisation helpers.  ``meta`` mappings hold JSON-serialisable values only.

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

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source, "reference": self.reference, "meta": dict(self.meta)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Instance:
        return cls(data["id"], data["source"], data["reference"], dict(data.get("meta", {})))


@dataclass(frozen=True)
class Edit:
    """A changed character span of the reference: ``reference[start:end] == before``
    is replaced by ``after``.  Offsets refer to the original reference."""

    start: int
    end: int
    before: str
    after: str

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "before": self.before, "after": self.after}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Edit:
        return cls(int(data["start"]), int(data["end"]), data["before"], data["after"])


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

    def to_json(self) -> dict[str, Any]:
        return {
            "instance_id": self.instance_id,
            "text": self.text,
            "phenomenon": self.phenomenon,
            "edits": [edit.to_json() for edit in self.edits],
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Variant:
        return cls(
            data["instance_id"],
            data["text"],
            data["phenomenon"],
            tuple(Edit.from_json(edit) for edit in data.get("edits", ())),
            dict(data.get("meta", {})),
        )


@dataclass(frozen=True)
class Pair:
    """What a Claude is shown: a source and candidate translations in the arena's
    order.  It carries no answer."""

    id: str
    source: str
    candidates: tuple[str, ...]


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
