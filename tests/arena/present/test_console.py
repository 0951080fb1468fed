"""Plain-text leaderboards mark standings with too few rounds to read S as a result, as the
plots grey them; standings with enough rounds are not marked.  The test against the next
entry is worded by one formatter, the same in the console and the report."""

from __future__ import annotations

import dataclasses

import pytest

from arena.present.console import format_leaderboards, versus
from arena.present.plots import FEW_ROUNDS
from arena.stats.leaderboards import SignTest, VersusNext, build
from arena.stats.results import Bootstrap
from arena.stats.run import RunData
from tests.arena.stats.runs import finished_run


@pytest.fixture(scope="module")
def boards(tmp_path_factory, distil_dir):
    return build(RunData.open(finished_run(tmp_path_factory.mktemp("console"), distil_dir)))


def with_rounds(boards, rounds: int):
    def entry(e):
        return dataclasses.replace(e, standing=dataclasses.replace(e.standing, rounds=rounds))

    return dataclasses.replace(
        boards,
        claudes=tuple(entry(e) for e in boards.claudes),
        johns=tuple(entry(e) for e in boards.johns),
        zelligs={claude: tuple(entry(e) for e in entries) for claude, entries in boards.zelligs.items()},
    )


@pytest.mark.parametrize("rounds, marked", [(FEW_ROUNDS - 1, True), (1, True), (FEW_ROUNDS, False), (500, False)])
def test_few_rounds_are_marked(boards, rounds, marked):
    text = format_leaderboards(with_rounds(boards, rounds))
    footnote = f"* fewer than {FEW_ROUNDS} rounds"
    assert (footnote in text) is marked
    assert (f" {rounds}* " in text) is marked


@pytest.mark.parametrize("test, text", [
    (None, "-"),
    (VersusNext("toy", Bootstrap(0.125, -0.02, 0.25, 0.04, 80)), "vs toy: Δ=+0.125 [-0.020, 0.250], p=0.040"),
    (VersusNext("toy", Bootstrap(-0.5, -0.75, -0.25, 0.0, 80)), "vs toy: Δ=-0.500 [-0.750, -0.250], p=0.000"),
    (SignTest("newstest", cells=6, wins=5, losses=1, ties=0, p_value=0.21875),
     "vs newstest: 5-1 of 6 cells, p=0.219"),
])
def test_versus_wording(test, text):
    assert versus(test) == text


def test_console_and_report_word_the_tests_alike(boards, tmp_path):
    """One formatter: the console's leaderboard and the report's tables show the same text."""
    from arena.present.sections import ReportInput, leaderboard_tables

    tested = [e.vs_next for e in (*boards.claudes, *boards.johns) if e.vs_next is not None]
    assert tested, "the fixture run should rank at least two entries"
    console = format_leaderboards(boards)
    data = ReportInput(run=None, scores=None, boards=boards)  # the leaderboard section reads only the boards
    cells = {cell for t in leaderboard_tables(data).tables for row in t["rows"] for cell in row}
    for test in tested:
        assert versus(test) in console and versus(test) in cells
