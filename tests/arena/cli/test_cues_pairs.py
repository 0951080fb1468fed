"""``arena cues --pairs FILE --columns ...`` reads every pair format ``arena score-pairs`` reads
(TSV, CSV, JSONL, Parquet, pandas-written with quotes, tabs and line breaks in fields) through the
same reader and ``--columns`` mapping, ``phenomenon=COL`` included, with the same results; a
``--columns`` naming a missing column and a file with no rows are exit 2 naming file and key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main

FAST = ["--cue", "length", "--cue", "edit-words"]
ROWS = [
    {"source": f'He said "{i}" because\tit rained.', "correct": f'Er sagte „{i}“, weil\tes "regnete".',
     "incorrect": f'Er sagte "{i}".', "phenomenon": "clause_omission" if i % 2 else "quote\n\"mark\""}
    for i in range(24)
]
RENAMED = {"source": "en", "correct": "good", "incorrect": "bad", "phenomenon": "category"}
MAPPING = "source=en,correct=good,incorrect=bad,phenomenon=category"


def write(directory: Path, name: str) -> tuple[Path, list[str]]:
    """The rows written by pandas as ``name``; the --columns arguments that read them."""
    import pandas as pd

    frame = pd.DataFrame(ROWS)
    path = directory / name
    if name.startswith("renamed"):
        frame.rename(columns=RENAMED).to_csv(path, index=False)
        return path, ["--columns", MAPPING]
    {".tsv": lambda: frame.to_csv(path, sep="\t", index=False), ".csv": lambda: frame.to_csv(path, index=False),
     ".jsonl": lambda: frame.to_json(path, orient="records", lines=True, force_ascii=False),
     ".parquet": lambda: frame.to_parquet(path, index=False)}[path.suffix]()
    return path, []


NAMES = ["p.tsv", "p.csv", "p.jsonl", "p.parquet", "renamed.csv"]


def cues_json(tmp_path: Path, name: str) -> list[dict]:
    path, columns = write(tmp_path, name)
    out = tmp_path / f"{name}.cues.json"
    assert main(["cues", "--pairs", str(path), *columns, *FAST, "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    for table in data:
        assert table.pop("set") == name
    return data


def test_cues_read_every_format_alike_with_phenomenon_tables(tmp_path, capsys):
    results = {name: cues_json(tmp_path, name) for name in NAMES}
    first = results[NAMES[0]]
    assert sorted(t["phenomenon"] for t in first) == ["clause_omission", 'quote\n"mark"']
    assert sum(t["n"] for t in first) == len(ROWS)
    for name in NAMES[1:]:
        assert results[name] == first, name


def test_cues_and_score_pairs_read_the_same_pairs(tmp_path, capsys):
    scored = {}
    for name in ["p.tsv", "p.parquet", "renamed.csv"]:
        path, columns = write(tmp_path, name)
        out = tmp_path / f"{name}.scores.jsonl"
        assert main(["-q", "score-pairs", "--claude", "toy-en-de:cache=false", "--pairs", str(path), *columns,
                     "--out", str(out)]) == 0
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        scored[name] = [(r["source"], r["correct"], r["incorrect"], r["phenomenon"], r["decision"],
                         r["score_correct"], r["score_incorrect"]) for r in rows]
    assert [row[:4] for row in scored["p.tsv"]] == [tuple(r.values()) for r in ROWS]
    assert scored["p.tsv"] == scored["p.parquet"] == scored["renamed.csv"]
    cues = cues_json(tmp_path, "p.tsv")
    assert sum(t["n"] for t in cues) == len(scored["p.tsv"])


@pytest.mark.parametrize("verb", ["cues", "score-pairs"])
@pytest.mark.parametrize("content,columns,words,key", [
    ("en,correct,incorrect\nA.,B.,C.\n", "source=src", "no column 'src'", "src"),
    ("source,correct,incorrect,cat\nA.,B.,C.,x\n", "phenomenon=category", "no column 'category'", "category"),
    ("source,correct,incorrect\n", None, "no pairs", None),
    ("source,correct,incorrect\n\n\n", None, "no pairs", None),
])
def test_bad_columns_and_empty_files_exit_2_naming_file_and_key(tmp_path, capsys, verb, content, columns, words, key):
    path = tmp_path / "p.csv"
    path.write_text(content, encoding="utf-8")
    argv = ["cues", *FAST, "--pairs"] if verb == "cues" else ["score-pairs", "--claude", "toy-en-de", "--out", "-",
                                                             "--pairs"]
    argv += [str(path), *(["--columns", columns] if columns else [])]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert str(path) in error and words in error
    if key is not None:
        assert f"{key}:" in error or f"'{key}'" in error


@pytest.mark.parametrize("argv,words", [
    (["--pairs", "P", "--testset", "P"], "not --testset and --pairs"),
    (["--columns", "source=en", "--testset", "P"], "--columns goes with --pairs"),
    (["--pairs", "P", "--format", "lingeval97"], "not --format lingeval97"),
    (["--pairs", "missing.tsv"], "no such file"),
])
def test_cues_pairs_usage_errors(tmp_path, capsys, argv, words):
    path, _ = write(tmp_path, "p.tsv")
    argv = [str(path) if a == "P" else a for a in argv]
    assert main(["cues", *FAST, *argv]) == 2
    assert words in capsys.readouterr().err
