"""The fitted surface Claudes (``length``, ``edit-words``): fitted direction, no side bias,
abstain before fitting or without a cue, learn from transparent rounds only."""

from __future__ import annotations

import pytest

from arena.errors import UsageError
from arena.records import Pair, RoundOutcome
from performers.claude.edit_words import EditWordsClaude, edit_sides, side_features
from performers.claude.length import LengthClaude

SHORTER_IS_CORRUPTED = [
    (Pair(f"p{i}", "", (f"Er kam {i}, weil es regnete.", f"Er kam {i}.")), 1) for i in range(12)
]
LONGER_IS_CORRUPTED = [(Pair(p.id, "", p.candidates[::-1]), 1) for p, _ in SHORTER_IS_CORRUPTED]
DING = [(Pair(f"d{i}", "", (f"Er kaufte ein {w}.", "Er kaufte ein Ding.")), 1)
        for i, w in enumerate(["Auto", "Haus", "Buch", "Boot", "Rad", "Bild", "Bett", "Heft", "Netz", "Seil"])]


@pytest.mark.parametrize("cls, training, test_pair, expected", [
    (LengthClaude, SHORTER_IS_CORRUPTED, Pair("t", "", ("Sie ging, weil.", "Sie ging.")), 1),
    (LengthClaude, SHORTER_IS_CORRUPTED, Pair("t", "", ("Sie ging.", "Sie ging, weil.")), 0),
    (LengthClaude, LONGER_IS_CORRUPTED, Pair("t", "", ("Sie ging.", "Sie ging, weil.")), 1),
    (LengthClaude, SHORTER_IS_CORRUPTED, Pair("t", "", ("Sie ging.", "Sie kam.")), 1),  # the second is one char shorter
    (EditWordsClaude, DING, Pair("t", "", ("Sie sah ein Ding.", "Sie sah ein Schiff.")), 0),
    (EditWordsClaude, DING, Pair("t", "", ("Sie sah ein Schiff.", "Sie sah ein Ding.")), 1),
])
def test_fitted_decisions(cls, training, test_pair, expected):
    claude = cls()
    claude.fit([p for p, _ in training], [a for _, a in training])
    assert claude.judge([test_pair])[0].corrupted == expected


@pytest.mark.parametrize("cls", [LengthClaude, EditWordsClaude])
def test_abstains_unfitted_and_without_a_cue(cls):
    pair = Pair("t", "", ("Sie ging.", "Sie kam."))
    assert cls().judge([pair])[0].corrupted is None
    claude = cls()
    claude.fit([p for p, _ in DING], [a for _, a in DING])
    assert claude.judge([Pair("same", "", ("Sie ging.", "Sie ging."))])[0].corrupted is None  # no edit: no cue


@pytest.mark.parametrize("cls", [LengthClaude, EditWordsClaude])
def test_rejects_pairs_of_three_and_bad_answers(cls):
    with pytest.raises(UsageError):
        cls().judge([Pair("t", "", ("a", "b", "c"))])
    with pytest.raises(UsageError):
        cls().fit([Pair("t", "", ("a", "b"))], [2])


@pytest.mark.parametrize("first, second, only_first, only_second", [
    ("Er kaufte ein Auto.", "Er kaufte ein Ding.", ("Auto",), ("Ding",)),
    ("Er kam, weil es regnete.", "Er kam.", (",", "weil", "es", "regnete"), ()),
    ("Er kam.", "Er kam.", (), ()),
])
def test_edit_sides(first, second, only_first, only_second):
    assert edit_sides(first, second) == (only_first, only_second)


def test_side_features():
    assert side_features([]) == ["∅"]
    assert side_features(["Ding"]) == ["w=Ding", "c=<di", "c=din", "c=ing", "c=ng>"]


def outcome(pair: Pair, corrupted: int, transparent: bool) -> RoundOutcome:
    return RoundOutcome(round=pair.id, seed=1, phase=0, transparent=transparent, counts=False,
                        source="", candidates=pair.candidates, corrupted=corrupted if transparent else None)


def test_learns_from_transparent_rounds_only():
    hidden, shown = LengthClaude(min_examples=10), LengthClaude(min_examples=10)
    hidden.observe([outcome(p, a, False) for p, a in SHORTER_IS_CORRUPTED])
    shown.observe([outcome(p, a, True) for p, a in SHORTER_IS_CORRUPTED])
    test = Pair("t", "", ("Sie ging, weil.", "Sie ging."))
    assert hidden.judge([test])[0].corrupted is None and shown.judge([test])[0].corrupted == 1
