"""A John's ``balance:`` (arena/engine/balance.py): which pairs are kept so that the length cue sits
at chance, what is recorded for the others, and the summary of what it cost."""

from __future__ import annotations

import pytest

from arena.codec import dump
from arena.engine.balance import (
    BalanceSummary,
    balance_rounds,
    bin_of,
    keep_balanced,
    length_delta,
    summaries,
)
from arena.record.rounds import STATUS_BALANCED_OUT, STATUS_NOT_APPLICABLE, STATUS_OK, Round
from arena.records import Instance, Variant


@pytest.mark.parametrize("delta, label", [
    (0, "0"), (1, "1"), (-1, "1"), (2, "2"), (3, "3-4"), (4, "3-4"), (5, "5-8"), (-8, "5-8"),
    (9, "9-16"), (16, "9-16"), (17, "17-32"), (32, "17-32"), (33, "33+"), (-400, "33+"),
])
def test_bins(delta, label):
    assert bin_of(delta) == label


@pytest.mark.parametrize("correct, corrupted, delta", [
    ("Die Börse fällt.", "Die Ding fällt.", (-1, 0)),
    ("Er kam, weil es regnete.", "Er kam.", (-17, -4)),
    ("Seit dem Tag.", "Seit des Tages.", (2, 0)),
    ("Das Haus.", "Das Haus.", (0, 0)),
    ("Das ist E-Mail.", "Das ist Ding.", (-2, -2)),  # E, -, Mail: three tokens for one
])
def test_length_delta(correct, corrupted, delta):
    assert length_delta(correct, corrupted) == delta


@pytest.mark.parametrize("deltas, kept", [
    # symmetric: everything kept
    ([(4, 0), (-4, 0)], [True, True]),
    # must not keep a lopsided majority: 3 longer, 1 shorter in one stratum -> 1 and 1
    ([(4, 0), (4, 0), (4, 0), (-4, 0)], 2),
    # always shorter (clause omission): nothing but equal lengths survives
    ([(-17, -4), (-9, -2), (0, 0), (-30, -6)], [False, False, True, False]),
    # equal lengths are always kept, however many
    ([(0, 0)] * 5, [True] * 5),
    # different bins of |difference| do not balance each other
    ([(1, 0), (-9, 0)], [False, False]),
    # same bin (3-4) balances
    ([(3, 0), (-4, 0)], [True, True]),
    # equal characters, opposite token differences: a pair and its mirror image
    ([(0, 1), (0, -1)], [True, True]),
    # same characters but the tokens point the other way: not mirror images
    ([(4, 1), (-4, 1)], [False, False]),
    ([(4, 1), (-4, -1)], [True, True]),
])
def test_keep_balanced(deltas, kept):
    flags = keep_balanced(deltas, "key")
    if isinstance(kept, int):
        assert sum(flags) == kept and flags[3] is True  # the minority side is always kept
    else:
        assert flags == kept


def test_keep_balanced_is_deterministic_by_key():
    deltas = [(5, 1)] * 20 + [(-5, -1)] * 5
    first = keep_balanced(deltas, "1/john/zellig/ding")
    assert first == keep_balanced(deltas, "1/john/zellig/ding")
    assert sum(first) == 10
    assert any(keep_balanced(deltas, f"{seed}/john/zellig/ding") != first for seed in range(2, 12))


@pytest.mark.parametrize("summary, balanced, words", [
    (BalanceSummary("length", 10, 4, 2, 6, 2), True, "balanced for length: 10 → 4"),
    (BalanceSummary("length", 10, 0, 0, 10, 0), False, "always shorter"),
    (BalanceSummary("length", 10, 3, 7, 0, 3), False, "always longer or equal; kept the 3 pair(s) of equal length"),
    (BalanceSummary("length", 3, 3, 0, 0, 3), True, "3 → 3"),
])
def test_summary(summary, balanced, words):
    assert summary.balanced is balanced and words in summary.note
    assert dump(summary)["balanced"] is balanced


def _round(index: int, corrupted_text: str | None, status: str = STATUS_OK, john: str = "j") -> Round:
    instance = Instance(f"i{index}", "src", "Die Börse fällt.")
    variant = Variant(instance.id, corrupted_text, "placeholder_ding") if corrupted_text is not None else None
    candidates = (instance.reference, corrupted_text) if corrupted_text is not None else None
    return Round(f"1|{john}|z|i{index}|0", 1, john, "z", instance, variant, candidates,
                       1 if candidates else None, status)


def test_balance_rounds_marks_what_it_leaves_out():
    rounds = [
        _round(0, "Die Ding fällt."),  # shorter by 1
        _round(1, "Die Ding fällt."),  # shorter by 1
        _round(2, "Die Börsen fällt."),  # longer by 1
        _round(3, "Die Börse fällt!"),  # equal
        _round(4, None, STATUS_NOT_APPLICABLE),
    ]
    balanced = balance_rounds(rounds, {"cue": "length"})
    assert [r.id for r in balanced] == [r.id for r in rounds]  # order and ids unchanged
    statuses = [r.status for r in balanced]
    assert statuses.count(STATUS_BALANCED_OUT) == 1 and statuses[0:2].count(STATUS_OK) == 1
    assert statuses[2:] == [STATUS_OK, STATUS_OK, STATUS_NOT_APPLICABLE]
    assert [r.judged for r in balanced].count(False) == 2  # the balanced-out and the not-applicable round
    assert balance_rounds(rounds, {"cue": "length"}) == balanced  # deterministic


def test_summaries_count_only_balanced_johns_from_the_transcript():
    rounds = balance_rounds([_round(i, "Die Ding fällt.") for i in range(4)] + [_round(9, "Die Börsen fällt.")],
                            {"cue": "length"})
    other = [_round(i, "Die Ding fällt.", john="plain") for i in range(3)]
    found = summaries([*rounds, *other], {"j": {"cue": "length"}})
    assert list(found) == [("z", "placeholder_ding")]
    assert found["z", "placeholder_ding"] == BalanceSummary("length", 5, 2, 1, 4, 0)
