"""The typed rows of the false-positive report (:mod:`arena.stats.false_positives`).

Written as ``RUN/report/false_positives.json`` by the one serialiser of
:mod:`arena.stats.results` (:func:`~arena.stats.results.to_json`); keys that apply only
to some rows (a pool, several replicas, a verdict with a generative rate) are left out
where they do not apply.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rate:
    """A proportion of ``n`` independent items with its Wilson interval."""

    count: float
    n: int
    rate: float | None
    ci95: tuple[float, float] | None


@dataclass(frozen=True)
class ClusteredRate:
    """A rate pooled over instances: bootstrap interval resampling instances, cluster-robust variance."""

    count: float
    n: int
    instances: int
    rate: float | None
    ci95: tuple[float, float] | None
    variance: float


@dataclass(frozen=True)
class SeedRates:
    """One model replica's contrastive error and generative rate."""

    seed: int | None
    contrastive_error: float | None
    generative: float | None


@dataclass(frozen=True)
class Spread:
    """Mean and sample standard deviation over replicas."""

    mean: float
    std: float


def _omit_none() -> dict[str, str]:
    return {"omit": "none"}


@dataclass(frozen=True)
class FalsePositiveRow:
    """One Claude × Zellig × phenomenon × reference kind: error against generative rate, and the verdict."""

    claude: str
    zellig: str
    phenomenon: str
    reference_kind: str
    contrastive_ties: str
    contrastive_error: ClusteredRate
    generative: Rate | None
    distributional_discrepancy: float | None
    generative_pool: Rate | None = field(default=None, metadata=_omit_none())  # with a pool only
    per_seed: tuple[SeedRates, ...] = field(default=(), metadata={"omit": "empty"})  # with replicas only
    contrastive_error_over_seeds: Spread | None = field(default=None, metadata=_omit_none())
    generative_over_seeds: Spread | None = field(default=None, metadata=_omit_none())
    generative_used: str | None = field(default=None, metadata=_omit_none())  # "pool" or "run"
    gap: float | None = None
    p_value: float | None = None  # of the one-sided test e > g (exceeds)
    p_equivalent: float | None = field(default=None, metadata=_omit_none())  # the larger TOST p-value
    verdict: str = ""  # against the raw generative rate: exceeds, equivalent (±M) or undecided (...)
    # arena/stats/fp_adjust.py: the Rogan-Gladen corrected generative rate and the verdict against it, and
    # the strongest surface cue with the kinds of the strong cues, beside the verdicts (never replacing them)
    generative_corrected: dict | None = field(default=None, metadata=_omit_none())
    p_value_corrected: float | None = field(default=None, metadata=_omit_none())
    verdict_corrected: str | None = field(default=None, metadata=_omit_none())
    cue: dict | None = field(default=None, metadata=_omit_none())
    # issue 34 (arena/stats/fp_band.py): the Rogan-Gladen verdict under the band of the detector's rates
    sensitivity_band: dict | None = field(default=None, metadata=_omit_none())
    flips_in_band: bool | None = field(default=None, metadata=_omit_none())
    cue_kinds: tuple[str, ...] | None = field(default=None, metadata=_omit_none())


@dataclass(frozen=True)
class FalsePositiveReport:
    run: str
    signature: str
    alpha: float
    margin: float
    test: str
    pool_sources: int | None
    rows: tuple[FalsePositiveRow, ...]
