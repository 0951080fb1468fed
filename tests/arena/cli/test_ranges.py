"""Numeric flag types: what they accept, what they refuse and how the refusal reads."""

from __future__ import annotations

import argparse
import math

import pytest

from arena.cli.ranges import integer, real


@pytest.mark.parametrize("low, high, text, value", [
    (0, None, "0", 0), (0, None, "12", 12), (1, 5, "5", 5), (None, 3, "-9", -9), (1, None, "007", 7),
])
def test_integer_accepts(low, high, text, value):
    assert integer(low, high)(text) == value


@pytest.mark.parametrize("low, high, text, message", [
    (0, None, "-1", "at least 0, not -1"), (1, 5, "6", "at most 5, not 6"), (1, None, "1.5", "not a whole number"),
    (1, None, "1e3", "not a whole number"), (0, None, "", "not a whole number"),
])
def test_integer_refuses(low, high, text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        integer(low, high)(text)


@pytest.mark.parametrize("low, high, low_open, text, value", [
    (0, 1, True, "1", 1.0), (0, 1, True, "1e-9", 1e-9), (0, None, False, "0", 0.0), (None, None, False, "-3.5", -3.5),
])
def test_real_accepts(low, high, low_open, text, value):
    assert math.isclose(real(low, high, low_open)(text), value)


@pytest.mark.parametrize("low, high, low_open, text, message", [
    (0, 1, True, "0", "greater than 0"), (0, 1, True, "inf", "finite"), (None, None, False, "nan", "finite"),
    (None, None, False, "-inf", "finite"), (0, 1, False, "1.01", "at most 1"), (0, None, False, "x", "not a number"),
])
def test_real_refuses(low, high, low_open, text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        real(low, high, low_open)(text)
