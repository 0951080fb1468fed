"""Candidate features and a Bayesian logistic model of "the Claude finds this
corruption", for Zelligs that learn which candidates to offer.

Source: Chapelle & Li (2011), *An Empirical Evaluation of Thompson Sampling* —
Thompson sampling for a logistic reward model with a Laplace (Gaussian) posterior;
Smith (2012) §7 (a Zellig that adapts during the game).

The features of a candidate use only what a Zellig knows — the instance and its own
variant, never a model's scores — so a Zellig that learns from them learns from the
Claudes' *choices* alone (all a transparent round shows it of the Claude):

- its phenomenon (one-hot; an intercept per phenomenon),
- the Zipf frequency of the word it changes (``meta["zipf_frequency"]``; 0 and a
  "missing" flag where the Zellig records none), and that frequency per phenomenon,
- the length of the changed text before and after (log characters), the length change
  relative to the sentence, where in the sentence the edit starts (0 … 1), the
  sentence length (log words), and whether the changed word is capitalised.

:class:`LogisticPosterior` is an L2-penalised logistic regression refitted by Newton's
method after each block, with the Laplace approximation ``N(ŵ, H⁻¹)`` as posterior;
``sample`` draws weights from it with the round's RNG (``random.Random``), so choices
stay reproducible on every backend.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from arena.sdk import Instance, Variant


def _number(value: object) -> float | None:
    return None if isinstance(value, bool) or not isinstance(value, (int, float)) else float(value)


def candidate_features(instance: Instance, variant: Variant, phenomena: Sequence[str]) -> list[float]:
    """The feature vector of ``variant`` (see the module docstring); ``phenomena`` fixes
    the one-hot order."""
    reference = instance.reference or " "
    zipf = _number(variant.meta.get("zipf_frequency"))
    before = "".join(edit.before for edit in variant.edits)
    after = "".join(edit.after for edit in variant.edits)
    start = min((edit.start for edit in variant.edits), default=0)
    onehot = [float(variant.phenomenon == name) for name in phenomena]
    return [
        *onehot,
        *(flag * (zipf or 0.0) for flag in onehot),
        zipf or 0.0,
        float(zipf is None),
        math.log1p(len(before)),
        math.log1p(len(after)),
        (len(after) - len(before)) / len(reference),
        start / len(reference),
        math.log1p(len(reference.split())),
        float(before[:1].isupper()),
    ]


class LogisticPosterior:
    """Bayesian logistic regression (Gaussian prior of precision ``l2`` on standardised
    weights) fitted by Newton's method, with its Laplace posterior."""

    def __init__(self, l2: float = 1.0) -> None:
        self.l2 = l2
        self.rows: list[list[float]] = []
        self.labels: list[int] = []
        self.mean: list[float] | None = None
        self._scale: list[float] = []
        self._shift: list[float] = []
        self._chol: list[list[float]] = []

    def add(self, row: Sequence[float], label: int) -> None:
        self.rows.append(list(row))
        self.labels.append(int(label))

    def fit(self, steps: int = 30) -> None:
        """Refit on every example so far (no-op without examples)."""
        import numpy as np

        if not self.rows:
            return
        x = np.asarray(self.rows, dtype=float)
        y = np.asarray(self.labels, dtype=float)
        shift, scale = x.mean(axis=0), x.std(axis=0)
        scale[scale == 0] = 1.0
        z = np.hstack([np.ones((len(x), 1)), (x - shift) / scale])
        w = np.zeros(z.shape[1])
        penalty = self.l2 * np.eye(z.shape[1])
        for _ in range(steps):
            p = 1.0 / (1.0 + np.exp(-(z @ w)))
            hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty
            step = np.linalg.solve(hessian, z.T @ (p - y) + penalty @ w)
            w -= step
            if float(np.abs(step).max()) < 1e-9:
                break
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty
        covariance = np.linalg.inv(hessian)
        self.mean = [float(v) for v in w]
        self._shift, self._scale = [float(v) for v in shift], [float(v) for v in scale]
        self._chol = np.linalg.cholesky((covariance + covariance.T) / 2).tolist()

    def sample(self, rng: random.Random) -> list[float] | None:
        """Weights drawn from the posterior with ``rng`` (``None`` before any fit)."""
        if self.mean is None:
            return None
        normal = [rng.gauss(0.0, 1.0) for _ in self.mean]
        return [m + sum(row[j] * normal[j] for j in range(i + 1)) for i, (m, row) in enumerate(zip(self.mean, self._chol))]

    def logit(self, weights: Sequence[float], row: Sequence[float]) -> float:
        """The log-odds of ``row`` under ``weights`` (the posterior mean or a sample)."""
        z = [(value - shift) / scale for value, shift, scale in zip(row, self._shift, self._scale)]
        return weights[0] + sum(w * v for w, v in zip(weights[1:], z))
