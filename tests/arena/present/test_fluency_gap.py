"""The adequacy−fluency gap per phenomenon (arena/present/fluency_gap.py) and its report
section: oriented as adequacy − fluency whichever Claude comes first, absent without a
fluency Claude, rendered into report.md and report.html of a real run."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.present.fluency_gap import claude_views, gap_rows
from arena.stats.results import Bootstrap, ClaudePair, Paired, Scores
from tests.arena.engine.helpers import HERE


@pytest.mark.parametrize("claudes, expected", [
    ([{"name": "toy-en-de", "alias": "toy"}, {"name": "target-lm", "sees": {"source": False}}],
     {"toy": True, "target-lm": False}),
    ([{"name": "toy-en-de", "sees": {"metadata": True}}], {"toy-en-de": True}),  # metadata is no fluency
    ([{"name": "random", "params": {"seed": 3}, "sees": {"source": True}}], {"random:seed=3": True}),
])
def test_claude_views(claudes, expected):
    assert claude_views(claudes) == expected


class _Stub:
    """What gap_rows reads of :class:`Scores`: ``cells`` and ``paired``."""

    def __init__(self, pairs: list[ClaudePair]):
        self.cells: list = []
        self.paired = Paired(tuple(pairs), ())


def _scores(pairs: list[ClaudePair]) -> Scores:
    return _Stub(pairs)  # type: ignore[return-value]


EXPERIMENT = {"claudes": [{"name": "toy-en-de", "alias": "nmt"}, {"name": "target-lm", "alias": "lm",
                                                                    "sees": {"source": False}},
                          {"name": "random", "alias": "coin"}]}
TEST = Bootstrap(delta=0.2, low=0.1, high=0.3, p_value=0.01, n=50)


@pytest.mark.parametrize("a, b, gap, ci", [
    ("nmt", "lm", 0.2, (0.1, 0.3)),      # adequacy first: as is
    ("lm", "nmt", -0.2, (-0.3, -0.1)),   # fluency first: negated, interval flipped
    ("coin", "lm", 0.2, (0.1, 0.3)),     # any adequacy Claude against the fluency one
])
def test_gap_is_adequacy_minus_fluency(a, b, gap, ci):
    (row,) = gap_rows(EXPERIMENT, _scores([ClaudePair("j", "ding", 1, a, b, TEST)]))
    assert row.fluency == "lm" and row.adequacy in (a, b)
    assert row.gap == pytest.approx(gap) and (row.low, row.high) == pytest.approx(ci)
    assert row.rounds == 50 and row.p_value == 0.01


@pytest.mark.parametrize("experiment, pair", [
    (EXPERIMENT, ClaudePair("j", "ding", 1, "nmt", "coin", TEST)),          # two adequacy Claudes
    ({"claudes": [{"name": "toy-en-de", "alias": "nmt"}, {"name": "random", "alias": "coin"}]},
     ClaudePair("j", "ding", 1, "nmt", "coin", TEST)),                      # no fluency Claude at all
    (EXPERIMENT, ClaudePair("j", "ding", 1, "nmt", "someone-else", TEST)),  # not a Claude of the run
])
def test_no_gap_row(experiment, pair):
    assert gap_rows(experiment, _scores([pair])) == []


def _run(tmp_path: Path, distil_dir: Path, fluency: bool) -> Path:
    sees = ", sees: {source: false}" if fluency else ""
    config = tmp_path / "gap.yaml"
    config.write_text(
        "name: gap\n"
        f"john: {{name: distil-lingeval, alias: ding, params: {{dir: {distil_dir / 'placeholder_ding.human'}, limit: 40}}}}\n"
        "zellig: {name: replay, alias: replay, params: {detector: placeholder-ding}}\n"
        f"claudes: [{{name: '{HERE}:HashScorer', alias: adequate}}, "
        f"{{name: '{HERE}:HashScorer', alias: fluent, params: {{salt: x}}{sees}}}]\n"
        "seeds: [1]\nbootstrap_samples: 50\ndiscrepancy: false\n",
        encoding="utf-8",
    )
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"]) == 0
    (found,) = (tmp_path / "runs").iterdir()
    return found


@pytest.mark.parametrize("fluency", [True, False])
def test_report_section(tmp_path, distil_dir, fluency):
    run = _run(tmp_path, distil_dir, fluency)
    markdown = (run / "report.md").read_text(encoding="utf-8")
    html = (run / "report.html").read_text(encoding="utf-8")
    assert ("Adequacy vs fluency" in markdown) is fluency
    assert ("S with and without the source, per phenomenon" in html) is fluency
    if fluency:
        section = markdown[markdown.index("Adequacy vs fluency"):]
        line = next(line for line in section.splitlines() if line.startswith("| ding | replay |"))
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[4:6] == ["adequate", "fluent"]
        s_adequacy, s_fluency, gap = float(cells[7]), float(cells[8]), float(cells[9])
        assert gap == pytest.approx(s_adequacy - s_fluency, abs=1e-3)
