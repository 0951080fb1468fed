"""The metric registry: a metric registered in one place shows up in scores.json, its
schema, the console, the Markdown/HTML report, the tidy exports and the leaderboards."""

from __future__ import annotations

import json

import pytest

from arena.present.console import format_leaderboards, format_scores
from arena.present.tidy import tables
from arena.stats import registry, schema
from arena.stats.leaderboards import build
from arena.stats.run import RunData
from arena.stats.streamed import score_run
from tests.arena.stats.runs import finished_run

# the whole of a new metric: the margin by which the correct candidate outscores the corrupted one
MARGIN = registry.Metric(
    "margin", "score margin", "marg", lambda o, context: o.scores[0] - o.scores[1] if o.scores else None,
    "score(correct) - score(corrupted); scoring Claudes only",
)
# one kept out of the leaderboards and the over-seeds summary
LENGTH = registry.Metric(
    "corrupted_words", "words of the corrupted", "cwords",
    lambda o, context: float(len(o.round.variant.text.split())) if o.round.variant else None,
    "words of the corrupted candidate", ci=False, leaderboard=False, over_seeds=False,
)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, distil_dir):
    registry.register(MARGIN)
    registry.register(LENGTH)
    try:
        yield finished_run(tmp_path_factory.mktemp("registry"), distil_dir)
    finally:
        registry.unregister(MARGIN.name)
        registry.unregister(LENGTH.name)


@pytest.fixture()
def registered():
    registry.register(MARGIN)
    registry.register(LENGTH)
    yield
    registry.unregister(MARGIN.name)
    registry.unregister(LENGTH.name)


def test_in_scores_json_and_its_schema(run_dir, registered):
    scores = json.loads((run_dir / "scores.json").read_text(encoding="utf-8"))
    cells = {(c["claude"], c["zellig"], c["john"], c["seed"]): c for c in scores["cells"]}
    nmt = cells["nmt", "ding", "ding-human", 1]
    assert nmt["margin"] is not None and len(nmt["margin_ci95"]) == 2
    assert all("margin" in bucket for bucket in nmt["phenomena"].values())
    assert "margin" not in cells["chance", "ding", "ding-human", 1]  # no scores: not defined, not written
    assert nmt["corrupted_words"] > 0 and "corrupted_words_ci95" not in nmt
    over = {(e["claude"], e["zellig"], e["john"]): e for e in scores["over_seeds"]}
    assert "margin_mean" in over["nmt", "ding", "ding-human"] and "corrupted_words_mean" not in over["nmt", "ding", "ding-human"]
    properties = schema.scores_schema()["$defs"]["Cell"]["properties"]
    assert {"margin", "margin_ci95", "corrupted_words"} <= set(properties)
    schema.validate(scores)


def test_on_the_console_and_in_the_leaderboards(run_dir, registered):
    text = format_scores(score_run(run_dir))
    assert "marg" in text.splitlines()[0] and "cwords" in text.splitlines()[0]
    boards = build(RunData.open(run_dir))
    (nmt,) = [e for e in boards.claudes if e.claude == "nmt"]
    assert nmt.standing.metrics[-1].name == "margin"
    board = format_leaderboards(boards).splitlines()
    assert "marg" in board[1] and "cwords" not in "\n".join(board)


def test_in_the_report(run_dir):
    markdown = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "| score margin | marg. 95% CI |" in markdown and "| words of the corrupted |" in markdown
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert ">score margin</th>" in html


def test_in_the_exports(run_dir, registered):
    data = tables(run_dir)
    assert {"margin", "margin_low", "margin_high", "corrupted_words"} <= set(data["cells"].columns)
    assert data["cells"]["margin"].dtype == "float64"
    assert "margin" in data["leaderboards"].columns and "corrupted_words" not in data["leaderboards"].columns


def test_unregistered_it_is_nowhere(run_dir):
    scores = score_run(run_dir)
    assert not any(c.summary.metric(name) for c in scores.cells for name in ("margin", "corrupted_words"))
    assert "marg" not in format_scores(scores)
    assert "margin" not in schema.scores_schema()["$defs"]["Cell"]["properties"]


@pytest.mark.parametrize("name, counts", [("S", {}), ("rank", {}), ("spread", {"rounds": len})])
def test_a_metric_may_not_take_a_key_of_scores_json(name, counts):
    metric = registry.Metric(name, name, name, lambda o, context: 1.0, "", counts=counts)
    with pytest.raises(ValueError, match="reserved key"):
        registry.register(metric)
    assert name not in {m.name for m in registry.metrics()}
