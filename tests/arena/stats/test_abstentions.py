"""Issue 34, item 5: a round a Claude abstains on (or answers late) is recorded as such and left out of
its S, S's CI and everything built on S; a Claude that judged no round of a cell has S null, shown as "-"."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from arena.cli import main
from arena.record.rounds import JudgementRecord, Round
from arena.records import Instance, Variant
from arena.stats.aggregate import Outcome, Tally, bootstrap_ci, correct, judged
from arena.stats.metrics import summarise
from arena.stats.results import read_scores
from arena.stats.run import RunData
from tests.arena.engine.helpers import HERE
from tests.arena.stats.test_streamed import same_scores


def _outcomes(resolutions: list[tuple[str, bool]]) -> list[Outcome]:
    result = []
    for i, (resolved, right) in enumerate(resolutions):
        r = Round(f"1|{i}", 1, "j", "z", Instance(str(i // 2), "s", "r"), Variant(str(i), "v", "p"), ("r", "v"), 1)
        result.append(Outcome(r, JudgementRecord(r.id, "c", 1, None if resolved != "claude" else 1, resolved, right),
                              None))
    return result


@pytest.mark.parametrize(("resolutions", "S", "judged_rounds"), [
    ([("claude", True), ("claude", False), ("claude", True), ("claude", True)], 0.75, 4),  # never abstains
    ([("claude", True), ("abstain", True), ("claude", False), ("late", True)], 0.5, 2),  # coins left out
    ([("claude", True), ("abstain", False), ("late", False), ("claude", True)], 1.0, 2),
    ([("tie", True), ("free", True), ("claude", False), ("abstain", True)], 2 / 3, 3),  # ties, free points stay
    ([("abstain", True), ("late", False)], None, 0),  # judged no round: S null
])
def test_s_counts_only_the_rounds_the_claude_judged(resolutions, S, judged_rounds):
    outcomes = _outcomes(resolutions)
    summary = summarise(outcomes, "wrong", 50)
    assert summary.rounds == len(resolutions)  # abstentions stay recorded
    assert sum(summary.resolved_by.values()) == len(resolutions)
    assert summary.S == pytest.approx(S) if S is not None else summary.S is None
    kept = [o for o in outcomes if judged(o.judgement.resolved_by)]
    assert len(kept) == judged_rounds
    assert summary.correct == sum(o.judgement.correct for o in kept)
    by_hand = Tally.of(kept, lambda o: float(o.judgement.correct))  # the CI resamples the judged rounds only
    expected_ci = bootstrap_ci(by_hand.sums, by_hand.counts, 50) if judged_rounds else None
    assert summary.S_ci95 == expected_ci
    assert [correct(o) is None for o in outcomes] == [r in ("abstain", "late") for r, _ in resolutions]


CONFIG = """name: abstaining
johns:
  - {{name: distil-lingeval, params: {{dir: {distil}/placeholder_ding.human, limit: 40}}}}
zelligs:
  - {{name: "{helpers}:DetectingReplay", alias: ding}}
claudes:
  - {{name: "{helpers}:AbstainingClaude", alias: some, params: {{share: 0.4}}}}
  - {{name: "{helpers}:AbstainingClaude", alias: none, params: {{share: 1}}}}
  - {{name: "{helpers}:AbstainingClaude", alias: never, params: {{share: 0}}}}
seeds: [1, 2]
bootstrap_samples: 20
"""


def test_a_run_with_abstaining_claudes(tmp_path, distil_dir, capsys):
    config = tmp_path / "abstaining.yaml"
    config.write_text(CONFIG.format(distil=distil_dir, helpers=HERE), encoding="utf-8")
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"]) == 0
    console = capsys.readouterr().out
    (run_dir,) = (tmp_path / "runs").iterdir()
    same_scores(run_dir)  # the streamed scores equal the in-memory reference's
    scores = read_scores(run_dir)
    run = RunData.open(run_dir)
    cells = {(c.claude, c.seed): c.summary for c in scores.cells}
    for (claude, seed), cell in cells.items():
        judgements = [j for j in run.judgements if j.claude == claude and j.round.startswith(f"{seed}|")]
        mine = [j for j in judgements if judged(j.resolved_by)]
        assert cell.rounds == len(judgements) > 0 and cell.judged == len(mine)
        assert cell.resolved_by.get("abstain", 0) == len(judgements) - len(mine)
        if claude == "none":
            assert cell.S is None and cell.S_ci95 is None and cell.correct == 0
        else:
            assert cell.S == pytest.approx(sum(j.correct for j in mine) / len(mine))
        if claude == "some":
            assert 0 < len(mine) < len(judgements)
        if claude == "never":
            assert len(mine) == len(judgements)
    means = {s.claude: s for s in scores.over_seeds}
    assert means["none"].S_mean is None and means["none"].S_std is None
    assert means["never"].S_mean == pytest.approx(np.mean([c.S for (claude, _), c in cells.items() if claude == "never"]))
    header, *lines = [line for line in console.splitlines() if line.startswith(("john", "distil"))][:7]
    assert header.split()[4:7] == ["rounds", "judged", "S"]  # the rounds S counts, beside all the rounds
    assert {line.split()[2]: line.split()[6] for line in lines}["none"] == "-"  # S of a cell judged nowhere
    assert "- ± -" not in console
    report = next(run_dir.glob("report*.md"), None)
    assert report is not None and "| judged |" in report.read_text(encoding="utf-8")
    assert main(["export", str(run_dir), "--format", "csv", "--out", str(tmp_path / "tables")]) == 0
    rows = list(csv.DictReader((tmp_path / "tables" / "cells.csv").open(encoding="utf-8")))
    assert {(row["S"], row["judged"]) for row in rows if row["claude"] == "none"} == {("", "0")}
    assert all(int(row["judged"]) < int(row["rounds"]) for row in rows if row["claude"] == "some")
    assert all(float(row["S"]) >= 0 for row in rows if row["claude"] != "none")
    assert main(["score", str(run_dir)]) == 0
    assert "Traceback" not in capsys.readouterr().out
    assert main(["leaderboard", str(run_dir)]) == 0
    board = capsys.readouterr().out
    assert "not ranked: none: abstained on 80 of 80 rounds; answered 0 of cell" in board
    some = sum(c.judged for (claude, _), c in cells.items() if claude == "some")
    claudes = board.split("\n\n")[0].splitlines()[3:6]
    assert [line.split()[:3] for line in claudes] == [["1", "never", "80"], ["-", "some", str(some)],
                                                      ["-", "none", "0*"]]  # the rounds S counts
    assert np.isfinite([c.S for (claude, _), c in cells.items() if claude != "none"]).all()
