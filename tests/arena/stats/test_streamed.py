"""The streamed aggregation gives the reference's ``scores.json`` byte for byte (runs, games,
tournaments, resumed runs, replicas, tie policies), and refuses a damaged run as the reference does."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from arena.cli import main
from arena.codec import dump
from arena.errors import DataError
from arena.record import scan, transcripts
from arena.stats.aggregate import Tally
from arena.stats.streamed import score_run, tally
from tests.arena.engine.helpers import HERE
from tests.arena.engine.test_engine import write_config
from tests.arena.stats.oracle import score_run_in_memory
from tests.arena.stats.runs import GAME, finished_run


def same_scores(run_dir: Path) -> str:
    streamed = json.dumps(dump(score_run(run_dir)), ensure_ascii=False, indent=2) + "\n"
    reference = json.dumps(dump(score_run_in_memory(run_dir)), ensure_ascii=False, indent=2) + "\n"
    assert streamed == reference
    assert (run_dir / transcripts.SCORES).read_text(encoding="utf-8") == streamed  # what the run wrote
    return streamed


@pytest.mark.parametrize("extra", [
    "",  # scoring and chance Claudes, 1-bests and detectors (discrepancy, generative rate)
    GAME,  # a game: observation rounds, timelines, blocks that carry their number
    "contrastive_ties: half\nbreakdowns: [john.reference_kind, john.origin]\nvariants_per_instance: 2",
    "discrepancy: false\ngenerative_rate: false",
])
def test_streamed_scores_equal_the_reference(tmp_path, distil_dir, extra):
    same_scores(finished_run(tmp_path, distil_dir, extra))


def test_streamed_scores_of_a_run_with_a_balanced_john(tmp_path, distil_dir):
    config = tmp_path / "balanced.yaml"
    config.write_text(
        f"name: balanced\njohns:\n  - {{name: distil-lingeval, params: {{dir: {distil_dir}/placeholder_ding.human, "
        "limit: 40}, balance: {cue: length}}\n"
        f"zelligs: [replay, {{name: '{HERE}:DetectingReplay', alias: ding}}]\n"
        f"claudes: [random, {{name: '{HERE}:HashScorer', alias: nmt}}]\nseeds: [1, 2]\nbootstrap_samples: 20\n",
        encoding="utf-8")
    assert main(["--quiet", "run", str(config), "--out", str(tmp_path / "runs"), "--no-progress", "--no-report"]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert '"balanced_out"' in (run_dir / transcripts.ROUNDS).read_text(encoding="utf-8")  # the balance left pairs out
    same_scores(run_dir)


def test_streamed_scores_of_a_tournament_with_replicas(tmp_path, distil_dir):
    path = write_config(tmp_path, distil_dir, f"[random, {{name: '{HERE}:HashScorer', alias: hash, "
                        "replicas: {1: {salt: a}, 2: {salt: b}, 3: {salt: c}}}]",
                        limit=6)
    assert main(["--quiet", "tournament", str(path), "--out", str(tmp_path / "t"), "--executor", "in-process",
                 "--no-plots", "--no-progress"]) == 0
    (run_dir,) = (tmp_path / "t").iterdir()
    same_scores(run_dir)


def test_streamed_scores_of_a_resumed_run(tmp_path, distil_dir):
    run_dir = finished_run(tmp_path, distil_dir)
    (run_dir / transcripts.SCORES).unlink()  # interrupted after its cells: resumed, scored again
    for cell in sorted((run_dir / "cells").glob("s2-*.jsonl")):
        cell.unlink()
    (run_dir / transcripts.JUDGEMENTS).unlink()
    assert main(["--quiet", "run", str(tmp_path / "typed.yaml"), "--out", str(tmp_path / "runs"), "--no-progress",
                 "--no-report"]) == 0
    same_scores(run_dir)


@pytest.mark.parametrize("damage", ["swap", "duplicate", "cut"])
def test_a_damaged_run_is_refused_as_the_reference_refuses_it(tmp_path, distil_dir, damage):
    run_dir = finished_run(tmp_path, distil_dir)
    path = run_dir / transcripts.JUDGEMENTS
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if damage == "swap":
        lines[3], lines[4] = lines[4], lines[3]
    elif damage == "duplicate":
        lines.insert(5, lines[4])
    else:
        lines[-1] = lines[-1][:20]
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(DataError) as reference:
        score_run_in_memory(run_dir)
    with pytest.raises(DataError) as streamed:
        score_run(run_dir)
    assert str(streamed.value) == str(reference.value)
    assert (streamed.value.file, streamed.value.line) == (reference.value.file, reference.value.line)


@pytest.mark.parametrize("keys, values", [
    ([], []),
    ([1, 2, 1, 3, 2, 1], [1.0, 0.0, 0.5, 1.0, 0.25, 0.0]),
    ([7, 7, 7], [0.1, 0.2, 0.3]),  # one instance: sums in row order
    ([3, 1, 2], [1.0, 1.0, 0.0]),  # first-seen order, not sorted
])
def test_tally_from_columns_equals_the_tally_of_outcomes(keys, values):
    class Row:
        def __init__(self, key, value):
            self.key, self.value = key, value

    rows = [Row(k, v) for k, v in zip(keys, values)]
    reference = Tally.of(rows, lambda r: r.value, lambda r: r.key)  # type: ignore[arg-type]
    columns = tally(np.array(keys, dtype=np.uint64), np.array(values, dtype=float))
    assert columns.keys == reference.keys
    assert columns.sums.tobytes() == reference.sums.tobytes()
    assert columns.counts.tolist() == reference.counts.tolist()
    assert columns.ci(30) == reference.ci(30)


@pytest.mark.parametrize("parts, other, equal", [
    (("a",), ("a",), True),
    (("a",), ("b",), False),
    (("ab", "c"), ("a", "bc"), False),  # the parts are delimited
    ((1,), ("1",), False),  # a number is not its text
])
def test_key_hash(parts, other, equal):
    assert (scan.key_hash(*parts) == scan.key_hash(*other)) is equal
