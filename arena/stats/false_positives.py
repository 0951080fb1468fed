"""False positives of implausible hypotheses (Vamvas & Sennrich 2021, §4 and Table 1), from a run's
transcripts.

A minimal pair tests a hypothesis ("the model prefers *Ding* to the right noun", "it drops a clause").
When a model prefers the corrupted side of many pairs but never *produces* the phenomenon when it
translates the same sources, the contrastive errors are false positives of an implausible hypothesis:
the test penalises the model for something it does not do.  Per Zellig × phenomenon × reference kind
(``human``/``machine``, from the John's ``reference_kind`` metadata) × Claude this module reports:

- **contrastive error rate** ``e`` = 1 − contrastive accuracy over the judged minimal pairs (ties by the
  run's ``contrastive_ties`` policy), with a 95% bootstrap interval that resamples instances (the pairs
  of one instance are not independent).  A pair is counted once per model replica: a Claude without
  replicas judged the same pair identically in every seed.
- **generative rate** ``g``: the share of the Claude's own beam-search 1-best translations (the run's
  ``onebest.jsonl``) of the same sources in which the Zellig's detector finds the phenomenon, with a 95%
  Wilson interval; one translation per replica and source.  With a **pool** of further sources
  (:func:`pool_one_bests`) the rate is also measured on the 1-bests of those, so that a rare phenomenon
  gets a usable estimate; the verdict then uses the pool rate (the run's when fewer than
  :data:`MIN_ITEMS` pool translations count).  A detector whose phenomenon needs something in the
  source (:class:`arena.roles.ConditionalDetector`: a negated word to drop, two clauses to omit one
  of) counts only the translations of sources it applies to, so unrelated pool sources do not
  dilute its rate.
- the **gap** ``e − g`` and the **distributional discrepancy** (mean of ``max(0, s(1-best) −
  max(s(correct), s(corrupted)))``, as ``arena score`` has it).
- a **verdict** (:mod:`arena.stats.outcome_tests`) with three outcomes: ``exceeds`` when ``e``
  significantly exceeds ``g`` — a one-sided Wald test of H1: e > g at α = 0.05, with the cluster-robust
  variance of ``e`` over instances (:func:`arena.stats.aggregate.ratio_variance`) and the binomial
  variance of ``g`` (with one pseudo-success and one pseudo-failure, so that g = 0 has a spread) — so the
  contrastive errors are likely false positives; ``equivalent (±M)`` when two one-sided tests put the gap
  within the margin M (default 5 points); ``undecided (n ≈ K would decide)`` otherwise, and under
  :data:`MIN_ITEMS` pairs or translations, or ``undecided (no detector …)`` when the Zellig cannot
  recognise its phenomenon in a translation.  The test treats the two estimates as independent; on the
  run's own sources they share their sources, and an error on a pair and a detection in the translation
  of its source are positively correlated if anything, which makes the test conservative there.  Read the
  rates with the detector's false-alarm rate on human references (``experiments/bench/detectors.py``):
  a generative rate at that level is the detector's noise.

Rows pool a Claude's seeds (its replicas' pairs and translations); with several replicas each row also
carries mean ± std over replicas of ``e`` and ``g`` (``per_seed`` has the numbers of each).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.codec import dump, load
from arena.record import transcripts
from arena.record.rounds import OneBest
from arena.stats import aggregate, fp_adjust, outcome_tests
from arena.stats.aggregate import mean_std, ratio_variance, wilson_ci
from arena.stats.false_positive_records import (
    ClusteredRate,
    FalsePositiveReport,
    FalsePositiveRow,
    Rate,
    SeedRates,
    Spread,
)
from arena.stats.fp_adjust import MIN_ITEMS, decide, generative_variance

logger = logging.getLogger(__name__)

ALPHA = 0.05
NO_DETECTOR = outcome_tests.undecided_words("no detector: the Zellig cannot recognise its phenomenon in a translation")
REPORT_NAME = "false_positives"
POOL_PREFIX = "pool-"


@dataclass(frozen=True)
class Key:
    """One row of the report."""

    claude: str
    zellig: str
    phenomenon: str
    reference_kind: str


def _rate(count: float, n: int) -> Rate:
    """A proportion of ``n`` independent items with its Wilson interval."""
    return Rate(count, n, count / n if n else None, wilson_ci(count, n))


def _error(ties: str):
    """The contrastive error of a round under a tie policy (``None`` without scores)."""
    accurate = aggregate.accurate(ties)

    def value(outcome: aggregate.Outcome) -> float | None:
        correct = accurate(outcome)
        return None if correct is None else 1.0 - correct

    return value


def _clustered_rate(tally: aggregate.Tally, samples: int) -> ClusteredRate:
    """The pooled rate of a tally over instances, with a bootstrap interval that resamples instances
    and the cluster-robust variance the verdict uses."""
    return ClusteredRate(float(tally.sums.sum()), tally.rounds, len(tally.keys), tally.rate(), tally.ci(samples),
                         ratio_variance(tally.sums, tally.counts))


def _replica_key(replicated: set[str]):
    """The replica that judged: the round's seed for a Claude with replicas, else ``None`` (a Claude
    without replicas judges a pair identically in every seed)."""

    def key(outcome: aggregate.Outcome) -> int | None:
        return outcome.round.seed if outcome.judgement.claude in replicated else None

    return key


def report_rows(
    experiment: Mapping[str, Any],
    outcomes: Mapping[str, Sequence[aggregate.Outcome]],
    one_bests: Sequence[OneBest],
    pool: Mapping[tuple[str, int | None], Sequence[OneBest]] | None = None,
    alpha: float = ALPHA,
    margin: float = outcome_tests.MARGIN,
) -> list[FalsePositiveRow]:
    """The report's rows from joined outcomes (:func:`arena.stats.aggregate.join`), the run's 1-bests and
    an optional pool of 1-bests per (Claude, replica seed)."""
    ties = experiment.get("contrastive_ties", "wrong")
    samples = int(experiment.get("bootstrap_samples", 1000))
    error = _error(ties)
    replica_of = _replica_key({o.claude for o in one_bests if o.seed is not None})
    best = {(o.claude, o.seed, o.source): o for o in one_bests}

    def cluster_of(outcome: aggregate.Outcome) -> tuple:
        return replica_of(outcome), outcome.round.john, outcome.round.instance.id

    def row_key(outcome: aggregate.Outcome) -> Key | None:
        variant = outcome.round.variant
        if variant is None or outcome.scores is None:
            return None
        kind = str(outcome.round.instance.meta.get("reference_kind", "unknown"))
        return Key(outcome.judgement.claude, outcome.round.zellig, variant.phenomenon, kind)

    everything = [o for items in outcomes.values() for o in items]
    rows = []
    groups = aggregate.group(everything, row_key)
    for key in sorted(groups, key=lambda k: (k.phenomenon, k.zellig, k.reference_kind, k.claude)):
        unique: dict[tuple, aggregate.Outcome] = {}
        for outcome in groups[key]:  # each pair once per replica
            variant = outcome.round.variant
            assert variant is not None  # row_key keeps only rounds with a variant
            unique.setdefault((replica_of(outcome), outcome.round.instance.id, variant.text), outcome)
        pairs = list(unique.values())
        by_replica = aggregate.group(pairs, replica_of) if any(replica_of(o) is not None for o in pairs) else {None: pairs}
        detected: dict[int | None, list[float]] = {}
        for replica, items in by_replica.items():
            sources = dict.fromkeys(o.round.instance.source for o in items)
            found = [best.get((key.claude, replica, source)) for source in sources]
            detected[replica] = [float(o.detected[key.zellig]) for o in found if o is not None and key.zellig in o.detected]
        flags = [d for values in detected.values() for d in values]
        discrepancies = [d for d in (aggregate.discrepancy(o) for o in pairs) if d is not None]
        per_seed = tuple(
            SeedRates(replica, aggregate.Tally.of(by_replica[replica], error).rate(),
                      float(np.mean(detected[replica])) if detected[replica] else None)
            for replica in sorted(by_replica, key=lambda r: (r is None, r or 0))
        ) if len(by_replica) > 1 else ()
        row = FalsePositiveRow(
            key.claude, key.zellig, key.phenomenon, key.reference_kind, ties,
            contrastive_error=_clustered_rate(aggregate.Tally.of(pairs, error, cluster_of), samples),
            generative=_rate(float(sum(flags)), len(flags)) if flags else None,
            distributional_discrepancy=float(np.mean(discrepancies)) if discrepancies else None,
            generative_pool=_pool_rate(pool, key) if pool is not None else None,
            per_seed=per_seed,
            contrastive_error_over_seeds=_spread([e.contrastive_error for e in per_seed]),
            generative_over_seeds=_spread([e.generative for e in per_seed]),
        )
        rows.append(_verdict(row, alpha, margin))
    return rows


def _spread(values: Sequence[float | None]) -> Spread | None:
    known = [v for v in values if v is not None]
    return Spread(*mean_std(known)) if known else None


def _pool_rate(pool: Mapping[tuple[str, int | None], Sequence[OneBest]], key: Key) -> Rate | None:
    verdicts = [
        float(o.detected[key.zellig])
        for (claude, _), items in pool.items() if claude == key.claude
        for o in items if key.zellig in o.detected
    ]
    return _rate(float(sum(verdicts)), len(verdicts)) if verdicts else None


def _verdict(row: FalsePositiveRow, alpha: float, margin: float) -> FalsePositiveRow:
    """The row with its gap, p-values and verdict: against the pool's generative rate when the pool has
    at least :data:`MIN_ITEMS` translations the detector applies to, else against the run's."""
    from dataclasses import replace

    pool = row.generative_pool
    use_pool = pool is not None and (pool.n >= MIN_ITEMS or row.generative is None)
    generative = pool if use_pool else row.generative
    error = row.contrastive_error
    if generative is None or generative.rate is None or not error.n:
        return replace(row, verdict=NO_DETECTOR)
    gap = error.rate - generative.rate  # type: ignore[operator]  # both have items
    decision = decide(error, generative.rate, generative_variance(generative), generative.n, alpha, margin)
    return replace(row, generative_used="pool" if use_pool else "run", gap=gap, p_value=decision.p_exceeds,
                   p_equivalent=decision.p_equivalent, verdict=decision.verdict)


