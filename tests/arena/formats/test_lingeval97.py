"""LingEval97 JSON test sets, their plaintext extraction and score files."""

from __future__ import annotations

import io
import json
import sys

import pytest

from arena.formats.lingeval97 import (
    Contrastive,
    Sentence,
    plaintext_pairs,
    read_lingeval97,
    read_outputs,
    read_scores,
    score_count,
    write_lingeval97,
    write_plaintext,
)

# the example of LingEval97's README
EXAMPLE = [
    {
        "source": "Prague Stock Market falls to minus by the end of the trading day",
        "reference": "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
        "origin": "newstest2009.1",
        "errors": [
            {
                "type": "np_agreement",
                "contrastive": "Der Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
                "distance": 2,
                "frequency": 2020,
            },
            {
                "type": "polarity_particle_nicht_ins",
                "contrastive": "Die Prager Börse stürzt gegen Geschäftsschluss nicht ins Minus.",
            },
            {
                "type": "subj_verb_agreement",
                "contrastive": "Die Prager Börse stürzen gegen Geschäftsschluss ins Minus.",
                "distance": 1,
                "frequency": 286,
            },
        ],
    },
    {
        "source": "After a sharp drop in the morning, the Prague Stock Market corrected its losses.",
        "reference": "Nach dem steilen Abfall am Morgen konnte die Prager Börse die Verluste korrigieren.",
        "origin": "newstest2009.2",
        "errors": [],
    },
]


def write_json(path, data):
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def test_read_example(tmp_path):
    sentences = read_lingeval97(write_json(tmp_path / "test.json", EXAMPLE))
    assert len(sentences) == 2
    first = sentences[0]
    assert first.origin == "newstest2009.1"
    assert first.reference.endswith("ins Minus.")
    assert [e.type for e in first.errors] == ["np_agreement", "polarity_particle_nicht_ins", "subj_verb_agreement"]
    assert (first.errors[0].distance, first.errors[0].frequency) == (2, 2020)
    assert (first.errors[1].distance, first.errors[1].frequency) == (None, None)
    assert sentences[1].errors == ()
    assert score_count(sentences) == 5


def test_write_round_trip_keeps_key_order_and_extra_keys(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    data[0]["note"] = "kept"
    data[0]["errors"][1]["zellig"] = "replay"
    sentences = read_lingeval97(write_json(tmp_path / "in.json", data))
    assert sentences[0].extra == {"note": "kept"}
    write_lingeval97(tmp_path / "out.json", sentences)
    again = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert again == data
    assert list(again[0]) == ["source", "reference", "origin", "errors", "note"]
    assert list(again[0]["errors"][0]) == ["type", "contrastive", "distance", "frequency"]
    assert "Börse" in (tmp_path / "out.json").read_text(encoding="utf-8")  # German kept readable


def test_plaintext_in_json_to_plaintext_order(tmp_path):
    sentences = read_lingeval97(write_json(tmp_path / "test.json", EXAMPLE))
    source_path, target_path = write_plaintext(tmp_path / "test", sentences)
    assert (source_path.name, target_path.name) == ("test.en", "test.de")
    sources = source_path.read_text(encoding="utf-8").split("\n")
    targets = target_path.read_text(encoding="utf-8").split("\n")
    assert sources[-1] == targets[-1] == ""  # newline-terminated
    expected_targets = [
        EXAMPLE[0]["reference"],
        EXAMPLE[0]["errors"][0]["contrastive"],
        EXAMPLE[0]["errors"][1]["contrastive"],
        EXAMPLE[0]["errors"][2]["contrastive"],
        EXAMPLE[1]["reference"],
    ]
    assert targets[:-1] == expected_targets
    assert sources[:-1] == [EXAMPLE[0]["source"]] * 4 + [EXAMPLE[1]["source"]]
    assert list(plaintext_pairs(sentences)) == list(zip(sources[:-1], targets[:-1]))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Eine Zeile\nund noch eine", "line break"),
        ("Trenner\u2028hier", r"U\+2028"),
        ("   ", "empty text"),
    ],
)
def test_plaintext_refuses_texts_that_break_line_alignment(tmp_path, text, message):
    sentences = [Sentence("source", "Referenz", "set.1", (Contrastive("compound", text),))]
    with pytest.raises(ValueError, match=message) as error:
        write_plaintext(tmp_path / "test", sentences)
    assert "item 0 (origin set.1), errors[0]: contrastive" in str(error.value)
    assert not (tmp_path / "test.de").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"source": "x"}, r"test.json: a LingEval97 test set is a JSON array of sentences, not a dict"),
        (["text"], r"test.json: item 0: expected an object"),
        ([{"reference": "r", "errors": []}], r"item 0: missing key 'source'"),
        ([{"source": "s", "errors": []}], r"item 0: missing key 'reference'"),
        ([{"source": "s", "reference": "r", "origin": "o.1"}], r"item 0 \(origin o.1\): missing key 'errors'"),
        ([{"source": "s", "reference": 3, "errors": []}], r"key 'reference' must be a string, got int"),
        ([{"source": "s", "reference": "r", "origin": 7, "errors": []}], r"key 'origin' must be a string"),
        ([{"source": "s", "reference": "r", "errors": {}}], r"key 'errors' must be a list, got dict"),
        ([{"source": "s", "reference": "r", "errors": ["x"]}], r"item 0, errors\[0\]: expected an object"),
        (
            [{"source": "s", "reference": "r", "errors": []}, {"source": "s", "reference": "r", "errors": [{}]}],
            r"item 1, errors\[0\]: missing key 'type'",
        ),
        ([{"source": "s", "reference": "r", "errors": [{"type": "compound"}]}], r"missing key 'contrastive'"),
        ([{"source": "s", "reference": "r", "errors": [{"type": "", "contrastive": "c"}]}], r"key 'type' is empty"),
        (
            [{"source": "s", "reference": "r", "errors": [{"type": "t", "contrastive": "c", "distance": [1]}]}],
            r"key 'distance' must be a number, got \[1\]",
        ),
        (
            [{"source": "s", "reference": "r", "errors": [{"type": "t", "contrastive": "c", "frequency": True}]}],
            r"key 'frequency' must be a number, got true",
        ),
    ],
)
def test_malformed_structure_names_item_and_key(tmp_path, data, message):
    with pytest.raises(ValueError, match=message):
        read_lingeval97(write_json(tmp_path / "test.json", data))


