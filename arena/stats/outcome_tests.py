"""Verdicts that can say "undecided": does an error rate exceed a generative rate, are the two
equivalent, or do the data not decide?

Three outcomes, never "consistent" (a test that fails to reject has not shown agreement):

- ``exceeds``: a one-sided Wald test of H1 ``e > g`` rejects at ``alpha``;
- ``equivalent (±M)``: two one-sided tests (Schuirmann 1987) reject both ``e − g ≤ −M`` and
  ``e − g ≥ M`` at ``alpha``: the gap lies within the margin ``M`` (default 5 points);
- ``undecided (n ≈ K would decide)``: neither; ``K`` is the number of pairs (the sample scaled
  up, both rates' variances shrinking as 1/n) at which the observed gap would reach one of the
  two decisions.  Where no n would (a gap beyond −M: the error is clearly *below* the
  generative rate, which neither outcome names) or there is nothing to test (no detector, no
  pair), it says why instead.

Every verdict string starts with one of :data:`OUTCOMES`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

EXCEEDS = "exceeds"
EQUIVALENT = "equivalent"
UNDECIDED = "undecided"
OUTCOMES = (EXCEEDS, EQUIVALENT, UNDECIDED)
MARGIN = 0.05


def check_margin(margin: float, key: str = "--margin") -> float:
    """The equivalence margin must lie in (0, 0.5); else a usage error naming ``key``."""
    from arena.errors import UsageError

    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 < margin < 0.5 \
            or math.isnan(margin):
        raise UsageError(f"{key} must be in (0, 0.5) (a share: 0.05 is ±5 points), not {margin!r}", key=key)
    return float(margin)


@dataclass(frozen=True)
class Decision:
    """The outcome of comparing ``e`` with ``g``: the verdict string, the one-sided p-value of
    ``e > g`` and the larger of the two equivalence p-values."""

    verdict: str
    p_exceeds: float | None
    p_equivalent: float | None


def equivalent_words(margin: float) -> str:
    return f"{EQUIVALENT} (±{100 * margin:g})"


def undecided_words(why: str) -> str:
    return f"{UNDECIDED} ({why})"


def needed_n(n: int, gap: float, spread: float, margin: float, alpha: float) -> int | None:
    """The n (``n`` scaled) at which the observed ``gap`` with standard error ``spread`` at ``n``
    would be decided either way; ``None`` when no n would."""
    z = NormalDist().inv_cdf(1 - alpha)
    factors = []
    if gap > 0:
        factors.append((z * spread / gap) ** 2)
    if abs(gap) < margin:
        factors.append((z * spread / (margin - abs(gap))) ** 2)
    if not factors:
        return None
    return max(n + 1, math.ceil(n * min(factors)))


def decide(e: float, e_variance: float, g: float, g_variance: float, n: int, alpha: float = 0.05,
           margin: float = MARGIN) -> Decision:
    """Exceeds, equivalent within ``margin``, or undecided with the n that would decide."""
    normal = NormalDist()
    gap = e - g
    spread = math.sqrt(max(e_variance + g_variance, 0.0))
    if spread == 0:
        p_exceeds = 0.0 if gap > 0 else 1.0
        p_equivalent = 0.0 if abs(gap) < margin else 1.0
    else:
        p_exceeds = 1 - normal.cdf(gap / spread)
        p_equivalent = max(1 - normal.cdf((gap + margin) / spread), 1 - normal.cdf((margin - gap) / spread))
    if p_exceeds < alpha:
        return Decision(EXCEEDS, p_exceeds, p_equivalent)
    if p_equivalent < alpha:
        return Decision(equivalent_words(margin), p_exceeds, p_equivalent)
    k = needed_n(n, gap, spread, margin, alpha)
    why = f"n ≈ {k} would decide" if k is not None else \
        f"no n decides: the error lies below the generative rate by more than {100 * margin:g} points"
    return Decision(undecided_words(why), p_exceeds, p_equivalent)


def is_outcome(verdict: str) -> bool:
    """Whether ``verdict`` reads as one of the three outcomes."""
    return verdict == EXCEEDS or verdict.startswith((f"{EQUIVALENT} (±", f"{UNDECIDED} ("))
