from __future__ import annotations

import random

import pytest

from arena.edits import apply_edits, diff_edits, make_variant, shared_affixes, variant_from_text
from arena.records import Edit, Instance


@pytest.mark.parametrize(
    "before, after, expected",
    [
        ("Die Börse stürzt gegen Geschäftsschluss ins Minus.", "Die Börse stürzt gegen Ding ins Minus.",
         [("Geschäftsschluss", "Ding")]),
        ("seit dem Tag", "seit des Tags", [("dem", "des"), ("Tag", "Tags")]),
        ("Das war unerwartet.", "Das war erwartet.", [("unerwartet", "erwartet")]),
        ("des Repräsentantenhauses, das", "des Ding, das", [("Repräsentantenhauses", "Ding")]),
        ("Er kam. Sie ging.", "Er kam.", [(" Sie ging.", "")]),
        # a deletion that could sit at several places sits where its widened edit is smallest ...
        ("Das ist nicht ausschlaggebend.", "Das ist ausschlaggebend.", [("ist nicht", "ist")]),
        ("Die Ansicht nicht zu teilen.", "Die Ansicht zu teilen.", [("nicht zu", "zu")]),
        # ... then starts with a space (" nicht": the word before), then is rightmost
        ("Sie hat nicht die Zeit.", "Sie hat die Zeit.", [("hat nicht", "hat")]),
        ("Er kam. Dies ist gut", "Er kam", [("kam. Dies ist gut", "kam")]),  # must not fire: one place only
        ("a b a", "a", [("a b a", "a")]),  # every place touches a word: widened all the same
    ],
)
def test_diff_edits_are_word_level_and_round_trip(before, after, expected):
    edits = diff_edits(before, after)
    assert [(e.before, e.after) for e in edits] == expected
    assert apply_edits(before, edits) == after


def test_diff_edits_round_trip_on_random_strings():
    rng = random.Random(0)
    for _ in range(3000):
        a = "".join(rng.choice("ab c,.") for _ in range(rng.randint(0, 14)))
        b = "".join(rng.choice("ab c,.") for _ in range(rng.randint(0, 14)))
        edits = diff_edits(a, b)
        assert apply_edits(a, edits) == b
        assert all(x.end < y.start for x, y in zip(edits, edits[1:]))  # ordered, apart


@pytest.mark.parametrize(
    "edits, message",
    [
        ([Edit(0, 3, "xyz", "a")], "expects 'xyz'"),
        ([Edit(0, 3, "abc", "x"), Edit(2, 4, "cd", "y")], "overlapping"),
        ([Edit(5, 9, "", "x")], "outside"),
    ],
)
def test_apply_edits_rejects_bad_edits(edits, message):
    with pytest.raises(ValueError, match=message):
        apply_edits("abcdef", edits)


def test_make_variant_and_variant_from_text_agree():
    instance = Instance("x.1", "since the day", "seit dem Tag")
    a = make_variant(instance, [Edit(5, 8, "dem", "des"), Edit(9, 12, "Tag", "Tags")], "hypercorrect_genitive")
    b = variant_from_text(instance, "seit des Tags", "hypercorrect_genitive")
    assert a == b
    assert a.text == "seit des Tags"


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("der Hund bellt".split(), "den Hund bellt".split(), (0, 2)),
        ("er sieht den Hund".split(), "er sieht dem Hund".split(), (2, 1)),
        ("er kam nicht".split(), "er kam".split(), (2, 0)),  # a deletion at the end
        ("a a a".split(), "a a".split(), (2, 0)),  # the suffix never overlaps the prefix
        ("gleich".split(), "gleich".split(), (1, 0)),  # equal: all prefix, nothing left to edit
        ([], "neu".split(), (0, 0)),
        ("ganz anders".split(), "völlig neu".split(), (0, 0)),  # must not find a shared affix
    ],
)
def test_shared_affixes(a: list[str], b: list[str], expected: tuple[int, int]) -> None:
    assert shared_affixes(a, b) == expected