def test_malformed_json_names_file_and_line(tmp_path):
    path = tmp_path / "test.json"
    path.write_text('[\n  {"source": "s",\n   "reference": "r" "errors": []}\n]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"test.json:3: malformed JSON"):
        read_lingeval97(path)


def test_wrong_encoding_names_file_and_line(tmp_path):
    path = tmp_path / "test.json"
    text = json.dumps(EXAMPLE, ensure_ascii=False, indent=2)
    path.write_bytes(text.encode("latin-1"))
    line = text[: text.index("ö")].count("\n") + 1
    with pytest.raises(ValueError, match=rf"test.json:{line}: not valid UTF-8"):
        read_lingeval97(path)


@pytest.fixture
def sentences(tmp_path):
    return read_lingeval97(write_json(tmp_path / "test.json", EXAMPLE))


def test_scores_file(tmp_path, sentences):
    path = tmp_path / "scores"
    path.write_text("-1.5\n-2\n 3e-1 \n-inf\nnan\n", encoding="utf-8")
    scores = read_scores(path, sentences)
    assert scores[:4] == [-1.5, -2.0, 0.3, float("-inf")]
    assert scores[4] != scores[4]  # nan


def test_scores_without_final_newline(tmp_path, sentences):
    path = tmp_path / "scores"
    path.write_text("1\n2\n3\n4\n5", encoding="utf-8")
    assert read_scores(path, sentences) == [1.0, 2.0, 3.0, 4.0, 5.0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1\n2\n3\n4\n", r"scores: too few scores: 4 lines, expected 5 \(one score per line"),
        ("1\n2\n3\n4\n5\n6\n", r"scores: too many scores: 6 lines, expected 5"),
        ("1\n2\n3\n4\n5\n\n\n", r"too many scores: 7 lines, expected 5 .*; lines 6-7 are empty"),
        ("", r"too few scores: 0 lines, expected 5"),
        ("1\n2\n\n4\n5\n", r"scores:3: empty line; expected a score"),
        ("1\n2\n3\nminus eins\n5\n", r"scores:4: not a number: 'minus eins'"),
        ("1\n2\n3\n1_000\n5\n", r"scores:4: not a number: '1_000'"),
        ("1\n2\n3\n4 5\n5\n", r"scores:4: not a number"),
    ],
)
def test_bad_scores_files(tmp_path, sentences, content, message):
    path = tmp_path / "scores"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_scores(path, sentences)


def test_scores_file_with_wrong_encoding(tmp_path, sentences):
    path = tmp_path / "scores"
    path.write_bytes(b"1\n2\n\xff3\n4\n5\n")
    with pytest.raises(ValueError, match=r"scores:3: not valid UTF-8"):
        read_scores(path, sentences)


def test_scores_from_stdin(monkeypatch, sentences):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1\n2\n3\n4\n")))
    with pytest.raises(ValueError, match=r"<stdin>: too few scores: 4 lines, expected 5"):
        read_scores("-", sentences)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1\n2\n3\n4\n5\n")))
    assert read_scores("-", sentences) == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_outputs_line_aligned(tmp_path, sentences):
    path = tmp_path / "system.txt"
    path.write_text("eins\nzwei\n", encoding="utf-8")
    assert read_outputs(path, sentences) == ["eins", "zwei"]
    path.write_text("eins\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"system.txt: 1 lines, expected 2 \(one 1-best translation per sentence"):
        read_outputs(path, sentences)


def test_outputs_keyed_by_origin(tmp_path, sentences):
    # LingEval97's baselines/NAME.newstestYYYY layout: line N is the output for origin newstestYYYY.N
    path = tmp_path / "sennrich2016.newstest2009"
    path.write_text("erste\nzweite\ndritte\n", encoding="utf-8")
    assert read_outputs(path, sentences) == ["erste", "zweite"]
    other = tmp_path / "sennrich2016.newstest2014"  # no sentence of that test set; 3 lines != 2 sentences
    other.write_text("a\nb\nc\n", encoding="utf-8")
    with pytest.raises(ValueError, match="expected 2"):
        read_outputs(other, sentences)
    short = tmp_path / "short.newstest2009"
    short.write_text("erste\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"item 1 has origin newstest2009.2 \(expected newstest2009.N with 1 <= N <= 1\)"):
        read_outputs(short, sentences)
