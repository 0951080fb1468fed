"""Metrics over hand-made transcripts, checked against values computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from arena.codec import dump
from arena.record.rounds import JudgementRecord, OneBest, Round
from arena.records import Instance, Variant
from arena.stats.aggregate import bootstrap_ci, contrastive_correct, paired_bootstrap
from tests.arena.stats.oracle import score_transcripts

EXPERIMENT = {"claudes": [{"name": "a", "params": {}}, {"name": "b", "params": {}}], "contrastive_ties": "wrong",
              "bootstrap_samples": 200}


def make_round(i: int, corrupted: int, meta=None, status="ok", zellig="z") -> Round:
    instance = Instance(f"i{i}", f"source {i}", f"Referenz {i}")
    if status != "ok":
        return Round(f"r{i}", 1, "j", zellig, instance, None, None, None, status)
    variant = Variant(instance.id, f"Ding {i}", "placeholder_ding", (), meta or {})
    candidates = ("Referenz", "Ding") if corrupted == 1 else ("Ding", "Referenz")
    return Round(f"r{i}", 1, "j", zellig, instance, variant, candidates, corrupted, "ok", 1)


@pytest.mark.parametrize("policy, expected", [("wrong", 0.0), ("correct", 1.0), ("half", 0.5)])
def test_tie_policies(policy, expected):
    assert contrastive_correct(-1.0, -1.0, policy) == expected
    assert contrastive_correct(-1.0, -2.0, policy) == 1.0
    assert contrastive_correct(-2.0, -1.0, policy) == 0.0


def test_score_transcripts_by_hand():
    rounds = [
        make_round(0, 1, {"distance": 1, "frequency": 5}),
        make_round(1, 0, {"distance": 20, "frequency": 6}),
        make_round(2, 1),
        make_round(3, 0, status="not_applicable"),
    ]
    # Claude a: scores (correct, corrupted) = (-1,-2) right, (-3,-1) wrong, (-2,-2) tie → coin says right
    judgements = [
        JudgementRecord("r0", "a", 1, 1, "claude", True, (-1.0, -2.0)),
        JudgementRecord("r1", "a", 1, 1, "claude", False, (-1.0, -3.0)),
        JudgementRecord("r2", "a", 1, None, "tie", True, (-2.0, -2.0)),
        JudgementRecord("r0", "b", 0, 0, "claude", False, None),
        JudgementRecord("r1", "b", 0, 0, "claude", True, None),
        JudgementRecord("r2", "b", 1, 1, "claude", True, None),
    ]
    one_bests = [
        OneBest("a", "source 0", "x", -0.5, 1, {"z": True}),  # discrepancy max(0, -0.5 - -1) = 0.5
        OneBest("a", "source 1", "x", -4.0, 1, {"z": False}),  # max(0, -4 - -1) = 0
        OneBest("a", "source 2", "x", -1.0, 1, {"z": False}),  # max(0, -1 - -2) = 1
    ]
    scores = dump(score_transcripts(EXPERIMENT, rounds, judgements, one_bests))
    a, b = scores["cells"]
    assert (a["claude"], a["rounds"], a["S"]) == ("a", 3, pytest.approx(2 / 3))
    assert a["accuracy"] == pytest.approx(1 / 3)  # the tie counts as wrong
    assert a["ties"] == 1
    assert a["discrepancy"] == pytest.approx(0.5)
    assert a["resolved_by"] == {"claude": 2, "tie": 1}
    assert a["yield"] == {"instances": 4, "applicable": 3, "share": 0.75, "timeouts": 0, "mean_candidates": 1.0}
    assert a["generative_rate"] == {"sources": 3, "detected": 1, "rate": pytest.approx(1 / 3)}
    assert list(a["by_distance"]) == ["1", ">15"]
    assert list(a["by_frequency"]) == [">5", ">2"]  # LingEval97: 6 is ">5", 5 is ">2"
    assert "by_meta" not in a
    with_breakdown = dump(score_transcripts({**EXPERIMENT, "breakdowns": ["distance"]}, rounds, judgements, one_bests))
    assert with_breakdown["cells"][0]["by_meta"]["distance"]["20"]["rounds"] == 1
    assert b["S"] == pytest.approx(2 / 3) and "accuracy" not in b
    (pair,) = scores["paired"]["claudes"]
    assert (pair["a"], pair["b"], pair["delta"], pair["n"]) == ("a", "b", 0.0, 3)


def test_bootstrap_ci_brackets_the_mean_and_is_deterministic():
    rng = np.random.default_rng(1)
    sums = rng.integers(0, 2, 500).astype(float)
    counts = np.ones(500)
    low, high = bootstrap_ci(sums, counts, 1000)
    assert low < sums.mean() < high
    assert (low, high) == bootstrap_ci(sums, counts, 1000)


def test_paired_bootstrap_detects_a_real_difference_only():
    rng = np.random.default_rng(2)
    a = (rng.random(400) < 0.8).astype(float)
    b = (rng.random(400) < 0.6).astype(float)
    assert paired_bootstrap(a, b)["p_value"] < 0.01
    assert paired_bootstrap(a, a)["p_value"] == 1.0
