"""LingEval97's distance and training-frequency bins (Sennrich 2017, ``evaluate.py``).

LingEval97 annotates a contrastive translation with the ``distance`` in words between
the two words involved (agreement, verb particles, auxiliaries) and with the training
``frequency`` of the content word it concerns.  Its ``evaluate.py`` reports accuracy by
bins of both; the functions here reproduce that binning exactly, including its quirks,
so that reports made by :mod:`arena.evaluate.lingeval97` and by the arena's metrics
line up with published LingEval97 numbers:

- distance: ``"0"`` .. ``"15"`` one bin per value, ``">15"`` for everything else.
  (The task description speaks of ``"1"`` .. ``"15"``; LingEval97 also has a bin
  ``"0"``, printed before ``"1"`` when a test set uses it, and so do we.)
- frequency: ``">10k"``, ``">5k"`` (5001–10000), ``">2k"`` (2001–5000), ``">1k"``
  (1001–2000), ``">500"``, ``">200"``, ``">100"``, ``">50"``, ``">20"``, ``">10"``,
  ``">5"``, ``">2"``, ``"2"``, ``"1"``, ``"0"``.

  LingEval97 defines ``">5"`` as ``range(5, 11)`` and ``">2"`` as ``range(3, 6)``; the
  two overlap at 5 and the later definition wins, so **frequency 5 falls in ">2"**
  (3–5) and ``">5"`` holds 6–10.  We reproduce that rather than "fix" it.

LingEval97 bins by dictionary lookup of the raw JSON value, which has consequences
we reproduce as well: a value that is no bin key falls into the *default* bin
(``">15"`` for distance, ``">10k"`` for frequency) — so a negative number, a
non-integral float (``2.5``) or a string other than ``"0"`` (``"7"``) lands there —,
an integral float (``3.0``) is binned like the integer, and the string ``"0"`` is
binned like ``0``.  ``None`` (the key is absent) means "not annotated": no bin.
"""

from __future__ import annotations

import math
from typing import Any

from arena.errors import DataError

DISTANCE_BINS: tuple[str, ...] = tuple(str(d) for d in range(16)) + (">15",)
"""Distance bins in LingEval97's report order."""

DEFAULT_DISTANCE = ">15"

# (bin, lowest member, highest member), in LingEval97's report order.  ">10k" is the
# default bin: everything that is no member of another bin.
_FREQUENCY_RANGES: tuple[tuple[str, int, int], ...] = (
    (">5k", 5001, 10000),
    (">2k", 2001, 5000),
    (">1k", 1001, 2000),
    (">500", 501, 1000),
    (">200", 201, 500),
    (">100", 101, 200),
    (">50", 51, 100),
    (">20", 21, 50),
    (">10", 11, 20),
    # LingEval97 writes range(5, 11) here, but its ">2" bin below, range(3, 6), is
    # filled in later and takes 5 over: ">5" is really 6..10 and 5 is in ">2".
    (">5", 6, 10),
    (">2", 3, 5),
    ("2", 2, 2),
    ("1", 1, 1),
    ("0", 0, 0),
)

DEFAULT_FREQUENCY = ">10k"

FREQUENCY_BINS: tuple[str, ...] = (DEFAULT_FREQUENCY,) + tuple(name for name, _, _ in _FREQUENCY_RANGES)
"""Frequency bins in LingEval97's report order (highest frequencies first)."""


def _integral(value: Any, key: str) -> int | None:
    """The integer a bin-table lookup of ``value`` would match, or ``None`` when no
    integer key can match (LingEval97's default bin)."""
    if isinstance(value, bool):
        raise DataError(f"LingEval97 {key} must be a number, not a boolean ({value!r})")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return int(value)
        return None
    raise DataError(f"LingEval97 {key} must be a number or a string, not {type(value).__name__} ({value!r})")


def distance_bin(distance: Any) -> str | None:
    """LingEval97's distance bin of a ``distance`` annotation; ``None`` if absent.

    >>> [distance_bin(d) for d in (None, 0, 1, 15, 16, 3.0, "0", "3", -1)]
    [None, '0', '1', '15', '>15', '3', '0', '>15', '>15']
    """
    if distance is None:
        return None
    if isinstance(distance, str):
        return "0" if distance == "0" else DEFAULT_DISTANCE
    value = _integral(distance, "distance")
    if value is not None and 0 <= value <= 15:
        return str(value)
    return DEFAULT_DISTANCE


def frequency_bin(frequency: Any) -> str | None:
    """LingEval97's training-frequency bin of a ``frequency`` annotation; ``None`` if
    absent.  Note 5 → ``">2"`` and 6 → ``">5"`` (see the module docstring).

    >>> [frequency_bin(f) for f in (None, 0, 2, 5, 6, 10, 11, 10000, 10001, "0", -3)]
    [None, '0', '2', '>2', '>5', '>5', '>10', '>5k', '>10k', '0', '>10k']
    """
    if frequency is None:
        return None
    if isinstance(frequency, str):
        return "0" if frequency == "0" else DEFAULT_FREQUENCY
    value = _integral(frequency, "frequency")
    if value is None or value < 0 or value > 10000:
        return DEFAULT_FREQUENCY
    for name, low, high in _FREQUENCY_RANGES:
        if low <= value <= high:
            return name
    raise AssertionError(f"frequency {value} fell through the bins")  # pragma: no cover
