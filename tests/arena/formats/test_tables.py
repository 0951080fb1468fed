"""The one table of table formats: every suffix, reader and writer (arena/formats/tables.py)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from arena.errors import UsageError
from arena.formats.tables import FORMATS, format_of, read_rows, write_rows

ROWS = [
    {"id": "a", "text": 'Er sagte "ja",\tdann\nging er.', "score": -1.25, "n": 3, "pieces": ["▁Er", "▁sagte"]},
    {"id": "b", "text": "Größe", "score": None, "n": 4, "pieces": []},
]


@pytest.mark.parametrize(("name", "kind"), [
    ("x.tsv", "tsv"), ("x.TSV", "tsv"), ("x.csv", "csv"), ("x.jsonl", "jsonl"), ("x.ndjson", "jsonl"),
    ("x.parquet", "parquet"), ("dir/x.y.csv", "csv"),
])
def test_format_by_suffix(name, kind):
    assert format_of(name) == kind


@pytest.mark.parametrize("name", ["x.xlsx", "x", "x.json", "x.tsv.gz"])
def test_unknown_suffix_is_a_usage_error_naming_the_suffixes(name):
    with pytest.raises(UsageError, match="table format") as caught:
        format_of(name, key="--out")
    assert "*.tsv" in caught.value.hint and caught.value.key == "--out"


@pytest.mark.parametrize("kind", list(FORMATS))
def test_rows_read_back_as_written(tmp_path, kind):
    path = tmp_path / f"table{FORMATS[kind].suffixes[0]}"
    write_rows(ROWS, path)
    back = [row for _, row in read_rows(path)]
    assert [row["id"] for row in back] == ["a", "b"]
    assert back[0]["text"] == ROWS[0]["text"]  # quotes, tab and line break kept exactly
    if kind in ("tsv", "csv"):  # cells are text; lists are JSON, a missing value is empty
        assert back[0]["score"] == "-1.25" and back[1]["score"] == "" and back[0]["pieces"] == '["▁Er", "▁sagte"]'
    else:
        assert back[0]["score"] == -1.25 and back[1]["score"] is None and list(back[0]["pieces"]) == ["▁Er", "▁sagte"]


@pytest.mark.parametrize("kind", list(FORMATS))
def test_a_dataframe_is_written_with_nan_as_missing(tmp_path, kind):
    frame = pd.DataFrame({"S": [0.5, float("nan")], "n": [1, 2]})
    path = tmp_path / f"frame{FORMATS[kind].suffixes[0]}"
    write_rows(frame, path)
    back = [row for _, row in read_rows(path)]
    if kind in ("tsv", "csv"):
        assert [row["S"] for row in back] == ["0.5", ""] and [row["n"] for row in back] == ["1", "2"]
    elif kind == "jsonl":
        assert [row["S"] for row in back] == [0.5, None]
    else:  # Parquet keeps the column's type: a float column with a missing value
        assert back[0]["S"] == 0.5 and (back[1]["S"] is None or math.isnan(back[1]["S"]))


def test_standard_output_is_tsv_and_parquet_needs_a_file(capsys):
    write_rows(ROWS[:1], None)
    assert capsys.readouterr().out.splitlines()[0] == "id\ttext\tscore\tn\tpieces"
    with pytest.raises(UsageError, match="standard output"):
        write_rows(ROWS, None, "parquet")
