"""The match loop end to end, in process: determinism, the oracle, the coin, resume,
time budgets, and bad input."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from arena.record import transcripts
from arena.records import Judgement
from arena.specs.config import load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import run as run_engine

HERE = "tests.arena.engine.test_match"


class InterruptibleClaude:
    """The random Claude, except that it raises KeyboardInterrupt (a Ctrl-C in the
    middle of a run) while ``ARENA_TEST_INTERRUPT`` is set."""

    version = "1"

    def __init__(self, seed: int = 0):
        from performers.claude.random import RandomClaude

        self.inner = RandomClaude(seed)

    def judge(self, pairs):
        import os

        if os.environ.get("ARENA_TEST_INTERRUPT"):
            raise KeyboardInterrupt
        return self.inner.judge(pairs)


class TieClaude:
    """Always reports equal scores: every round is a tie resolved by the arena's coin."""

    version = "1"

    def judge(self, pairs):
        return [Judgement(None, (0.0, 0.0)) for _ in pairs]


class SlowClaude:
    version = "1"

    def judge(self, pairs):
        time.sleep(0.05)
        return [Judgement(0) for _ in pairs]


class SlowZellig:
    version = "1"

    def corrupt(self, instance):
        time.sleep(0.02)
        return []


def config(tmp_path: Path, distil_dir: Path, claudes: str, extra: str = "", limit: int = 200) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(
        f"""name: t
johns: [{{name: distil-lingeval, alias: ding, params: {{dir: {distil_dir / 'placeholder_ding.human'}, limit: {limit}}}}}]
zelligs: [replay]
claudes: {claudes}
seeds: [1, 2]
bootstrap_samples: 200
{extra}""",
        encoding="utf-8",
    )
    return path


def run(path: Path, out: Path, overrides=()):
    return run_engine(load_experiment(path, overrides), CATALOG, out, progress=False)


def transcript_bytes(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in (transcripts.ROUNDS, transcripts.JUDGEMENTS)}


def test_oracle_scores_one_and_runs_are_byte_identical(tmp_path, distil_dir):
    path = config(tmp_path, distil_dir, "[oracle, random]")
    first = run(path, tmp_path / "a")
    second = run(path, tmp_path / "b")
    assert transcript_bytes(first.run_dir) == transcript_bytes(second.run_dir)
    cells = {(c.claude, c.seed): c.summary for c in first.scores.cells}
    assert cells["oracle", 1].S == 1.0 and cells["oracle", 2].S == 1.0
    assert cells["oracle", 1].rounds == 200
    rounds = [json.loads(line) for line in (first.run_dir / "rounds.jsonl").read_text(encoding="utf-8").splitlines()]
    assert "Börse" in (first.run_dir / "rounds.jsonl").read_text(encoding="utf-8")  # German stays readable
    assert {r["corrupted"] for r in rounds} == {0, 1}


def test_random_is_within_its_ci_of_one_half(tmp_path, distil_dir):
    path = config(tmp_path, distil_dir, "[random]", limit=2000)
    scores = run(path, tmp_path / "out").scores
    for cell in scores.cells:
        assert cell.summary.rounds == 2000
        assert cell.summary.S_ci95 is not None
        low, high = cell.summary.S_ci95
        assert low <= 0.5 <= high, cell


def test_finished_run_is_not_overwritten(tmp_path, distil_dir):
    path = config(tmp_path, distil_dir, "[oracle]")
    first = run(path, tmp_path / "out")
    before = (first.run_dir / "judgements.jsonl").stat().st_mtime_ns
    again = run(path, tmp_path / "out")
    assert again.already_finished and again.run_dir == first.run_dir
    assert (first.run_dir / "judgements.jsonl").stat().st_mtime_ns == before


def test_interrupted_run_resumes_to_identical_transcripts(tmp_path, distil_dir, monkeypatch):
    path = config(tmp_path, distil_dir, f"[oracle, {HERE}:InterruptibleClaude]")
    undisturbed = run(path, tmp_path / "ref")
    monkeypatch.setenv("ARENA_TEST_INTERRUPT", "1")
    with pytest.raises(KeyboardInterrupt):
        run(path, tmp_path / "out")
    run_dir = tmp_path / "out" / undisturbed.run_dir.name
    assert not transcripts.is_finished(run_dir)  # Ctrl-C left rounds and the oracle's block
    with open(run_dir / "judgements.jsonl", "a", encoding="utf-8") as file:
        file.write('{"round": "1|ding|replay|x')  # and a torn write at the end
    monkeypatch.delenv("ARENA_TEST_INTERRUPT")
    result = run(path, tmp_path / "out")
    assert result.resumed
    assert transcript_bytes(result.run_dir) == transcript_bytes(undisturbed.run_dir)


def test_ties_are_resolved_by_a_recorded_seeded_coin(tmp_path, distil_dir):
    path = config(tmp_path, distil_dir, f"[{HERE}:TieClaude]")
    result = run(path, tmp_path / "out")
    judgements = [json.loads(x) for x in (result.run_dir / "judgements.jsonl").read_text().splitlines()]
    assert {j["resolved_by"] for j in judgements} == {"tie"}
    assert all(j["choice"] in (0, 1) for j in judgements)
    cell = result.scores.cells[0].summary
    assert cell.value("accuracy") == 0.0  # ties count as wrong by default
    assert cell.S is not None and 0.3 < cell.S < 0.7
    again = run(path, tmp_path / "again")
    assert transcript_bytes(again.run_dir) == transcript_bytes(result.run_dir)


def test_time_budgets_give_free_points_and_coins(tmp_path, distil_dir):
    slow_zellig = config(tmp_path, distil_dir, "[random]", "time_budget: {zellig_seconds: 0.001}\n", limit=5)
    result = run(slow_zellig, tmp_path / "z", [f"zelligs.0={HERE}:SlowZellig"])
    cell = result.scores.cells[0].summary
    assert cell.S == 1.0 and cell.resolved_by == {"free": 5}
    slow_claude = config(tmp_path, distil_dir, f"[{HERE}:SlowClaude]", "time_budget: {claude_seconds_per_pair: 0.0001}\n")
    cell = run(slow_claude, tmp_path / "c").scores.cells[0].summary
    assert cell.resolved_by == {"late": 200}


def test_bad_input_names_file_and_line(tmp_path):
    directory = tmp_path / "bad.human"
    directory.mkdir()
    (directory / "src.en").write_text("a\nb\n")
    (directory / "tgt.correct.de").write_text("A\n\n")
    (directory / "tgt.incorrect.de").write_text("X\nY\n")
    path = tmp_path / "exp.yaml"
    path.write_text(f"name: t\njohn: {{name: distil-lingeval, params: {{dir: {directory}}}}}\nzellig: replay\nclaude: oracle\n")
    with pytest.raises(ValueError, match=r"tgt.correct.de:2: empty line"):
        run(path, tmp_path / "out")
    assert list((tmp_path / "out").iterdir()) == []  # a failed run leaves no run directory behind
    (directory / "tgt.correct.de").write_text("A\nB\nC\n")
    with pytest.raises(ValueError, match=r"tgt.correct.de.*line counts"):
        run(path, tmp_path / "out2")


def test_unknown_performer_is_a_clear_error(tmp_path, distil_dir):
    path = config(tmp_path, distil_dir, "[orcale]")
    with pytest.raises(ValueError, match=r"claudes\[0\]: unknown Claude 'orcale'.*Did you mean oracle"):
        run(path, tmp_path / "out")
