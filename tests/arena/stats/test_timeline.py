"""S over time: windows with CIs, convergence, and the plots."""

from __future__ import annotations

import pytest

from arena.present import plots
from arena.present.plots import game_curves
from arena.record.rounds import JudgementRecord, Round
from arena.records import Instance
from arena.stats.aggregate import Outcome
from arena.stats.results import Cell, Paired, Scores, Summary, Window, Yield
from arena.stats.timeline import convergence, timeline, windows


def outcomes(pattern: str, phase: int = 1, counts: bool = True, start: int = 0):
    """One round per character (1: the Claude found the corruption), each its own instance."""
    result = []
    for n, c in enumerate(pattern, start=start):
        instance = Instance(f"i{n}", "s", "r")
        round_ = Round(f"r{n}", 1, "j", "z", instance, None, ("r", "y"), 1, phase=phase, block=0, counts=counts)
        result.append(Outcome(round_, JudgementRecord(round_.id, "c", int(c), int(c), "claude", c == "1"), None))
    return result


def test_windows_cut_in_play_order_with_cis():
    played = outcomes("0000", 0, False) + outcomes("1111", 1, True, 4) + outcomes("11", 1, True, 8)
    cut = windows(played, 4, samples=200)
    assert [(w.first, w.last, w.rounds, w.S, w.counts, w.phases) for w in cut] == [
        (1, 4, 4, 0.0, False, (0,)), (5, 8, 4, 1.0, True, (1,)), (9, 10, 2, 1.0, True, (1,))
    ]
    assert cut[0].S_ci95 == (0.0, 0.0) and cut[1].S_ci95 == (1.0, 1.0)
    mixed = windows(outcomes("0101"), 4, samples=500)[0]
    assert mixed.S_ci95[0] < 0.5 < mixed.S_ci95[1]


@pytest.mark.parametrize(
    "values, epsilon, rounds",
    [
        ([0.5, 0.7, 0.9, 0.9], 0.05, 10),     # settles from the third window on
        ([0.9, 0.9, 0.9], 0.05, 0),           # within ε from the start
        ([0.9, 0.5, 0.88, 0.9], 0.05, 10),    # must stay within ε: the dip at window 2 counts
        ([0.5, 0.7, 0.9, 0.6], 0.05, 15),     # only the last window is within ε of itself
    ],
)
def test_convergence_is_rounds_until_s_stays_within_epsilon(values, epsilon, rounds):
    cut = [Window(5 * i + 1, 5 * (i + 1), 5, (1,), True, s, None) for i, s in enumerate(values)]
    settled = convergence(cut, epsilon)
    assert settled.rounds == rounds and settled.final_S == values[-1] and settled.epsilon == epsilon


def test_convergence_of_nothing_is_none():
    assert convergence([], 0.05) is None


def test_plots_of_a_game_and_none_of_a_static_run(tmp_path):
    entry = timeline(outcomes("0011", 0, False) + outcomes("1111", start=4), 2, 0.05, samples=50)
    curves = game_curves(scores_of(("a", entry), ("b", entry)), prefix="run: ")
    assert [label for label, _ in curves] == ["run: a", "run: b"]
    assert plots.timeline(curves, tmp_path / "t.png").stat().st_size > 0
    assert plots.convergence(curves, tmp_path / "c.png").stat().st_size > 0
    assert game_curves(scores_of(("a", None))) == []


def scores_of(*cells) -> Scores:
    """Scores with one cell per ``(claude, timeline)`` (John ``j``, Zellig ``z``, seed 1)."""
    summary, share = Summary(0, None, None, 0, {}), Yield(0, 0, None, 0, 0.0)
    return Scores("", "wrong", tuple(Cell("j", "z", claude, 1, summary, share, timeline=entry)
                                     for claude, entry in cells), (), Paired((), ()))