# ---------------------------------------------------------------- the pool of further sources


def pool_digest(sources: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(sources).encode("utf-8")).hexdigest()[:12]


def pool_one_bests(
    run_dir: Path, experiment: Any, sources: Sequence[str], catalog: Any, progress: bool = True, chunk: int = 64
) -> dict[tuple[str, int | None], list[OneBest]]:
    """Beam-search 1-bests of ``sources`` by every scoring Claude model of the run (each replica), with
    every Zellig's detector verdict, keyed by (Claude label, replica seed or ``None``); cached in
    ``RUN/report/pool-<digest of the sources>/<model>.jsonl`` (one file per model, written atomically when
    it is done, so an interrupted pool resumes and a finished one is read back).  Runs in this process,
    one model at a time."""
    from arena.engine import jobs
    from arena.engine.progress import progress_bar
    from arena.record.order import models

    directory = Path(run_dir) / "report" / f"{POOL_PREFIX}{pool_digest(sources)}"
    cache = jobs.PerformerCache(catalog)
    result: dict[tuple[str, int | None], list[OneBest]] = {}
    try:
        for model in models(experiment):
            key = (model.spec.label, model.replica)
            path = directory / f"{model.one_best_cell}.jsonl"
            if path.exists():
                result[key] = [load(OneBest, record) for record in transcripts.read_jsonl(path)]
                continue
            kind = cache.run(jobs.DescribeJob(model.spec))
            if not kind.scoring:
                cache.release("claude", model.spec)
                continue
            logger.info("pool: 1-best translations of %d sources by %s (beam %d)", len(sources), model.name,
                        experiment.beam)
            translated: list[tuple[str, float, int]] = []
            with progress_bar(len(sources), f"pool {model.name}", enabled=progress, unit="sentence") as bar:
                for part in jobs.chunks(sources, chunk):
                    translated += cache.run(jobs.TranslateJob(model.spec, tuple(part), experiment.beam))
                    bar.update(len(part))
            cache.release("claude", model.spec)
            texts = tuple(text for text, _, _ in translated)
            flags: list[dict[str, bool]] = [{} for _ in sources]
            verdicts = cache.run(jobs.DetectJob(tuple(experiment.zelligs), texts, tuple(sources)))
            for zellig, found in zip(experiment.zelligs, verdicts):
                for verdict, slot in zip(found or (), flags):
                    if verdict is not None:  # None: the detector does not apply to this source
                        slot[zellig.label] = verdict
            records = [
                OneBest(model.spec.label, source, text, logprob, tokens, flag, kind.convention, model.replica)
                for source, (text, logprob, tokens), flag in zip(sources, translated, flags)
            ]
            transcripts.atomic_write_jsonl(path, (dump(r) for r in records))
            result[key] = records
    finally:
        cache.clear()
    return result


