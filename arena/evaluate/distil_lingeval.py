"""DistilLingEval's evaluation (Vamvas & Sennrich 2021), re-implemented.

Scores are log-probabilities (higher is better), normally length-normalised.  A pair
counts as correct when ``score(correct) >= score(incorrect)`` — DistilLingEval's
convention, under which a tie is *correct* (LingEval97 counts ties as wrong).  A NaN
score makes the comparison false, i.e. wrong, as in the original.  The report is
DistilLingEval's ``Accuracy: 97.3`` (``100 * accuracy`` with one decimal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.errors import DataError


@dataclass(frozen=True)
class DistilLingEvalResult:
    correct: int
    total: int
    ties: int  # pairs with exactly equal scores (counted as correct)

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0


def evaluate(correct_scores: Sequence[float], incorrect_scores: Sequence[float]) -> DistilLingEvalResult:
    """Count pairs with ``score(correct) >= score(incorrect)``."""
    if len(correct_scores) != len(incorrect_scores):
        raise DataError(f"{len(correct_scores)} correct scores but {len(incorrect_scores)} incorrect scores")
    correct = ties = 0
    for good, bad in zip(correct_scores, incorrect_scores):
        correct += good >= bad
        ties += good == bad
    return DistilLingEvalResult(int(correct), len(correct_scores), int(ties))


def format_report(result: DistilLingEvalResult) -> str:
    """``Accuracy: 97.3`` (a newline-terminated line), as DistilLingEval prints it."""
    if not result.total:
        raise DataError("the test set is empty: no accuracy to report")
    return f"Accuracy: {100 * result.accuracy:.1f}\n"
