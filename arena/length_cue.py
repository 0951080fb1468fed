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
from typing import TYPE_CHECKING

from arena.logistic import fit_logistic
from arena.records import Judgement, Pair

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

TOKEN = re.compile(r"\w+|[^\w\s]")
L2 = 1.0


def words(text: str) -> list[str]:
    """Words and punctuation marks of a sentence, case kept."""
    return TOKEN.findall(text)


def lengths(text: str) -> tuple[int, int]:
    """Characters and tokens of a sentence (the tokens counted, not listed: ``subn`` is about
    1.4× faster than ``len(words(text))``, with the same count)."""
    return len(text), TOKEN.subn("", text)[1]


def difference(pair: Pair) -> list[float]:
    (chars_a, tokens_a), (chars_b, tokens_b) = (lengths(text) for text in pair.candidates)
    return [float(chars_b - chars_a), float(tokens_b - tokens_a)]


def fit(pairs: Sequence[Pair], corrupted: Sequence[int], l2: float = L2) -> list[float]:
    """The weights of the two features, fitted on labelled pairs (both candidate orders)."""
    return fit_rows([difference(pair) for pair in pairs], corrupted, l2)


def fit_rows(rows: Sequence[Sequence[float]] | ArrayLike, corrupted: Sequence[int], l2: float = L2) -> list[float]:
    """:func:`fit` on the pairs' features (:func:`difference`, each row as shown), fitted on each
    pair as shown followed by the pair with its candidates swapped (the features negated)."""
    import numpy as np

    shown = np.asarray(rows, dtype=float)
    x = np.empty((2 * len(shown), 2))
    x[0::2], x[1::2] = shown, -shown
    answers = np.asarray(corrupted, dtype=float)
    y = np.empty(2 * len(answers))
    y[0::2], y[1::2] = answers, 1 - answers
    return fit_logistic(x, y, l2)


def margin(weights: Sequence[float], pair: Pair) -> float:
    """Positive: the second candidate looks corrupted; negative: the first; 0: no cue."""
    return margin_of(weights, difference(pair))


def margin_of(weights: Sequence[float], row: Sequence[float]) -> float:
    """:func:`margin` of a pair's features (:func:`difference`)."""
    return sum(w * f for w, f in zip(weights, row))


class LengthCue:
    """The length cue as a fittable judge (:class:`arena.roles.Fittable`) of pairs given by their
    features (:func:`difference`, counted once per pair), for the strata of S net of cues
    (:mod:`arena.stats.cue_strata`, scored out of fold by :func:`arena.stats.cues.score_shown`);
    unfitted it abstains."""

    name = "length"

    def __init__(self, l2: float = L2) -> None:
        self.l2 = l2
        self.weights: list[float] | None = None

    def fit(self, rows: Sequence[Sequence[float]] | ArrayLike, corrupted: Sequence[int]) -> None:
        self.weights = fit_rows(rows, corrupted, self.l2)

    def judge(self, rows: Sequence[Sequence[float]] | ArrayLike) -> list[Judgement]:
        import numpy as np

        shown = np.asarray(rows).tolist()  # as Python numbers, so that the margins are :func:`margin`'s
        if self.weights is None:
            return [Judgement(None) for _ in shown]
        result = []
        for row in shown:
            m = margin_of(self.weights, row)
            result.append(Judgement(None if m == 0 else int(m > 0), (m / 2, -m / 2)))
        return result