# ---------------------------------------------------------------- building and writing the report


def build(run_dir: Path, pool: Mapping[tuple[str, int | None], Sequence[OneBest]] | None = None,
          alpha: float = ALPHA, calibrations: Mapping[str, Any] | None = None,
          cues: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
          validations: Mapping[tuple[str, str], Any] | None = None,
          margin: float = outcome_tests.MARGIN) -> FalsePositiveReport:
    """The report of a run or tournament directory (its transcripts so far); ``calibrations`` (by
    Zellig label), ``cues`` (by Zellig label and phenomenon) and ``validations`` (by Claude and Zellig
    label): see :mod:`arena.stats.fp_adjust`."""
    from arena.stats.run import RunData

    run = RunData.open(run_dir)
    outcomes = aggregate.join(run.rounds, run.judgements, run.one_bests)
    outcome_tests.check_margin(margin, "margin")
    rows = fp_adjust.adjust(report_rows(run.experiment, outcomes, run.one_bests, pool, alpha, margin), calibrations,
                            cues, alpha, margin, validations)
    return FalsePositiveReport(
        run=str(run_dir),
        signature=run.signature,
        alpha=alpha,
        margin=margin,
        test="one-sided Wald test of H1: contrastive error rate > generative rate (exceeds), two one-sided tests "
             "of |gap| < margin (equivalent), else undecided (cluster-robust variance of the error rate over "
             "instances, binomial variance of the generative rate)",
        pool_sources=len(next(iter(pool.values()))) if pool else None,
        rows=tuple(rows),
    )
