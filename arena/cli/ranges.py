"""Numeric command-line flags with ranges: argparse ``type=`` functions that refuse
what a flag cannot mean (``--limit -1``, ``--lr inf``, ``--warmup -5``, ``--num-cpus 0``).

argparse reports a refused value as ``arena VERB: error: argument --FLAG: ...`` and
exits with status 2, so the message always names the flag::

    parser.add_argument("--lr", type=real(0, 1, low_open=True), default=1e-3)
    parser.add_argument("--limit", type=integer(0), default=1000)
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def _bounds(low: float | None, high: float | None, low_open: bool = False) -> str:
    parts = []
    if low is not None:
        parts.append(f"{'greater than' if low_open else 'at least'} {low:g}")
    if high is not None:
        parts.append(f"at most {high:g}")
    return " and ".join(parts)


def integer(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """A whole number within ``[low, high]`` (either bound may be open-ended)."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be a whole number {_bounds(low, high)}, not {value}")
        return value

    parse.__name__ = "integer"
    return parse


def real(low: float | None = None, high: float | None = None, low_open: bool = False) -> Callable[[str], float]:
    """A finite number within ``[low, high]`` (``(low, high]`` with ``low_open``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        too_low = low is not None and (value <= low if low_open else value < low)
        if not math.isfinite(value) or too_low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be a finite number {_bounds(low, high, low_open)}, not {text}")
        return value

    parse.__name__ = "number"
    return parse
