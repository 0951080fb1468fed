"""The length cue: which candidate of a pair is corrupted, judged by nothing but the candidates'
lengths (the ``nuisance`` kind of :mod:`arena.stats.cue_kinds`).

Features (second candidate minus first): the difference in characters and in tokens (words and
punctuation marks).  The direction and weight of each are fitted by an L2-penalised logistic
regression without intercept on both candidate orders: on clause omission the shorter candidate
is the corrupted one, on hypercorrect genitive the longer.  The ``length`` Claude
(``performers/claude/length.py``) and the strata of S net of cues (:mod:`arena.stats.cue_strata`)
both decide with :func:`fit` and :func:`margin`, so the report's cue audit and ``scores.json``
see the same cue.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from arena.logistic import fit_logistic
from arena.records import Judgement, Pair

TOKEN = re.compile(r"\w+|[^\w\s]")
L2 = 1.0


def words(text: str) -> list[str]:
    """Words and punctuation marks of a sentence, case kept."""
    return TOKEN.findall(text)


def lengths(text: str) -> tuple[int, int]:
    return len(text), len(words(text))


def difference(pair: Pair) -> list[float]:
    (chars_a, tokens_a), (chars_b, tokens_b) = (lengths(text) for text in pair.candidates)
    return [float(chars_b - chars_a), float(tokens_b - tokens_a)]


def fit(pairs: Sequence[Pair], corrupted: Sequence[int], l2: float = L2) -> list[float]:
    """The weights of the two features, fitted on labelled pairs (both candidate orders)."""
    rows, labels = [], []
    for pair, answer in zip(pairs, corrupted):
        row = difference(pair)
        rows += [row, [-value for value in row]]
        labels += [answer, 1 - answer]
    return fit_logistic(rows, labels, l2)


def margin(weights: Sequence[float], pair: Pair) -> float:
    """Positive: the second candidate looks corrupted; negative: the first; 0: no cue."""
    return sum(w * f for w, f in zip(weights, difference(pair)))


class LengthCue:
    """The length cue as a fittable judge (:class:`arena.roles.Fittable`) for the cue audit
    (:func:`arena.stats.cues.score_cue`); unfitted it abstains."""

    name = "length"

    def __init__(self, l2: float = L2) -> None:
        self.l2 = l2
        self.weights: list[float] | None = None

    def fit(self, pairs: Sequence[Pair], corrupted: Sequence[int]) -> None:
        self.weights = fit(pairs, corrupted, self.l2)

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        if self.weights is None:
            return [Judgement(None) for _ in pairs]
        result = []
        for pair in pairs:
            m = margin(self.weights, pair)
            result.append(Judgement(None if m == 0 else int(m > 0), (m / 2, -m / 2)))
        return result
