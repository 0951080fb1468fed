"""Agreement between people and their majority vote (the ``human`` Claude).

Agreement is measured on what each person said (``claude_choice``: the candidate they
judged corrupted), on the rounds that every person of the group answered in time:
Cohen's kappa for two people, Fleiss' kappa for more (with Cohen's kappa per pair
too).  The majority vote judges every round that two or more people judged: the
candidate most of them chose; an even split, or no answer in time, is settled by the
arena's seeded coin for the ``human`` Claude and recorded as a ``tie`` / ``abstain``.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from arena.engine import match
from arena.record import people_store as store
from arena.record.rounds import (
    RESOLVED_ABSTAIN,
    RESOLVED_BY_CLAUDE,
    RESOLVED_TIE,
    STATUS_ZELLIG_TIMEOUT,
    JudgementRecord,
    Round,
)
from arena.stats.aggregate import cohen_kappa, fleiss_kappa

HUMAN = "human"  # the majority vote's Claude label


def _answers(records: Sequence[JudgementRecord]) -> dict[str, dict[str, int | None]]:
    """Per person label: round id → what the person said (None: late or no answer)."""
    result: dict[str, dict[str, int | None]] = defaultdict(dict)
    for record in records:
        result[record.claude][record.round] = record.claude_choice
    return dict(result)


def _group(answers: dict[str, dict[str, int | None]], people: Sequence[str]) -> dict[str, Any] | None:
    common = set.intersection(*(set(k for k, v in answers[p].items() if v is not None) for p in people))
    ids = sorted(common)
    if not ids:
        return None
    columns = [[answer for i in ids if (answer := answers[p][i]) is not None] for p in people]  # all given
    observed = sum(len(set(values)) == 1 for values in zip(*columns)) / len(ids)
    if len(people) == 2:
        kappa, measure = cohen_kappa(columns[0], columns[1]), "Cohen's kappa"
    else:
        kappa, measure = fleiss_kappa([list(values) for values in zip(*columns)]), "Fleiss' kappa"
    return {
        "people": list(people), "rounds": len(ids), "observed": observed,
        "kappa": None if math.isnan(kappa) else kappa, "measure": measure,
    }


def agreement(records: Sequence[JudgementRecord]) -> list[dict[str, Any]]:
    """Agreement of all people together and (with three or more) of every pair."""
    answers = _answers([r for r in records if store.is_person(r.claude)])
    people = sorted(answers)
    if len(people) < 2:
        return []
    groups = [people] + (list(map(list, itertools.combinations(people, 2))) if len(people) > 2 else [])
    return [entry for entry in (_group(answers, group) for group in groups) if entry is not None]


def majority_vote(rounds: Sequence[Round], records: Sequence[JudgementRecord]) -> list[JudgementRecord]:
    """The ``human`` Claude's judgements: the people's majority on every round that two
    or more people judged, in plan order."""
    votes: dict[str, list[JudgementRecord]] = defaultdict(list)
    for record in records:
        if store.is_person(record.claude):
            votes[record.round].append(record)
    result = []
    for r in rounds:
        given = votes.get(r.id, [])
        if len(given) < 2:
            continue
        if r.status == STATUS_ZELLIG_TIMEOUT:
            result.append(match.resolve(r, HUMAN, None, False))
            continue
        said = [v.claude_choice for v in given if v.claude_choice is not None]
        counts = sorted(((said.count(k), k) for k in set(said)), reverse=True)
        if counts and (len(counts) == 1 or counts[0][0] > counts[1][0]):
            choice = counts[0][1]
            result.append(JudgementRecord(r.id, HUMAN, choice, choice, RESOLVED_BY_CLAUDE, choice == r.corrupted))
            continue
        coin = match.coin_rng(r.seed, r.instance.id, r.zellig, HUMAN, r.id).randrange(2)
        how = RESOLVED_TIE if counts else RESOLVED_ABSTAIN
        result.append(JudgementRecord(r.id, HUMAN, coin, None, how, coin == r.corrupted))
    return result
