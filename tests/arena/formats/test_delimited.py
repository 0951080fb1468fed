"""One delimited reader (arena/formats/delimited.py) and the bounded JSONL decoder: what pandas
writes (to_csv with "," and "\\t", to_json(lines=True), to_parquet) with quotes, tabs, line
breaks and non-BMP characters in fields reads back identical to the DataFrame; ambiguous or
broken quoting is refused naming the line; what must not fire (a quote inside a field)."""

from __future__ import annotations

import pytest

from arena.errors import DataError
from arena.formats.delimited import delimited_rows, delimited_text
from arena.formats.pairs import read_pairs
from arena.formats.tables import delimited as score_table_text

HOSTILE = [
    {"source": 'He said "yes".', "correct": 'Er sagte "ja".', "incorrect": 'Er sagten "ja".', "phenomenon": "agr"},
    {"source": '"Quoted" at the start', "correct": '"Zitiert" am Anfang', "incorrect": '"Zitiert" im Anfang',
     "phenomenon": 'q"uote'},
    {"source": "a\ttab", "correct": "ein\tTab", "incorrect": "kein\tTab", "phenomenon": "tab"},
    {"source": "two\nlines", "correct": "zwei\nZeilen", "incorrect": "drei\nZeilen", "phenomenon": "newline"},
    {"source": "crlf\r\ninside", "correct": "CRLF\r\ndrin", "incorrect": "CRLF\r\ndraußen", "phenomenon": "crlf"},
    {"source": "Emoji 😀 and 𝔊", "correct": "Emoji 😀 und 𝔊", "incorrect": "Emoji 😀 oder 𝔊", "phenomenon": "𝔊"},
    {"source": 'a, comma and ""', "correct": 'ein, Komma und ""', "incorrect": 'kein, Komma und ""',
     "phenomenon": ","},
    {"source": " padded ", "correct": " gepolstert ", "incorrect": " gepolsterte ", "phenomenon": " "},
]


def frame():
    import pandas as pd

    return pd.DataFrame(HOSTILE)


WRITERS = {
    "p.tsv": lambda df, path: df.to_csv(path, sep="\t", index=False),
    "p.csv": lambda df, path: df.to_csv(path, index=False),
    "p.jsonl": lambda df, path: df.to_json(path, orient="records", lines=True, force_ascii=False),
    "ascii.jsonl": lambda df, path: df.to_json(path, orient="records", lines=True, force_ascii=True),
    "p.parquet": lambda df, path: df.to_parquet(path, index=False),
}


@pytest.mark.parametrize("name", list(WRITERS))
def test_pandas_output_reads_back_identical_to_the_dataframe(tmp_path, name):
    df = frame()
    path = tmp_path / name
    WRITERS[name](df, path)
    pairs = read_pairs(path)
    read = [{"source": p.source, "correct": p.correct, "incorrect": p.incorrect, **p.meta} for p in pairs]
    assert read == df.to_dict(orient="records")


@pytest.mark.parametrize("delimiter", ["\t", ","])
def test_what_arena_writes_it_reads_back(delimiter):
    rows = [[row[key] for key in HOSTILE[0]] for row in HOSTILE] + [["lone\rcr", "x", "y", "z"]]
    text = delimited_text(list(HOSTILE[0]), rows, delimiter)
    assert [list(row.values()) for _, row in delimited_rows(text, delimiter, "f")] == rows


def test_score_tables_keep_texts_exactly():
    text = score_table_text(HOSTILE, "tsv")
    assert [row for _, row in delimited_rows(text, "\t", "t.tsv")] == HOSTILE


def test_records_start_lines_count_line_feeds():
    text = 'a,b\n"x\ny",1\n\nz,2\n'
    assert [line for line, _ in delimited_rows(text, ",", "f")] == [2, 5]


REFUSED = {
    # name: (text, line, words)
    "quote-then-text": ('source\tcorrect\n"Ja" sagte er\tB.\n', 2, "expected after"),
    "unterminated": ('source,correct\nA.,"open\n', 2, "unexpected end of data"),
    "lone-cr-unquoted": ("source,correct\nA.\rB.,C.\n", 2, "new-line character"),
    "tab-unquoted": ("source\tcorrect\nA.\tB.\tC.\n", 2, "3 fields"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_ambiguous_or_broken_quoting_is_refused_naming_the_line(case):
    text, line, words = REFUSED[case]
    delimiter = "," if "," in text.split("\n")[0] else "\t"
    with pytest.raises(DataError) as caught:
        list(delimited_rows(text, delimiter, "f.txt"))
    assert words in str(caught.value) and caught.value.line == line and caught.value.file == "f.txt"


@pytest.mark.parametrize("text,expected", [
    ('a\tb\n5" Diskette\tx\n', {"a": '5" Diskette', "b": "x"}),   # a quote inside a field: a character
    ('a\tb\r\nx\ty\r\n', {"a": "x", "b": "y"}),                     # CRLF line ends
    ('a\tb\n""""\t""\n', {"a": '"', "b": ""}),                      # doubled quotes, an empty quoted field
])
def test_must_not_fire(text, expected):
    assert [row for _, row in delimited_rows(text, "\t", "f")] == [expected]


JSONL_REFUSED = {
    # name: (second line, words)
    "deep": ("[" * 100_000 + "]" * 100_000, "nested more than 200"),
    "lone-surrogate": ('{"source": "\\ud800", "correct": "B.", "incorrect": "C."}', "unpaired surrogate"),
    "surrogate-key": ('{"\\udfff": 1, "source": "A.", "correct": "B.", "incorrect": "C."}', "unpaired surrogate"),
    "huge-line": ('{"source": "' + "x" * (65 * 1024 * 1024) + '"}', "longer than"),
}


@pytest.mark.parametrize("case", list(JSONL_REFUSED))
def test_hostile_jsonl_is_a_data_error_with_file_and_line(tmp_path, case):
    second, words = JSONL_REFUSED[case]
    path = tmp_path / "p.jsonl"
    path.write_text('{"source": "A.", "correct": "B.", "incorrect": "C."}\n' + second + "\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_pairs(path)
    assert words in str(caught.value) and caught.value.line == 2 and caught.value.file == str(path)
