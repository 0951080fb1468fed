"""Learning a Zellig's edit distribution from pairs whose answer is not shown
(Smith 2012 §7: a Claude that learns from unlabelled rounds).

Source: Dempster, Laird & Rubin (1977), EM; the model is two naive-Bayes
distributions over edit keys (Nigam et al. 2000, *Text Classification from Labeled
and Unlabeled Documents using EM*), with the base model's decision as prior.

Every pair has two sides of an edit (the words where the candidates differ,
:func:`performers.claude.edit_features.signature_keys`): one side was written by the
Zellig, the other is the reference.  A Zellig has a signature — *Ding* on every
placeholder corruption, nothing on every clause omission, the endings its
inflection tables produce — while the reference side is as varied as the text.  The
model has one multinomial distribution over keys for corrupted sides (``P_c``) and
one for reference sides (``P_r``), each add-α smoothed.  For a pair whose second
side is ``b`` and first ``a`` the log-odds that the second is corrupted are

    prior + Σ_{k∈b} [ln P_c(k) − ln P_r(k)] − Σ_{k∈a} [ln P_c(k) − ln P_r(k)],

where ``prior`` is the log-odds the Claude's other knowledge gives (the base model).
EM alternates between these posteriors (E) and weighted key counts (M); pairs with a
known answer keep it.  Since the two distributions are learned from which side
looks like the other pairs' edits, no answer key is needed: the prior only breaks
the symmetry between "corrupted" and "reference".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


def sigmoid(value: float) -> float:
    if value >= 0:
        return 1.0 / (1.0 + math.exp(-value))
    e = math.exp(value)
    return e / (1.0 + e)


class SignatureEM:
    """Params: ``alpha`` (add-α smoothing), ``iterations`` (EM steps per fit),
    ``min_count`` (keys seen on fewer sides than this, in all pairs, carry no
    evidence: a word seen once says nothing about the Zellig, but with smoothing alone
    every such key would pull its pair by about ln 3)."""

    def __init__(self, alpha: float = 0.5, iterations: int = 20, min_count: int = 3) -> None:
        self.alpha = alpha
        self.iterations = iterations
        self.min_count = min_count
        self.seen: Counter[str] = Counter()
        self.corrupted: dict[str, float] = {}  # expected count of each key on corrupted sides
        self.reference: dict[str, float] = {}
        self.fitted = False
        self._vocabulary = 1
        self._totals = (0.0, 0.0)

    def _log_ratio(self, keys: Sequence[str], vocabulary: int, totals: tuple[float, float]) -> float:
        total_c, total_r = totals
        return sum(
            math.log((self.corrupted.get(k, 0.0) + self.alpha) / (total_c + self.alpha * vocabulary))
            - math.log((self.reference.get(k, 0.0) + self.alpha) / (total_r + self.alpha * vocabulary))
            for k in keys
            if self.seen[k] >= self.min_count
        )

    def evidence(self, first: Sequence[str], second: Sequence[str]) -> float:
        """The signature's log-odds that the second side is the corrupted one (0 before a fit)."""
        if not self.fitted:
            return 0.0
        return self._log_ratio(second, self._vocabulary, self._totals) - self._log_ratio(
            first, self._vocabulary, self._totals
        )

    def fit(
        self, sides: Sequence[tuple[Sequence[str], Sequence[str]]], priors: Sequence[float], labels: Sequence[int | None]
    ) -> list[float]:
        """Fit on pairs of (first, second) key lists with their prior log-odds and
        known answers (1: the second is corrupted, 0: the first, ``None``: unknown).
        Returns each pair's final posterior that its second side is corrupted."""
        self.seen = Counter(key for pair in sides for side in pair for key in side)
        posterior = [float(label) if label is not None else sigmoid(prior) for prior, label in zip(priors, labels)]
        for _ in range(self.iterations):
            self.corrupted, self.reference = {}, {}
            for (first, second), q in zip(sides, posterior):
                for key in second:
                    self.corrupted[key] = self.corrupted.get(key, 0.0) + q
                    self.reference[key] = self.reference.get(key, 0.0) + (1 - q)
                for key in first:
                    self.corrupted[key] = self.corrupted.get(key, 0.0) + (1 - q)
                    self.reference[key] = self.reference.get(key, 0.0) + q
            self.fitted = True
            self._vocabulary = len(set(self.corrupted) | set(self.reference)) + 1
            self._totals = (sum(self.corrupted.values()), sum(self.reference.values()))
            posterior = [
                float(label) if label is not None else sigmoid(prior + self.evidence(first, second))
                for (first, second), prior, label in zip(sides, priors, labels)
            ]
        return posterior
