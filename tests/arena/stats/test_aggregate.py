"""The aggregation core: per-instance tallies, pooled rates, CIs, paired tests and seeds."""

from __future__ import annotations

import numpy as np
import pytest

from arena.codec import dump
from arena.record.rounds import JudgementRecord, Round
from arena.records import Instance
from arena.stats.aggregate import Outcome, Tally, accurate, over_seeds, paired_bootstrap
from arena.stats.metrics import summarise


def outcome(instance: str, correct: bool, seed: int = 1, john: str = "j", scores=None, claude: str = "c") -> Outcome:
    r = Round(f"{seed}|{john}|z|{instance}|0", seed, john, "z", Instance(instance, "s", "r"), None, ("a", "b"), 1)
    return Outcome(r, JudgementRecord(r.id, claude, 1 if correct else 0, None, "claude", correct, scores), None)


def test_a_tally_holds_sums_and_counts_per_instance_in_first_seen_order():
    tally = Tally.of([outcome("b", True), outcome("a", False), outcome("b", False), outcome("b", True, john="k")])
    assert tally.keys == (("j", "b"), ("j", "a"), ("k", "b"))  # the same id under two Johns: two instances
    assert tally.sums.tolist() == [1.0, 0.0, 1.0] and tally.counts.tolist() == [2, 1, 1]
    assert tally.rounds == 4 and tally.rate() == 0.5
    assert Tally.of([]).rate() is None and Tally.of([]).ci(100) is None


@pytest.mark.parametrize(
    "scores, ties, expected",
    [
        ((-1.0, -2.0), "wrong", 1.0),  # candidates in order (0 correct, 1 corrupted): correct scores higher
        ((-2.0, -1.0), "wrong", 0.0),
        ((-1.0, -1.0), "wrong", 0.0),
        ((-1.0, -1.0), "correct", 1.0),
        ((-1.0, -1.0), "half", 0.5),
        (None, "wrong", None),  # no scores: no accuracy (must not count)
    ],
)
def test_accuracy_of_a_round_follows_the_tie_policy(scores, ties, expected):
    assert accurate(ties)(outcome("a", True, scores=scores)) == expected


def test_paired_claudes_use_instances_both_judged_with_the_same_rounds():
    a = Tally.of([outcome("x", True), outcome("x", True), outcome("y", True), outcome("z", False)])
    b = Tally.of([outcome("x", False), outcome("x", True), outcome("y", False), outcome("w", True)])
    test = a.paired(b, samples=200)
    expected = paired_bootstrap(np.array([2.0, 1.0]), np.array([1.0, 0.0]), np.array([2, 1]), 200)
    assert test == expected and test["n"] == 2  # z and w are not shared
    c = Tally.of([outcome("x", True), outcome("y", True), outcome("y", False)])  # other round counts
    assert a.paired(c, samples=200) is None  # must not pair unequal rounds
    assert a.paired(Tally.of([outcome("q", True)]), samples=200) is None


def test_paired_zelligs_weigh_each_shared_instance_once():
    a = Tally.of([outcome("x", True), outcome("x", False), outcome("y", True)])
    b = Tally.of([outcome("x", True), outcome("y", False), outcome("y", False), outcome("v", True)])
    test = a.paired(b, samples=200, equal_weight=True)
    assert test == paired_bootstrap(np.array([0.5, 1.0]), np.array([1.0, 0.0]), None, 200)
    assert test["delta"] == pytest.approx(0.25)


def test_summary_and_seeds():
    outcomes = [outcome("a", True, seed=1), outcome("b", False, seed=1), outcome("a", True, seed=2, scores=(-1.0, -1.0)),
                outcome("b", True, seed=2, scores=(-1.0, -3.0))]
    result = dump(summarise(outcomes, "half", samples=100))
    assert result["rounds"] == 4 and result["S"] == 0.75 and result["correct"] == 3
    assert result["accuracy"] == 0.75 and result["ties"] == 1  # (0.5 + 1) / 2 scored rounds
    low, high = result["S_ci95"]
    assert 0.0 <= low <= 0.75 <= high <= 1.0
    assert over_seeds(outcomes) == (2, 0.75, pytest.approx(np.std([0.5, 1.0], ddof=1)))
    assert over_seeds(outcomes[:2]) == (1, 0.5, 0.0) and over_seeds([]) == (0, None, None)
