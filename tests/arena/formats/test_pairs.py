"""Own pairs files (arena/formats/pairs.py): every format reads the same pairs; bad files
name the line and column; what must not fire (extra columns, blank lines, quotes in TSV)."""

from __future__ import annotations

import json

import pytest

from arena.errors import DataError, UsageError
from arena.formats.pairs import load_pairs, parse_columns, read_pairs

ROWS = [
    {"source": "I have no time.", "correct": "Ich habe keine Zeit.", "incorrect": "Ich habe Zeit.", "kind": "neg"},
    {"source": 'He said "yes".', "correct": 'Er sagte "ja".', "incorrect": 'Er sagten "ja".', "kind": "agr"},
]


def write(path, rows, kind):
    if kind in ("tsv", "csv"):
        import csv

        with path.open("w", encoding="utf-8", newline="") as handle:
            if kind == "tsv":
                handle.write("\t".join(rows[0]) + "\n")
                for row in rows:
                    handle.write("\t".join(row.values()) + "\n")
            else:
                writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
    elif kind == "jsonl":
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    elif kind == "parquet":
        import pandas as pd

        pd.DataFrame(rows).to_parquet(path)
    elif kind == "arrow-dir":
        import pyarrow as pa

        path.mkdir()
        table = pa.Table.from_pylist(rows)
        with pa.OSFile(str(path / "data-00000-of-00001.arrow"), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as w:
            w.write_table(table)
        (path / "state.json").write_text(json.dumps({"_data_files": [{"filename": "data-00000-of-00001.arrow"}]}))
    return path


@pytest.mark.parametrize("kind,name", [("tsv", "p.tsv"), ("csv", "p.csv"), ("jsonl", "p.jsonl"),
                                       ("parquet", "p.parquet"), ("arrow-dir", "saved")])
def test_every_format_reads_the_same_pairs(tmp_path, kind, name):
    pairs = read_pairs(write(tmp_path / name, ROWS, kind))
    assert [(p.source, p.correct, p.incorrect) for p in pairs] == [(r["source"], r["correct"], r["incorrect"]) for r in ROWS]
    assert [p.meta for p in pairs] == [{"kind": "neg"}, {"kind": "agr"}]
    assert pairs[1].source == 'He said "yes".'  # quotes stay characters in TSV


def test_dataframe_and_dicts_and_column_mapping():
    import pandas as pd

    renamed = [{"en": r["source"], "good": r["correct"], "bad": r["incorrect"], "key": f"k{i}"} for i, r in enumerate(ROWS)]
    mapping = "source=en,correct=good,incorrect=bad,id=key"
    for given in (renamed, pd.DataFrame(renamed)):
        pairs = load_pairs(given, mapping)
        assert [p.id for p in pairs] == ["k0", "k1"]
        assert pairs[0].correct == "Ich habe keine Zeit." and pairs[0].meta == {}


def test_ids_default_to_stem_and_line_and_blank_lines_are_skipped(tmp_path):
    path = tmp_path / "mine.tsv"
    path.write_text("source\tcorrect\tincorrect\n\nA.\tB.\tC.\n", encoding="utf-8")
    assert [p.id for p in read_pairs(path)] == ["mine.3"]


BAD = {
    # name: (file name, content, line, key, words in the message)
    "missing-column": ("a.tsv", "source\tcorrect\nA.\tB.\n", 2, "incorrect", "no column"),
    "short-row": ("a.tsv", "source\tcorrect\tincorrect\nA.\tB.\tC.\nA.\tB.\n", 3, "incorrect", "2 fields"),
    "long-row": ("a.tsv", "source\tcorrect\tincorrect\nA.\tB.\tC.\tD.\n", 2, "field 4", "4 fields"),
    "empty-text": ("a.csv", "source,correct,incorrect\nA.,,C.\n", 2, "correct", "empty"),
    "same-texts": ("a.csv", "source,correct,incorrect\nA.,B.,B.\n", 2, "incorrect", "same text"),
    "duplicate-id": ("a.csv", "id,source,correct,incorrect\nx,A.,B.,C.\nx,A.,B.,D.\n", 3, "id", "already used"),
    "duplicate-header": ("a.csv", "source,source,correct,incorrect\n", 1, "source", "twice"),
    "bad-json": ("a.jsonl", '{"source": "A.", "correct": "B.", "incorrect": "C."}\n{"source": \n', 2, None, "malformed JSON"),
    "json-not-object": ("a.jsonl", '["A.", "B.", "C."]\n', 1, None, "expected an object"),
    "json-number": ("a.jsonl", '{"source": "A.", "correct": 3, "incorrect": "C."}\n', 1, "correct", "not a text"),
    "not-utf8": ("a.tsv", b"source\tcorrect\tincorrect\nA.\t\xff\tC.\n", 2, None, "not UTF-8"),
    "only-header": ("a.tsv", "source\tcorrect\tincorrect\n", None, None, "no pairs"),
    "empty-file": ("a.tsv", "", 1, None, "empty file"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_files_name_line_and_column(tmp_path, case):
    name, content, line, key, words = BAD[case]
    path = tmp_path / name
    (path.write_bytes if isinstance(content, bytes) else lambda c: path.write_text(c, encoding="utf-8"))(content)
    with pytest.raises(DataError) as caught:
        read_pairs(path)
    error = caught.value
    assert words in str(error)
    assert error.file == str(path) and error.line == line
    if key is not None:
        assert error.key == key


@pytest.mark.parametrize("text,problem", [("source", "NAME=COLUMN"), ("target=x", "not one of"), ("source=", "NAME=COLUMN")])
def test_bad_column_maps(text, problem):
    with pytest.raises(UsageError, match=problem):
        parse_columns(text)


def test_unknown_suffix_and_missing_file(tmp_path):
    (tmp_path / "a.xlsx").write_text("x")
    with pytest.raises(UsageError, match="suffix"):
        read_pairs(tmp_path / "a.xlsx")
    with pytest.raises(DataError, match="no such file"):
        read_pairs(tmp_path / "nope.tsv")


def test_bad_parquet_and_empty_directory(tmp_path):
    (tmp_path / "a.parquet").write_text("not parquet")
    with pytest.raises(DataError, match="Parquet"):
        read_pairs(tmp_path / "a.parquet")
    (tmp_path / "d").mkdir()
    with pytest.raises(DataError, match="without Arrow"):
        read_pairs(tmp_path / "d")


def test_dataframe_rows_are_named_by_row():
    with pytest.raises(DataError, match="row 2: 'incorrect' is empty"):
        load_pairs([ROWS[0], {**ROWS[1], "incorrect": " "}])
