"""Text leaderboards mark entries with fewer than 30 rounds, as the plots grey them."""

from __future__ import annotations

import pytest

from arena.present.leaderboards import FEW_ROUNDS, format_leaderboards


def boards(rounds: int) -> dict:
    entry = {"rank": 1, "rounds": rounds, "S": 0.9, "S_ci95": [0.8, 1.0], "seeds": 1, "accuracy": 0.9}
    return {
        "claudes": [{**entry, "claude": "toy"}],
        "zelligs": {"toy": [{**entry, "zellig": "replay", "yield": 1.0}]},
        "johns": [{**entry, "john": "pairs"}],
        "bootstrap_samples": 1000, "contrastive_ties": "wrong",
    }


@pytest.mark.parametrize("rounds,marked", [(12, True), (FEW_ROUNDS - 1, True), (FEW_ROUNDS, False), (500, False)])
def test_small_entries_are_marked(rounds, marked):
    text = format_leaderboards(boards(rounds))
    assert (f" {rounds}* " in text) == marked
    assert ("fewer than 30 rounds" in text) == marked
