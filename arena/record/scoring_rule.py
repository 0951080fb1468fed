"""The score → judgement rule every scoring Claude follows: a candidate's score in the
Claude's convention (mean or sum of log-probabilities) and the lowest-scored candidate
judged corrupted (an exact tie, or a NaN, abstains and the arena's seeded coin decides)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, get_args

from arena.records import Judgement, SequenceScore

ScoreConvention = Literal["mean", "sum"]  # how a scoring Claude compares candidates
SCORE_CONVENTIONS = get_args(ScoreConvention)


def candidate_score(score: SequenceScore, convention: str) -> float:
    """One candidate's score in a scoring Claude's convention: the ``mean`` log-probability
    per token (DistilLingEval's length normalisation, end-of-sentence token included) or
    the ``sum``."""
    return score.logprob if convention == "sum" else score.mean


def judgement_from_scores(scores: Sequence[float]) -> Judgement:
    """The score → judgement rule of every scoring Claude: the lowest-scored candidate is
    the corrupted one; an exact tie for lowest (or a NaN score) abstains, and the arena's
    seeded coin decides."""
    values = tuple(float(s) for s in scores)
    if any(math.isnan(v) for v in values):
        return Judgement(None, values)
    lowest = min(values)
    if values.count(lowest) > 1:
        return Judgement(None, values)
    return Judgement(values.index(lowest), values)
