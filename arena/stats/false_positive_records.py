"""The typed rows of the false-positive report (:mod:`arena.stats.false_positives`).

Written as ``RUN/report/false_positives.json`` by pydantic (:func:`arena.codec.dump`);
keys that apply only to some rows (a pool, several replicas, a verdict with a generative rate)
are left out where they do not apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from arena.stats.typed import OMIT_EMPTY, OMIT_NONE, Result


@dataclass(frozen=True)
class Rate(Result):
    """A proportion of ``n`` independent items with its Wilson interval."""

    count: float
    n: int
    rate: float | None
    ci95: tuple[float, float] | None


@dataclass(frozen=True)
class ClusteredRate(Result):
    """A rate pooled over instances: bootstrap interval resampling instances, cluster-robust variance."""

    count: float
    n: int
    instances: int
    rate: float | None
    ci95: tuple[float, float] | None
    variance: float


@dataclass(frozen=True)
class SeedRates(Result):
    """One model replica's contrastive error and generative rate."""

    seed: int | None
    contrastive_error: float | None
    generative: float | None


@dataclass(frozen=True)
class Spread(Result):
    """Mean and sample standard deviation over replicas."""

    mean: float
    std: float


@dataclass(frozen=True)
class FalsePositiveRow(Result):
    """One Claude × Zellig × phenomenon × reference kind: error against generative rate, and the verdict."""

    claude: str
    zellig: str
    phenomenon: str
    reference_kind: str
    contrastive_ties: str
    contrastive_error: ClusteredRate
    generative: Rate | None
    distributional_discrepancy: float | None
    generative_pool: Annotated[Rate | None, OMIT_NONE] = None  # with a pool only
    per_seed: Annotated[tuple[SeedRates, ...], OMIT_EMPTY] = ()  # with replicas only
    contrastive_error_over_seeds: Annotated[Spread | None, OMIT_NONE] = None
    generative_over_seeds: Annotated[Spread | None, OMIT_NONE] = None
    generative_used: Annotated[str | None, OMIT_NONE] = None  # "pool" or "run"
    gap: float | None = None
    p_value: float | None = None  # of the one-sided test e > g (exceeds)
    p_equivalent: Annotated[float | None, OMIT_NONE] = None  # the larger TOST p-value
    verdict: str = ""  # against the raw generative rate: exceeds, equivalent (±M) or undecided (...)
    # arena/stats/fp_adjust.py: the Rogan-Gladen corrected generative rate and the verdict against it, and
    # the strongest surface cue with the kinds of the strong cues, beside the verdicts (never replacing them)
    generative_corrected: Annotated[dict[str, Any] | None, OMIT_NONE] = None
    p_value_corrected: Annotated[float | None, OMIT_NONE] = None
    verdict_corrected: Annotated[str | None, OMIT_NONE] = None
    cue: Annotated[dict[str, Any] | None, OMIT_NONE] = None
    # issue 34 (arena/stats/fp_band.py): the Rogan-Gladen verdict under the band of the detector's rates
    sensitivity_band: Annotated[dict[str, Any] | None, OMIT_NONE] = None
    flips_in_band: Annotated[bool | None, OMIT_NONE] = None
    cue_kinds: Annotated[tuple[str, ...] | None, OMIT_NONE] = None


@dataclass(frozen=True)
class FalsePositiveReport(Result):
    run: str
    signature: str
    alpha: float
    margin: float
    test: str
    pool_sources: int | None
    rows: tuple[FalsePositiveRow, ...]
