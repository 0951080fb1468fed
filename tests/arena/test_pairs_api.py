"""arena.score_pairs / arena.run_pairs (arena/pairs_api.py) and score-pairs --pairs."""

from __future__ import annotations

import json
import math

import pytest

import arena
from arena.cli import main
from arena.errors import DataError, UsageError

PAIRS = [
    {"source": "I have no time.", "correct": "Ich habe keine Zeit.", "incorrect": "Ich habe Zeit.", "topic": "neg"},
    {"source": "The children are playing.", "correct": "Die Kinder spielen.", "incorrect": "Die Kinder spielt.",
     "topic": "agr"},
]


@pytest.fixture(scope="module")
def toy():
    return arena.performer("claude", "toy-en-de:cache=false,progress=false")


def test_score_pairs_matches_the_claude_and_keeps_metadata(toy):
    frame = arena.score_pairs(PAIRS, claude=toy)
    scores = toy.score([p["source"] for p in PAIRS for _ in (0, 1)],
                       [t for p in PAIRS for t in (p["correct"], p["incorrect"])])
    assert frame["score_correct"].tolist() == pytest.approx([scores[0].mean, scores[2].mean])
    assert frame["score_incorrect"].tolist() == pytest.approx([scores[1].mean, scores[3].mean])
    assert frame["topic"].tolist() == ["neg", "agr"] and frame["id"].tolist() == ["pairs.1", "pairs.2"]
    for _, row in frame.iterrows():
        expected = "correct" if row.score_correct > row.score_incorrect else "incorrect"
        assert row.decision == expected and row.correct_preferred == (expected == "correct")
    assert "tokens_correct" not in frame.columns  # tokens only when asked


def test_tokens_sum_to_the_scores_and_name_a_blame(toy):
    frame = arena.score_pairs(PAIRS, claude=toy, tokens=True)
    for _, row in frame.iterrows():
        assert math.fsum(row.logprobs_correct) == pytest.approx(row.logprob_correct, abs=1e-4)
        assert len(row.tokens_incorrect) == row.length_incorrect
        assert isinstance(row.blame, str) and "/" in row.blame


@pytest.mark.parametrize("claude,error", [("random", "no score"), ("oracle", "no score")])
def test_non_scoring_claudes_are_refused(claude, error):
    with pytest.raises(UsageError, match=error):
        arena.score_pairs(PAIRS, claude=claude)


def test_bad_pairs_fail_before_scoring():
    with pytest.raises(DataError, match="row 1: no column 'incorrect'"):
        arena.score_pairs([{"source": "a", "correct": "b"}], claude="random")


def test_cli_writes_every_table_format(tmp_path):
    source = tmp_path / "mine.jsonl"
    source.write_text("".join(json.dumps({"en": p["source"], "good": p["correct"], "bad": p["incorrect"]},
                                         ensure_ascii=False) + "\n" for p in PAIRS), encoding="utf-8")
    base = ["-q", "score-pairs", "--claude", "toy-en-de:cache=false", "--pairs", str(source),
            "--columns", "source=en,correct=good,incorrect=bad"]
    import pandas as pd

    frames = {}
    for name in ("out.tsv", "out.csv", "out.jsonl", "out.parquet"):
        assert main([*base, "--tokens", "--out", str(tmp_path / name)]) == 0
        frames[name] = {
            "out.tsv": lambda p: pd.read_csv(p, sep="\t"), "out.csv": pd.read_csv,
            "out.jsonl": lambda p: pd.read_json(p, lines=True), "out.parquet": pd.read_parquet,
        }[name](tmp_path / name)
    for frame in frames.values():
        assert frame["decision"].tolist() == frames["out.jsonl"]["decision"].tolist()
        assert frame["score_correct"].tolist() == pytest.approx(frames["out.jsonl"]["score_correct"].tolist())
    assert json.loads(frames["out.tsv"]["tokens_correct"][0])[-1] == "</s>"  # lists are JSON in TSV cells


@pytest.mark.parametrize("arguments,words", [
    (["--pairs", "PAIRS", "--out", "x.xlsx"], "table format"),
    (["--pairs", "PAIRS", "--format", "lingeval97", "--out", "x.tsv"], "without --format"),
    (["--pairs", "PAIRS", "--score", "sum", "--out", "x.tsv"], "--score"),
    (["--format", "distil-lingeval", "--testset", "PAIRS", "--tokens", "--out", "x.tsv"], "go with --pairs"),
    (["--out", "x.tsv"], "give --pairs"),
])
def test_cli_usage_errors_exit_2(tmp_path, capsys, arguments, words):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("source\tcorrect\tincorrect\nA.\tB.\tC.\n", encoding="utf-8")
    arguments = [str(pairs) if a == "PAIRS" else str(tmp_path / a) if a.startswith("x.") else a for a in arguments]
    assert main(["score-pairs", "--claude", "toy-en-de", *arguments]) == 2
    assert words in capsys.readouterr().err


def test_cli_bad_file_names_line_and_column(tmp_path, capsys):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("source\tcorrect\tincorrect\nA.\tB.\tC.\nA.\tB.\n", encoding="utf-8")
    assert main(["score-pairs", "--claude", "toy-en-de", "--pairs", str(pairs), "--out", "-"]) == 2
    assert f"{pairs}:3: incorrect: 2 fields" in capsys.readouterr().err
