"""arena.codec, the one serialiser of the records: round trips, keys left out (and kept),
older transcripts' missing keys, renamed keys, the exact text of fixed lines, shared strings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import MappingProxyType

import pytest

from arena.codec import dump, load
from arena.engine.balance import BalanceSummary
from arena.engine.calibration import Calibration, DriverRates
from arena.errors import DataError
from arena.formats.lingeval97 import Contrastive, Sentence, sentences_from_json
from arena.record.rounds import JudgementRecord, OneBest, Round
from arena.record.transcripts import dumps_line
from arena.records import Edit, Instance, RoundOutcome, Variant
from arena.tokens import TokenRow

INSTANCE = Instance("i1", "The cat.", "Die Katze.", {"origin": "x", "lines": [1]})
VARIANT = Variant("i1", "Das Katze.", "np_agreement", (Edit(0, 3, "Die", "Das"),), {"distance": 1})
ROUND = Round("1|j|z|i1|0", 1, "j", "z", INSTANCE, VARIANT, ("Das Katze.", "Die Katze."), 0, "ok", 1, 0)
GAME_ROUND = Round("1|j|z|i1|0", 1, "j", "z", INSTANCE, None, None, None, "not_applicable", phase=0, block=2,
                   counts=False)
JUDGEMENT = JudgementRecord("1|j|z|i1|0", "nmt", 0, None, "abstain", True, (-1.5, float("-inf")))
ONE_BEST = OneBest("nmt", "The cat.", "Die Katze.", -2.0, 4, {"z": False}, "sum", 3)


def line(record: object) -> str:
    return dumps_line(dump(record))


@pytest.mark.parametrize("record", [
    INSTANCE, Instance("i2", "s", "r"), Edit(4, 9, "Börse", "Ding"), VARIANT, ROUND, GAME_ROUND, JUDGEMENT,
    JudgementRecord("r", "c", None, None, "free", True), ONE_BEST, OneBest("c", "s", "t", -1.0, 0),
    RoundOutcome("r", 1, 0, True, True, INSTANCE, "The cat.", ("a", "b"), VARIANT, 1, {"nmt": 0}, {"nmt": (-1.0, -2.0)}),
    RoundOutcome("r", 1, 1, False, True), TokenRow("Katze", "Kater", -1.0, -3.5, True),
    BalanceSummary("length", 10, 4, 2, 6, 2),
])
def test_a_record_written_and_read_back_is_the_same_record(record):
    again = load(type(record), json.loads(line(record)))
    assert again == record or line(again) == line(record)  # meta's tuples come back as lists
    assert line(again) == line(record)


def test_a_lingeval97_sentence_written_is_read_back_by_the_format_reader():
    sentence = Sentence("s", "r", "o.1", (Contrastive("t", "c", 2, 20, {"k": 1}), Contrastive("u", "d")), {"x": "y"})
    assert sentences_from_json([json.loads(line(sentence))], "test.json") == [sentence]


EXACT = [
    (ROUND, '{"round": "1|j|z|i1|0", "seed": 1, "john": "j", "zellig": "z", "status": "ok", "instance": {"id": "i1", '
            '"source": "The cat.", "reference": "Die Katze.", "meta": {"origin": "x", "lines": [1]}}, "variant": '
            '{"instance_id": "i1", "text": "Das Katze.", "phenomenon": "np_agreement", "edits": [{"start": 0, "end": 3, '
            '"before": "Die", "after": "Das"}], "meta": {"distance": 1}}, "candidates": ["Das Katze.", "Die Katze."], '
            '"corrupted": 0, "n_candidates": 1, "sample_index": 0}\n'),
    (GAME_ROUND, '{"round": "1|j|z|i1|0", "seed": 1, "john": "j", "zellig": "z", "status": "not_applicable", '
                 '"instance": {"id": "i1", "source": "The cat.", "reference": "Die Katze.", "meta": {"origin": "x", '
                 '"lines": [1]}}, "variant": null, "candidates": null, "corrupted": null, "n_candidates": 0, '
                 '"sample_index": 0, "phase": 0, "block": 2, "counts": false}\n'),
    (JUDGEMENT, '{"round": "1|j|z|i1|0", "claude": "nmt", "choice": 0, "claude_choice": null, "resolved_by": "abstain", '
                '"correct": true, "scores": [-1.5, -Infinity]}\n'),
    (ONE_BEST, '{"claude": "nmt", "source": "The cat.", "translation": "Die Katze.", "logprob": -2.0, "tokens": 4, '
               '"mean": -0.5, "convention": "sum", "detected": {"z": false}, "seed": 3}\n'),
    (OneBest("c", "ü", "t", -1.0, 0), '{"claude": "c", "source": "ü", "translation": "t", "logprob": -1.0, "tokens": 0, '
                                      '"mean": -Infinity, "convention": "mean", "detected": {}}\n'),
    (TokenRow("a", "b", -1.0, -3.5, True), '{"correct": "a", "incorrect": "b", "logprob_correct": -1.0, '
                                           '"logprob_incorrect": -3.5, "delta": 2.5, "changed": true}\n'),
    (BalanceSummary("length", 3, 3, 0, 0, 3), '{"cue": "length", "before": 3, "after": 3, "longer": 0, "shorter": 0, '
                                              '"equal": 3, "balanced": true, "note": "balanced for length: 3 → 3 pairs"}\n'),
    (Calibration("d", {"cpus": 2}, DriverRates(0.001, 0.5), {"random@1()": {"unit": "CPU"}}, Path("x"), ["y"]),
     '{"format": 1, "date": "d", "machine": {"cpus": 2}, "driver": {"per_round": 0.001, "per_cell": 0.5}, '
     '"claudes": {"random@1()": {"unit": "CPU"}}}\n'),
    (Sentence("s", "r", None, (Contrastive("t", "c", None, 0, MappingProxyType({"zellig": "z"})),), {"k": [1]}),
     '{"source": "s", "reference": "r", "errors": [{"type": "t", "contrastive": "c", "frequency": 0, "zellig": "z"}], '
     '"k": [1]}\n'),
]


@pytest.mark.parametrize(("record", "text"), EXACT)
def test_the_exact_text_of_a_fixed_record(record, text):
    assert line(record) == text


@pytest.mark.parametrize(("record", "absent", "present"), [
    (ROUND, {"phase", "block", "counts", "id"}, {"round", "status"}),  # a schedule-less run's round: no game keys
    (GAME_ROUND, {"id"}, {"phase", "block", "counts"}),  # phase 0 is a game's: the keys are written
    (OneBest("c", "s", "t", -1.0, 2), {"seed"}, {"mean"}),  # no replicas: no seed
    (OneBest("c", "s", "t", -1.0, 2, seed=0), set(), {"seed"}),  # seed 0 is a seed
    (Sentence("s", "r"), {"origin", "extra"}, {"errors"}),
    (Contrastive("t", "c", 0, None), {"frequency", "extra"}, {"distance"}),  # distance 0 is an annotation
    (Calibration("d", {}, DriverRates(0.0, 0.0)), {"path", "loose"}, {"format", "driver"}),
])
def test_keys_left_out_and_kept(record, absent, present):
    keys = set(json.loads(line(record)))
    assert not absent & keys and present <= keys


OLD = {"round": "r", "seed": 1, "john": "j", "zellig": "z", "instance": {"id": "i", "source": "s", "reference": "r"}}


@pytest.mark.parametrize(("cls", "data", "expected"), [
    (Round, OLD, Round("r", 1, "j", "z", Instance("i", "s", "r"), None, None, None)),
    (JudgementRecord, {"round": "r", "claude": "c", "resolved_by": "free", "correct": True},
     JudgementRecord("r", "c", None, None, "free", True)),
    (OneBest, {"claude": "c", "source": "s", "translation": "t", "logprob": -1, "tokens": 2},
     OneBest("c", "s", "t", -1.0, 2)),
    (OneBest, {"claude": "c", "source": "s", "translation": "t", "logprob": -1, "tokens": 2, "mean": 99.0},
     OneBest("c", "s", "t", -1.0, 2)),  # mean is written, never read
    (Variant, {"instance_id": "i", "text": "t", "phenomenon": "p"}, Variant("i", "t", "p")),
    (Edit, {"start": "4", "end": 9.0, "before": "a", "after": "b"}, Edit(4, 9, "a", "b")),
])
def test_older_transcripts_read_with_defaults(cls, data, expected):
    assert load(cls, data) == expected


@pytest.mark.parametrize(("cls", "data", "key"), [
    (Round, {**OLD, "round": None, "id": "r"}, "round"),  # the key is "round", not the field's name
    (Round, {key: value for key, value in OLD.items() if key != "instance"}, "instance"),
    (JudgementRecord, {"round": "r", "claude": "c", "correct": True}, "resolved_by"),
    (Edit, {"start": "four", "end": 9, "before": "a", "after": "b"}, "start"),
    (Variant, {"instance_id": "i", "text": "t", "phenomenon": "p", "edits": [{"start": 1}]}, "edits.0.end"),
])
def test_a_record_that_does_not_fit_is_a_data_error_naming_the_key(cls, data, key):
    with pytest.raises(DataError) as raised:
        load(cls, data)
    assert raised.value.key == key and key in str(raised.value)


def test_a_round_read_back_shares_its_strings():
    data = json.loads(line(ROUND))
    again = load(Round, data)
    assert again.candidates is not None and again.variant is not None
    assert again.candidates[0] is again.variant.text and again.candidates[1] is again.instance.reference
    assert again.john is sys.intern("j") and again.zellig is sys.intern("z")
    unknown = load(Round, {**data, "candidates": ["neither", "Die Katze."]})  # a text of neither: its own string
    assert unknown.candidates is not None and unknown.candidates[0] == "neither"
