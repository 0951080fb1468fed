"""The text policy on files (arena.text_policy.text_problem): texts read from pair files, test
sets (DistilLingEval line files, LingEval97 JSON, the files Johns read) and YAML text values;
each refusal names the file, the line (where the format has lines) and the key. What must not
fire: WMT's cp1252 mojibake, German, emoji, a tab or line break inside a quoted field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.errors import DataError
from arena.formats.distil_lingeval import read_distil_lingeval
from arena.formats.lingeval97 import read_lingeval97
from arena.formats.pairs import read_pairs
from arena.specs.yamlio import load_yaml

BAD_TEXTS = {
    "escape": ("Der \x1b]0;pwned\x07Laden.", "control character U+001B"),
    "nul": ("Der\x00Laden.", "control character U+0000"),
    "bidi-override": ("Der \u202eLaden.", "bidi control U+202E"),
    "zero-width-only": ("\u200b\u200b", "only invisible characters"),
    "c1-undefined": ("Der \x9dLaden.", "control character U+009D"),
    "too-long": ("x" * 10_001, "at most 10,000"),
}
GOOD_TEXTS = [
    "Der Laden ist geöffnet.",
    "Er sagte \x84ja\x93.",                      # WMT references: cp1252 quotes decoded as Latin-1
    "Emoji 😀 und 𝔊.",
    "Straße\u00a0mit geschütztem Leerzeichen.",
]


def pairs_file(tmp_path: Path, kind: str, text: str) -> Path:
    rows = [{"source": "The shop.", "correct": "Der Laden.", "incorrect": "Die Laden."},
            {"source": "The shop.", "correct": text, "incorrect": "Die Laden."}]
    path = tmp_path / f"p.{kind}"
    if kind == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")  # \ud800 as an escape
    else:
        import pandas as pd

        pd.DataFrame(rows).to_csv(path, sep="\t" if kind == "tsv" else ",", index=False)
    return path


@pytest.mark.parametrize("kind", ["tsv", "csv", "jsonl"])
@pytest.mark.parametrize("case", list(BAD_TEXTS))
def test_pair_files_refuse_bad_texts_naming_file_line_and_column(tmp_path, kind, case):
    text, words = BAD_TEXTS[case]
    if kind != "jsonl" and case == "nul":
        text = "Der\x01Laden."
        words = "U+0001"
    path = pairs_file(tmp_path, kind, text)
    with pytest.raises(DataError) as caught:
        read_pairs(path)
    assert words in str(caught.value)
    line = 2 if kind == "jsonl" else 3  # a header line before the rows of TSV and CSV
    assert (caught.value.file, caught.value.line, caught.value.key) == (str(path), line, "correct")


@pytest.mark.parametrize("kind", ["tsv", "csv", "jsonl"])
@pytest.mark.parametrize("text", [*GOOD_TEXTS, "ein\tTab", "zwei\nZeilen"])
def test_pair_files_keep_good_texts(tmp_path, kind, text):
    assert read_pairs(pairs_file(tmp_path, kind, text))[1].correct == text


def test_a_jsonl_surrogate_escape_is_refused(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"source": "A.", "correct": "B\\ud800.", "incorrect": "C."}\n', encoding="utf-8")
    with pytest.raises(DataError, match="unpaired surrogate") as caught:
        read_pairs(path)
    assert caught.value.line == 1


def distil_set(tmp_path: Path, correct: str) -> Path:
    directory = tmp_path / "set.human"
    directory.mkdir()
    for name, lines in (("src.en", ["A.", "B."]), ("tgt.correct.de", ["A.", correct]),
                        ("tgt.incorrect.de", ["X.", "Y."])):
        (directory / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return directory


@pytest.mark.parametrize("case", [c for c in BAD_TEXTS if c != "zero-width-only"])
def test_line_files_refuse_bad_lines_naming_file_and_line(tmp_path, case):
    text, words = BAD_TEXTS[case]
    directory = distil_set(tmp_path, text)
    with pytest.raises(DataError) as caught:
        read_distil_lingeval(directory)
    assert words in str(caught.value)
    assert (caught.value.file, caught.value.line) == (str(directory / "tgt.correct.de"), 2)


@pytest.mark.parametrize("text", [*GOOD_TEXTS, "ein\tTab"])
def test_line_files_keep_good_lines(tmp_path, text):
    assert read_distil_lingeval(distil_set(tmp_path, text)).pairs[1].correct == text


def test_lingeval97_refuses_a_bad_contrastive_naming_item_and_key(tmp_path):
    path = tmp_path / "le.json"
    path.write_text(json.dumps([{"source": "A.", "reference": "B.", "errors": [
        {"type": "t", "contrastive": "C."}, {"type": "t", "contrastive": "D\u2066."}]}]), encoding="utf-8")
    with pytest.raises(DataError, match="item 0: errors\\[1\\].contrastive holds the bidi control U\\+2066") as caught:
        read_lingeval97(path)
    assert caught.value.file == str(path)


@pytest.mark.parametrize("text,line,key", [
    ('name: x\njohns:\n  - name: pairs\n    params: {phenomenon: "a\\e[2J"}\n', 4, "johns.0.params.phenomenon"),
    ('name: "\\u202ex"\n', 1, "name"),
    ('name: x\nseeds: [1]\ndescription: "\\x00"\n', 3, "description"),
])
def test_yaml_text_values_are_refused_naming_line_and_key(tmp_path, text, line, key):
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_yaml(path)
    assert (caught.value.file, caught.value.line, caught.value.key) == (str(path), line, key)


def test_yaml_must_not_fire(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text('name: "Straße „ja“ 😀"\nnote: |\n  two\n  lines\nempty: ""\n', encoding="utf-8")
    assert load_yaml(path)["note"] == "two\nlines\n"


@pytest.mark.parametrize("case", ["escape", "bidi-override", "c1-undefined"])
def test_the_streaming_distil_lingeval_john_refuses_as_the_reader_does(tmp_path, case):
    from performers.john.distil_lingeval import DistilLingEvalJohn

    text, words = BAD_TEXTS[case]
    directory = distil_set(tmp_path, text)
    with pytest.raises(DataError) as caught:
        list(DistilLingEvalJohn(dir=str(directory)).instances())
    assert words in str(caught.value) and caught.value.line == 2


def test_the_streaming_john_keeps_wmt_mojibake(tmp_path):
    from performers.john.distil_lingeval import DistilLingEvalJohn

    instances = list(DistilLingEvalJohn(dir=str(distil_set(tmp_path, "Er sagte \x84ja\x93."))).instances())
    assert instances[1].reference == "Er sagte \x84ja\x93."


@pytest.mark.parametrize("override,key", [("description=a\x1b[2Jb", "description"),
                                          ("johns.0.alias=x\u202ey", "johns.0.alias")])
def test_set_overrides_pass_the_text_policy_too(tmp_path, override, key):
    from arena.specs.config import load_experiment

    path = tmp_path / "c.yaml"
    path.write_text("name: x\njohns: [{name: distil-lingeval, params: {dir: .}}]\nzelligs: [replay]\n"
                    "claudes: [oracle]\n", encoding="utf-8")
    with pytest.raises(DataError, match="given by --set") as caught:
        load_experiment(path, [override])
    assert (caught.value.file, caught.value.key) == (str(path), key)
    assert load_experiment(path, ["description=Straße „ja“"]).description == "Straße „ja“"  # must not fire
