"""Plots (arena/present/plots.py): n on every cell and bar, too few rounds marked not painted,
consistent axis labels, legends outside the axes, the chance line labelled inside."""

from __future__ import annotations

import pytest

from arena.present import plots
from arena.stats.leaderboards import PhenomenonRow
from arena.stats.results import Cell, OverSeeds, Paired, Scores, Summary, Yield

pytest.importorskip("matplotlib")


def _cell(john, zellig, claude, seed, rounds, s):
    return Cell(john, zellig, claude, seed, Summary(rounds, s, None, 0, {}), Yield(0, 0, None, 0, 0.0))


SCORES = Scores(
    "", "wrong",
    (
        _cell("j", "z1", "toy", 1, 200, 0.8), _cell("j", "z1", "toy", 2, 200, 0.7),
        _cell("j", "z1", "random", 1, 200, 0.5), _cell("j", "z1", "random", 2, 200, 0.52),
        _cell("j", "z2", "toy", 1, 6, 1.0), _cell("j", "z2", "toy", 2, 6, 0.5),   # 12 rounds: too few
        _cell("j", "z2", "random", 1, 6, 0.5), _cell("j", "z2", "random", 2, 6, 0.5),
    ),
    tuple(
        OverSeeds("j", z, c, 2, m, sd)
        for z, c, m, sd in (("z1", "toy", 0.75, 0.07), ("z1", "random", 0.51, 0.01),
                            ("z2", "toy", 0.75, 0.35), ("z2", "random", 0.5, 0.0))
    ),
    Paired((), ()),
)


def test_heatmap_shows_n_and_marks_few_rounds():
    figure = plots.s_heatmap_figure(SCORES)
    ax = figure.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert "0.75 ±0.07\nn=400" in texts and "0.51 ±0.01\nn=400" in texts
    few = [t for t in texts if "n=12" in t]
    assert len(few) == 2 and all("(too few)" in t and "±" not in t for t in few)
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert len(hatched) == 2  # the two cells with 12 rounds
    image = ax.images[0].get_array()
    assert image.mask[1].all() and not image.mask[0].any()  # not painted as results
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Claude", "Zellig")
    plots._pyplot().close(figure)


ROWS = [PhenomenonRow(**row) for row in [
    {"claude": "toy", "phenomenon": "placeholder_ding", "reference_kind": "human", "metric": "accuracy",
     "rounds": 300, "value": 0.9, "ci95": (0.86, 0.93)},
    {"claude": "toy", "phenomenon": "placeholder_ding", "reference_kind": "machine", "metric": "accuracy",
     "rounds": 12, "value": 0.6, "ci95": (0.3, 0.85)},
    {"claude": "toy", "phenomenon": "clause_omission", "reference_kind": "human", "metric": "accuracy",
     "rounds": 80, "value": 0.95, "ci95": (0.9, 0.99)},
]]


def test_bars_show_n_legend_outside_and_chance_inside():
    figure = plots.phenomena_figure(ROWS)
    figure.canvas.draw()
    ax = figure.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert {"n=300", "n=80", "n=12\ntoo few", "chance (0.5)"} <= set(texts)
    bars = [p for p in ax.patches if p.get_height() > 0]
    assert sum(1 for p in bars if p.get_hatch()) == 1
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("phenomenon", "contrastive accuracy")
    legend = ax.get_legend()
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels == ["human references", "machine references", "fewer than 30 rounds"]
    renderer = figure.canvas.get_renderer()
    assert legend.get_window_extent(renderer).y1 <= ax.get_window_extent(renderer).y0  # below the axes
    chance = next(t for t in ax.texts if t.get_text() == "chance (0.5)")
    box, axes_box = chance.get_window_extent(renderer), ax.get_window_extent(renderer)
    assert axes_box.x0 <= box.x0 and box.x1 <= axes_box.x1 and axes_box.y0 <= box.y0 <= axes_box.y1
    plots._pyplot().close(figure)


@pytest.mark.parametrize(("kinds", "title"), [
    (("human", "machine"), "toy: per phenomenon, human vs machine references"),
    (("machine",), "toy: per phenomenon, machine references"),
    (("unknown",), "toy: per phenomenon, unknown references"),  # a user's own pairs: no "human vs machine"
])
def test_the_title_names_the_datas_own_reference_kinds(kinds, title):
    rows = [PhenomenonRow("toy", "ding", kind, "accuracy", 40, 0.7, (0.6, 0.8)) for kind in kinds]
    figure = plots.phenomena_figure(rows)
    assert figure.axes[0].get_title() == title
    plots._pyplot().close(figure)
