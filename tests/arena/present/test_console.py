"""Plain-text leaderboards mark standings with too few rounds to read S as a result, as the
plots grey them; standings with enough rounds are not marked."""

from __future__ import annotations

import dataclasses

import pytest

from arena.present.console import format_leaderboards
from arena.present.plots import FEW_ROUNDS
from arena.stats.leaderboards import build
from arena.stats.run import load_run
from tests.arena.stats.runs import finished_run


@pytest.fixture(scope="module")
def boards(tmp_path_factory, distil_dir):
    return build(load_run(finished_run(tmp_path_factory.mktemp("console"), distil_dir)))


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
