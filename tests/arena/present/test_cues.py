"""The cue audit's presentation: p-values as the docs write them."""

from __future__ import annotations

import pytest

from arena.present.cues import fmt_p


@pytest.mark.parametrize("p, shown", [
    (0.0, "< 0.001"),
    (0.0004, "< 0.001"),
    (0.001, "0.001"),    # not below 0.001: printed as a number
    (0.058, "0.058"),
    (0.7, "0.700"),
    (None, "-"),
])
def test_a_tiny_p_value_reads_below_one_in_a_thousand(p, shown):
    assert fmt_p(p) == shown
