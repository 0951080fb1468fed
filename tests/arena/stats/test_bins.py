"""LingEval97's distance and frequency bins, edge by edge (evaluate.py's tables)."""

from __future__ import annotations

import pytest

from arena.errors import DataError
from arena.stats.bins import DISTANCE_BINS, FREQUENCY_BINS, distance_bin, frequency_bin

DISTANCES = [
    (None, None),
    (0, "0"),
    ("0", "0"),
    (1, "1"),
    (2, "2"),
    (14, "14"),
    (15, "15"),
    (16, ">15"),
    (100, ">15"),
    (3.0, "3"),  # an integral float is looked up like the integer
    (2.5, ">15"),  # no bin key: LingEval97's default bin
    (-1, ">15"),
    ("3", ">15"),  # only the string "0" is a bin key
    (float("nan"), ">15"),
    (float("inf"), ">15"),
]

FREQUENCIES = [
    (None, None),
    (0, "0"),
    ("0", "0"),
    (1, "1"),
    (2, "2"),
    (3, ">2"),
    (4, ">2"),
    (5, ">2"),  # LingEval97's ">5" is range(5, 11) but ">2" = range(3, 6) overrides 5
    (6, ">5"),
    (10, ">5"),
    (11, ">10"),
    (20, ">10"),
    (21, ">20"),
    (50, ">20"),
    (51, ">50"),
    (100, ">50"),
    (101, ">100"),
    (200, ">100"),
    (201, ">200"),
    (500, ">200"),
    (501, ">500"),
    (1000, ">500"),
    (1001, ">1k"),
    (2000, ">1k"),
    (2001, ">2k"),
    (5000, ">2k"),
    (5001, ">5k"),
    (10000, ">5k"),
    (10001, ">10k"),
    (10**9, ">10k"),
    (5.0, ">2"),
    (2.5, ">10k"),
    (-3, ">10k"),
    ("5", ">10k"),
]


@pytest.mark.parametrize(("value", "expected"), DISTANCES)
def test_distance_bin(value, expected):
    assert distance_bin(value) == expected


@pytest.mark.parametrize(("value", "expected"), FREQUENCIES)
def test_frequency_bin(value, expected):
    assert frequency_bin(value) == expected


@pytest.mark.parametrize("value", [True, False, [1], {"a": 1}])
def test_non_numbers_are_data_errors(value):
    with pytest.raises(DataError, match="distance"):
        distance_bin(value)
    with pytest.raises(DataError, match="frequency"):
        frequency_bin(value)


def test_report_orders():
    assert DISTANCE_BINS == ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", ">15")
    assert FREQUENCY_BINS == (
        ">10k", ">5k", ">2k", ">1k", ">500", ">200", ">100", ">50", ">20", ">10", ">5", ">2", "2", "1", "0",
    )


def test_every_small_value_has_exactly_the_bin_of_its_range():
    # an independent statement of the table: (low, high) per bin, 5 moved to ">2"
    ranges = {
        "0": (0, 0), "1": (1, 1), "2": (2, 2), ">2": (3, 5), ">5": (6, 10), ">10": (11, 20), ">20": (21, 50),
        ">50": (51, 100), ">100": (101, 200), ">200": (201, 500), ">500": (501, 1000), ">1k": (1001, 2000),
        ">2k": (2001, 5000), ">5k": (5001, 10000),
    }
    for value in range(0, 10050):
        expected = next((name for name, (low, high) in ranges.items() if low <= value <= high), ">10k")
        assert frequency_bin(value) == expected, value
