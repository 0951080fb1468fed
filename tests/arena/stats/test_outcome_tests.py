"""Exceeds, equivalent (±M) or undecided (n ≈ K would decide): tables of cases that must and must
not give each outcome, the n that would decide, and the margin's range."""

from __future__ import annotations

import pytest

from arena.errors import UsageError
from arena.stats import outcome_tests
from arena.stats.outcome_tests import decide, is_outcome, needed_n


@pytest.mark.parametrize("e, ve, g, vg, n, margin, expected", [
    (0.40, 0.0025, 0.02, 0.0002, 100, 0.05, "exceeds"),  # far above
    (0.10, 0.00001, 0.10, 0.00001, 10000, 0.05, "equivalent (±5)"),  # equal and precise
    (0.10, 0.00001, 0.12, 0.00001, 10000, 0.05, "equivalent (±5)"),  # 2 points below, inside ±5
    (0.10, 0.00001, 0.12, 0.00001, 10000, 0.01, "undecided"),  # the same gap outside ±1
    (0.10, 0.0009, 0.09, 0.0009, 100, 0.05, "undecided (n ≈"),  # equal-ish but imprecise
    (0.05, 0.0004, 0.20, 0.0016, 100, 0.05, "undecided (no n decides"),  # far below: neither outcome
    (0.16, 0.0016, 0.10, 0.0016, 100, 0.05, "undecided (n ≈"),  # above, p ~ 0.07: not yet exceeds
])
def test_outcomes(e, ve, g, vg, n, margin, expected):
    decision = decide(e, ve, g, vg, n, 0.05, margin)
    assert decision.verdict.startswith(expected) and is_outcome(decision.verdict)
    assert "consistent" not in decision.verdict


def test_the_n_that_would_decide_does_decide():
    e, g, ve, vg, n = 0.16, 0.10, 0.0016, 0.0016, 100
    decision = decide(e, ve, g, vg, n)
    k = int(decision.verdict.split("≈ ")[1].split(" ")[0])
    assert k > n
    scaled = decide(e, ve * n / k, g, vg * n / k, k)
    assert not scaled.verdict.startswith("undecided")
    assert decide(e, ve * n / (k - 5), g, vg * n / (k - 5), k - 5).verdict.startswith("undecided")


@pytest.mark.parametrize("gap, margin, decides", [(0.1, 0.05, True), (0.0, 0.05, True), (-0.1, 0.05, False)])
def test_needed_n(gap, margin, decides):
    assert (needed_n(100, gap, 0.05, margin, 0.05) is not None) is decides


@pytest.mark.parametrize("margin, ok", [(0.05, True), (0.49, True), (0.0, False), (0.5, False), (-0.1, False),
                                        (float("nan"), False), (True, False)])
def test_margin_must_lie_in_0_to_half(margin, ok):
    if ok:
        assert outcome_tests.check_margin(margin) == margin
    else:
        with pytest.raises(UsageError) as error:
            outcome_tests.check_margin(margin, "--margin")
        assert error.value.key == "--margin"


@pytest.mark.parametrize("verdict, ok", [("exceeds", True), ("equivalent (±5)", True),
                                         ("undecided (n ≈ 300 would decide)", True), ("consistent", False),
                                         ("false positive", False), ("too few", False)])
def test_is_outcome(verdict, ok):
    assert is_outcome(verdict) is ok
