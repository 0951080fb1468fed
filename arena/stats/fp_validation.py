"""Generative rates corrected with a validation sample of the model's own translations (issue 34,
item 4): a double-sampling (two-phase) estimator.

The Rogan–Gladen correction (:mod:`arena.stats.rogan_gladen`) takes the detector's recall and false
alarms from published pairs and assumes they transfer to a model's beam-search 1-bests, whose errors
look different.  A validation sample checks that where the correction is applied: of one Claude's
1-bests in a run (the *population*: ``flagged`` translations the detector fired on, ``unflagged`` it
did not), a person labels ``n_f`` flagged and ``n_u`` unflagged ones, drawn at random
(``arena false-positives RUN --validate N``, :mod:`arena.people.validation`), as showing the
phenomenon or not.  That estimates the detector's positive predictive value on this population,
``PPV = a_f / n_f``, and its false-omission rate ``FOR = a_u / n_u`` (1 − NPV), and the rate of the
phenomenon among translations with a share ``f`` flagged is (Tenenbein 1970; the classic two-phase
estimator of a prevalence)::

    p = f · PPV + (1 − f) · FOR

The sensitivity and specificity it implies on this population are ``f · PPV / p`` and
``(1 − f) · (1 − FOR) / (1 − p)``.  The 95% interval is a parametric bootstrap over all three
measurements — ``f`` from its Jeffreys posterior on the row's translations, ``PPV`` and ``FOR`` from
theirs on the labelled items — so a small validation sample widens it; its variance feeds the
false-positive test exactly as the Rogan–Gladen one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.stats.rogan_gladen import SAMPLES, SEED

METHOD = "validation sample (double sampling)"


@dataclass(frozen=True)
class Validation:
    """One Claude × Zellig stratum of a validation sample: the population's ``flagged`` and
    ``unflagged`` 1-bests, and of the labelled ones how many showed the phenomenon."""

    claude: str
    zellig: str
    flagged: int
    unflagged: int
    flagged_labelled: int = 0
    flagged_present: int = 0
    unflagged_labelled: int = 0
    unflagged_present: int = 0

    @property
    def ppv(self) -> float | None:
        return self.flagged_present / self.flagged_labelled if self.flagged_labelled else None

    @property
    def false_omission(self) -> float | None:
        return self.unflagged_present / self.unflagged_labelled if self.unflagged_labelled else None

    @property
    def labelled(self) -> int:
        return self.flagged_labelled + self.unflagged_labelled

    def usable(self) -> bool:
        """Labels in every phase the population has (flagged ones only where the detector fired)."""
        return self.unflagged_labelled > 0 and (self.flagged_labelled > 0 or self.flagged == 0)


def point(flagged_share: float, ppv: float, false_omission: float) -> float:
    return float(flagged_share * ppv + (1 - flagged_share) * false_omission)


def _beta(rng: np.random.Generator, count: float, n: float, samples: int) -> np.ndarray:
    return rng.beta(count + 0.5, n - count + 0.5, samples)


def corrected(count: float, n: int, validation: Validation, samples: int = SAMPLES,
              seed: int = SEED) -> dict[str, Any] | None:
    """The double-sampling rate of the phenomenon among ``n`` translations of which the detector
    flagged ``count``: ``rate``, ``ci95``, ``variance`` (of the bootstrap draws), the population's
    ``ppv``, ``npv``, implied ``sensitivity`` and ``specificity``, the ``labelled`` counts and
    ``method``; ``None`` without translations or without labels in a phase the population has."""
    if n <= 0 or not validation.usable():
        return None
    share = count / n
    ppv = validation.ppv if validation.ppv is not None else 0.0
    omission = validation.false_omission or 0.0
    estimate = point(share, ppv, omission)
    rng = np.random.default_rng(seed)
    shares = _beta(rng, count, n, samples)
    ppvs = (_beta(rng, validation.flagged_present, validation.flagged_labelled, samples)
            if validation.flagged_labelled else np.zeros(samples))
    omissions = _beta(rng, validation.unflagged_present, validation.unflagged_labelled, samples)
    draws = shares * ppvs + (1 - shares) * omissions
    low, high = np.quantile(draws, [0.025, 0.975])
    return {
        "rate": estimate, "ci95": (float(low), float(high)), "variance": float(draws.var()), "n": n,
        "method": METHOD, "ppv": validation.ppv, "npv": 1 - omission,
        "sensitivity": share * ppv / estimate if estimate > 0 else None,
        "specificity": (1 - share) * (1 - omission) / (1 - estimate) if estimate < 1 else None,
        "labelled": {"flagged": validation.flagged_labelled, "unflagged": validation.unflagged_labelled},
    }
