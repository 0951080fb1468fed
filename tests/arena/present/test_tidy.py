"""Tidy exports (arena export --format csv|parquet|jsonl; arena/present/tidy.py): one
pandas call loads each table, the rows match the transcripts, every column is documented."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.cli import main
from arena.stats.results import read_scores
from tests.arena.engine.helpers import HERE

pd = pytest.importorskip("pandas")
DOCS = Path(__file__).resolve().parents[3] / "docs" / "exports.md"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, distil_dir) -> Path:
    tmp_path = tmp_path_factory.mktemp("tidy")
    config = tmp_path / "tidy.yaml"
    config.write_text(
        f"name: tidy\njohns:\n"
        f"  - {{name: distil-lingeval, alias: human, params: {{dir: {distil_dir / 'placeholder_ding.human'}, limit: 25}}}}\n"
        f"  - {{name: distil-lingeval, alias: mt, params: {{dir: {distil_dir / 'placeholder_ding.mt'}, limit: 25}}}}\n"
        "zellig: {name: replay, alias: replay, params: {detector: placeholder-ding}}\n"
        f"claudes: [{{name: '{HERE}:HashScorer', alias: hash}}, random]\nseeds: [1, 2]\nbootstrap_samples: 20\n",
        encoding="utf-8",
    )
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress", "--no-report"]) == 0
    (found,) = (tmp_path / "runs").iterdir()
    return found


READERS = {
    "csv": lambda path: pd.read_csv(path),
    "parquet": lambda path: pd.read_parquet(path),
    "jsonl": lambda path: pd.read_json(path, lines=True),
}


@pytest.mark.parametrize("format", sorted(READERS))
def test_each_table_loads_with_one_call(run_dir, tmp_path, format, capsys):
    pytest.importorskip("pyarrow")
    assert main(["export", str(run_dir), "--format", format, "--out", str(tmp_path)]) == 0
    assert "load with: import pandas as pd" in capsys.readouterr().out
    rounds = READERS[format](tmp_path / f"rounds.{format}")
    judgements = [json.loads(line) for line in (run_dir / "judgements.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rounds) == len(judgements)  # one row per judged round × Claude
    assert set(rounds["claude"]) == {"hash", "random"} and set(rounds["john"]) == {"human", "mt"}
    assert set(rounds["john.reference_kind"]) == {"human", "machine"}
    scores = read_scores(run_dir)
    # the cells table is scores.json, and S is the mean of `correct` over the cell's rows
    cells = READERS[format](tmp_path / f"cells.{format}")
    assert len(cells) == len(scores.cells)
    for _, cell in cells.iterrows():
        mine = rounds[(rounds.john == cell.john) & (rounds.claude == cell.claude) & (rounds.seed == cell.seed)]
        assert mine["correct"].mean() == pytest.approx(cell.S)
    hash_rows = rounds[rounds.claude == "hash"]
    assert hash_rows["score_correct"].notna().all() and rounds[rounds.claude == "random"]["score_correct"].isna().all()
    boards = READERS[format](tmp_path / f"leaderboards.{format}")
    assert set(boards["board"]) == {"claudes", "zelligs", "johns"}
    assert set(boards[boards.board == "zelligs"]["against"]) == {"hash", "random"}
    # a second export refuses to overwrite without --force
    assert main(["export", str(run_dir), "--format", format, "--out", str(tmp_path)]) == 2
    assert main(["export", str(run_dir), "--format", format, "--out", str(tmp_path), "--force"]) == 0


def test_every_column_is_documented(run_dir):
    from arena.present.tidy import tables

    documented = set()
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            documented.update(re.findall(r"`([\w.<>]+)`", line.split("|")[1]))
    for name, table in tables(run_dir).items():
        for column in table.columns:
            generic = re.sub(r"^(john|variant)\..*", r"\1.<key>", column)
            assert generic in documented, f"{name}.{column} is not documented in {DOCS}"


def test_tidy_formats_need_a_finished_run(tmp_path, capsys):
    config = tmp_path / "x.yaml"
    config.write_text("name: x\n", encoding="utf-8")
    assert main(["export", str(config), "--format", "csv", "--out", str(tmp_path / "o")]) == 2
    assert "exports a finished run directory" in capsys.readouterr().err
    (tmp_path / "started").mkdir()
    assert main(["export", str(tmp_path / "started"), "--format", "csv", "--out", str(tmp_path / "o")]) == 2
    assert "not a finished run" in capsys.readouterr().err


def test_stored_token_views_become_a_tokens_table_and_none_make_no_table(run_dir, tmp_path):
    from arena.present.tidy import tables
    from arena.run_tokens import TOKENS_FILE

    assert "tokens" not in tables(run_dir)  # no stored views: no table, no empty file
    rounds = [json.loads(line) for line in (run_dir / "rounds.jsonl").read_text(encoding="utf-8").splitlines()]
    row = {"correct": " Haus", "incorrect": " Ding", "logprob_correct": -1.5, "logprob_incorrect": -0.5,
           "delta": -1.0, "changed": True}
    same = {"correct": " Das", "incorrect": " Das", "logprob_correct": -0.2, "logprob_incorrect": -0.2,
            "delta": 0.0, "changed": False}
    view = {"claude": "hash", "round": rounds[0]["round"], "rows": [same, row], "blame": 1, "summary": "x"}
    path = run_dir / TOKENS_FILE
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(view) + "\n", encoding="utf-8")
    try:
        tokens = tables(run_dir)["tokens"]
        assert list(tokens["position"]) == [0, 1] and list(tokens["blamed"]) == [False, True]
        assert list(tokens["incorrect"]) == [" Das", " Ding"] and tokens["delta"].iloc[1] == -1.0
        assert main(["export", str(run_dir), "--format", "csv", "--out", str(tmp_path)]) == 0
        assert len(pd.read_csv(tmp_path / "tokens.csv")) == 2
        test_every_column_is_documented(run_dir)
    finally:
        path.unlink()
