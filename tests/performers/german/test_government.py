"""Cases governed by prepositions (performers/german/government.py)."""

from __future__ import annotations

import pytest

from performers.german.government import governed_cases


@pytest.mark.parametrize(
    "preposition, expected",
    [
        ("auf", {"ACC", "DAT"}),
        ("Auf", {"ACC", "DAT"}),  # sentence-initial capital
        ("mit", {"DAT"}),
        ("für", {"ACC"}),
        ("wegen", {"GEN", "DAT"}),  # the colloquial dative is not an error
        ("gemäß", {"GEN", "DAT"}),
        # not in the table: no fixed case
        ("als", None),
        ("bis", None),
        ("entlang", None),
        ("Haus", None),
    ],
)
def test_governed_cases(preposition, expected):
    cases = governed_cases(preposition)
    assert (None if cases is None else set(cases)) == expected
