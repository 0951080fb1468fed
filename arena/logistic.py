"""An L2-penalised logistic regression without intercept, fitted by Newton's method: the fit
the learned Claudes (``learned``, ``edit-aware``) and the length cue (:mod:`arena.length_cue`)
share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def fit_logistic(rows: Sequence[Sequence[float]] | ArrayLike, labels: Sequence[int] | ArrayLike, l2: float,
                 steps: int = 50) -> list[float]:
    """Weights (no intercept) of an L2-penalised logistic regression, by Newton's
    method on standardised features (``rows``: lists or an array); returned on the original scale."""
    import numpy as np

    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=float)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    w = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + l2 * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + l2 * np.eye(z.shape[1])
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return [float(value) for value in w / scale]
