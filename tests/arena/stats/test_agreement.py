"""Kappa (against published values), the majority vote, and people in leaderboards."""

from __future__ import annotations

import math

import pytest

from arena.record.rounds import (
    RESOLVED_ABSTAIN,
    RESOLVED_BY_CLAUDE,
    RESOLVED_LATE,
    RESOLVED_TIE,
    JudgementRecord,
    Round,
)
from arena.records import Instance, Variant
from arena.stats.aggregate import cohen_kappa, fleiss_kappa
from arena.stats.agreement import HUMAN, agreement, majority_vote

# Fleiss (1971) as worked in Wikipedia's "Fleiss' kappa": 10 items, 14 raters, 5 categories → 0.210
FLEISS_TABLE = [
    [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
]


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ([0, 0, 1, 1], [0, 1, 1, 1], 0.5),  # po 0.75, pe 0.5
        ([0, 1, 0, 1], [0, 1, 0, 1], 1.0),
        ([0, 1, 0, 1], [1, 0, 1, 0], -1.0),
        ([0, 0, 0, 0], [0, 0, 0, 0], math.nan),  # chance agreement is certain: undefined
    ],
)
def test_cohen_kappa(a, b, expected):
    value = cohen_kappa(a, b)
    assert (math.isnan(value) and math.isnan(expected)) or value == pytest.approx(expected)


def test_fleiss_kappa_matches_the_worked_example():
    ratings = [[k for k, n in enumerate(row) for _ in range(n)] for row in FLEISS_TABLE]
    assert fleiss_kappa(ratings) == pytest.approx(0.2099, abs=1e-4)


@pytest.mark.parametrize("ratings", [[], [[0]], [[0, 1], [0]]])
def test_fleiss_kappa_refuses_what_it_cannot_measure(ratings):
    with pytest.raises(ValueError, match="Fleiss"):
        fleiss_kappa(ratings)


def rounds(n: int) -> list[Round]:
    result = []
    for i in range(n):
        instance = Instance(f"i{i}", "source", "Die Katze.")
        variant = Variant(instance.id, "Das Katze.", "np_agreement")
        result.append(Round(f"1|j|z|i{i}|0", 1, "j", "z", instance, variant, ("Das Katze.", "Die Katze."), 0))
    return result


def said(person: str, round_: Round, choice: int | None) -> JudgementRecord:
    how = RESOLVED_LATE if choice is None else RESOLVED_BY_CLAUDE
    final = 1 if choice is None else choice
    return JudgementRecord(round_.id, f"person:{person}", final, choice, how, final == round_.corrupted)


def test_majority_vote_of_three_two_and_one_people():
    rs = rounds(4)
    records = [
        said("a", rs[0], 0), said("b", rs[0], 0), said("c", rs[0], 1),  # 2-1: candidate 0
        said("a", rs[1], 0), said("b", rs[1], 1),  # an even split: the coin, recorded as a tie
        said("a", rs[2], 1),  # one person: no majority
        said("a", rs[3], None), said("b", rs[3], None),  # nobody in time: the coin, as an abstention
    ]
    votes = {v.round: v for v in majority_vote(rs, records)}
    assert set(votes) == {rs[0].id, rs[1].id, rs[3].id}
    assert votes[rs[0].id].claude == HUMAN and votes[rs[0].id].choice == 0 and votes[rs[0].id].correct
    assert votes[rs[1].id].resolved_by == RESOLVED_TIE and votes[rs[1].id].claude_choice is None
    assert votes[rs[3].id].resolved_by == RESOLVED_ABSTAIN
    assert majority_vote(rs, records) == majority_vote(rs, records)  # seeded coins


def test_agreement_of_two_and_of_three_people():
    rs = rounds(4)
    two = [said("a", r, c) for r, c in zip(rs, [0, 0, 1, 1])] + [said("b", r, c) for r, c in zip(rs, [0, 1, 1, 1])]
    (entry,) = agreement(two)
    assert entry["people"] == ["person:a", "person:b"] and entry["measure"] == "Cohen's kappa"
    assert entry["rounds"] == 4 and entry["observed"] == 0.75 and entry["kappa"] == pytest.approx(0.5)
    late = two + [said("c", r, c) for r, c in zip(rs, [0, None, 1, 1])]
    entries = agreement(late)
    assert entries[0]["measure"] == "Fleiss' kappa" and entries[0]["rounds"] == 3  # c was late once
    assert [e["people"] for e in entries[1:]] == [["person:a", "person:b"], ["person:a", "person:c"],
                                                  ["person:b", "person:c"]]
    assert agreement(two[:4]) == []  # one person: nothing to agree with
