"""One bounded JSON decoder (arena.specs.yamlio: load_json, loads_json, iter_jsonl) at every verb
that reads a JSON or JSONL file a user gives: own pairs (score-pairs, cues), a repairs patch, a
calibration, a LingEval97 test set. A line nested 100,000 deep, an unpaired surrogate escape and
malformed JSON are exit 2 naming the file and line, never 70; the file is left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.people.repairs import read_repairs
from arena.specs.yamlio import iter_jsonl, load_json
from tests.robustness.helpers import refused

GOOD = json.dumps({"source": "The shop.", "correct": "Der Laden.", "incorrect": "Die Laden."})
HOSTILE = {
    "deep": ("[" * 100_000 + "]" * 100_000, "nested more than 200"),
    "surrogate": ('{"source": "A\\ud800", "correct": "B.", "incorrect": "C."}', "unpaired surrogate"),
    "malformed": ('{"source": "A.", ', "malformed JSON"),
}


@pytest.mark.parametrize("verb", ["score-pairs", "cues"])
@pytest.mark.parametrize("case", list(HOSTILE))
def test_own_pairs_jsonl(tmp_path, capsys, verb, case):
    line, words = HOSTILE[case]
    path = tmp_path / "p.jsonl"
    path.write_text(GOOD + "\n" + line + "\n", encoding="utf-8")
    before = path.read_bytes()
    argv = (["score-pairs", "--claude", "toy-en-de", "--out", "-", "--pairs", path] if verb == "score-pairs"
            else ["cues", "--cue", "length", "--pairs", path])
    refused(argv, capsys, f"{path}:2", words)
    assert path.read_bytes() == before


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_repairs_patch(tmp_path, case):
    line, words = HOSTILE[case]
    path = tmp_path / "patch.jsonl"
    path.write_text(json.dumps({"id": "a", "action": "reject"}) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=words) as caught:
        read_repairs(path)
    assert (caught.value.file, caught.value.line) == (str(path), 2)


@pytest.mark.parametrize("case", ["deep", "surrogate"])
def test_a_lingeval97_file_and_a_calibration(tmp_path, capsys, case):
    text, words = HOSTILE[case]
    path = tmp_path / "le.json"
    path.write_text(text, encoding="utf-8")
    refused(["cues", "--format", "lingeval97", "--testset", path, "--cue", "length"], capsys, str(path), words)
    with pytest.raises(ValueError, match=words):
        load_json(path)


def test_a_huge_line_is_refused_before_it_is_decoded(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_bytes(GOOD.encode() + b"\n" + b'{"source": "' + b"x" * 4096 + b'"}\n')
    with pytest.raises(ValueError, match="longer than 1,000 bytes") as caught:
        list(iter_jsonl(Path(path), max_line=1000))
    assert caught.value.line == 2
