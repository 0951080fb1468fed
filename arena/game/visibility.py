"""What a performer may see of a played round (Smith 2012, §7): the schedule's
visibility, one :class:`~arena.records.RoundOutcome` per round and observer.

In a phase *transparent* to a role, its performers see the round whole: the
instance, the candidates, the answer key and every Claude's choice (a Claude that
judges without the source is not shown it).  Otherwise each sees only its own inputs
and outputs: a John its instance, a Zellig the instance and the variant it offered,
a Claude the pair it judged, its own choice and scores.
"""

from __future__ import annotations

from typing import TypedDict

from arena.record.rounds import JudgementRecord, Round
from arena.records import RoundOutcome
from arena.specs.schedule import Phase
from arena.specs.spec import PerformerSpec


class _Base(TypedDict):
    """The fields of a :class:`~arena.records.RoundOutcome` every observer sees."""

    round: str
    seed: int
    phase: int
    counts: bool
    transparent: bool


def shown(
    role: str,
    label: str,
    round_: Round,
    phase: Phase,
    judgements: dict[str, JudgementRecord],
    claude: PerformerSpec | None = None,
) -> RoundOutcome:
    """What performer ``label`` of ``role`` may see of a played round (see
    :class:`~arena.records.RoundOutcome`); ``judgements`` are the round's, per Claude."""
    transparent = role in phase.transparent
    base: _Base = {"round": round_.id, "seed": round_.seed, "phase": round_.phase or 0, "counts": round_.counts,
            "transparent": transparent}
    choices = {name: record.choice for name, record in judgements.items()}
    if role == "claude":
        assert claude is not None
        own = judgements[label]
        source = round_.instance.source if claude.sees_source else ""
        if transparent:
            return RoundOutcome(
                **base, instance=round_.instance if claude.sees_source else None, source=source,
                candidates=round_.candidates, variant=round_.variant, corrupted=round_.corrupted,
                choices=choices, scores={label: own.scores},
            )
        return RoundOutcome(
            **base, source=source, candidates=round_.candidates,
            choices={label: own.choice}, scores={label: own.scores},
        )
    if transparent:
        return RoundOutcome(
            **base, instance=round_.instance, source=round_.instance.source, candidates=round_.candidates,
            variant=round_.variant, corrupted=round_.corrupted, choices=choices,
        )
    if role == "zellig":
        return RoundOutcome(**base, instance=round_.instance, variant=round_.variant)
    return RoundOutcome(**base, instance=round_.instance)
