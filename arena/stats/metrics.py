"""Metrics: pure functions over transcripts (rounds, judgements, 1-bests).

Per cell (John, Zellig, Claude, seed):

- **S** (Smith 2012): share of the rounds the Claude judged in which its final choice (after
  seeded coins for exact score ties; free points for Zellig timeouts) is the corrupted
  candidate; 95% bootstrap CI resampling instances.  Rounds it abstained on or answered
  late are counted in ``rounds`` and ``resolved_by`` but not in S (the one rule:
  :func:`arena.stats.aggregate.judged`); S is ``None`` when it judged none.
- **contrastive accuracy**: share of rounds whose correct candidate scores higher than
  the corrupted one; exact ties follow the experiment's ``contrastive_ties`` policy
  (``wrong`` by default, recorded in ``scores.json``).  Only for scoring Claudes.
- **distributional discrepancy** (Vamvas & Sennrich 2021): mean over rounds of
  ``max(0, s(1-best) − max(s(correct), s(corrupted)))`` with the Claude's own beam-5
  translation of the source.
- **yield**: share of the John's instances to which the Zellig applies.
- **generative rate**: share of the Claude's 1-best translations of the cell's
  sources in which the Zellig's detector finds the phenomenon.
- breakdowns per phenomenon and by LingEval97's distance and frequency bins.

Across cells: mean ± std of S over seeds, and paired bootstrap tests between Claudes
(same rounds) and between Zelligs (same instances) per John and seed.  Every number
comes from the aggregation core (:mod:`arena.stats.aggregate`); the per-round metrics from
the metric registry (:mod:`arena.stats.registry`); the results are the typed records of
:mod:`arena.stats.results`, written by its one serialiser.

A run's ``scores.json`` is computed one way, streamed from its transcripts
(:func:`arena.stats.streamed.score_run`); this module summarises a group of outcomes
held in memory (:func:`summarise`, :func:`breakdown`: the people's sessions, the reference
computation the streamed one is tested against in ``tests/arena/stats/oracle.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from arena.stats import registry
from arena.stats.aggregate import Outcome, Tally, group
from arena.stats.results import Summary


def summarise(outcomes: Sequence[Outcome], ties: str | registry.Context, samples: int) -> Summary:
    """S, its CI, resolution counts and every registered metric of a group of outcomes (``ties``:
    the tie policy, or the whole :class:`~arena.stats.registry.Context` with the cue strata)."""
    context = ties if isinstance(ties, registry.Context) else registry.Context(ties)
    s = Tally.of(outcomes)
    return Summary(
        rounds=len(outcomes),
        S=s.rate(),
        S_ci95=s.ci(samples),
        correct=int(s.sums.sum()),
        resolved_by=dict(sorted(Counter(o.judgement.resolved_by for o in outcomes).items())),
        metrics=registry.summarise(outcomes, context, samples),
    )


def breakdown(outcomes: Sequence[Outcome], key: Callable[[Outcome], Hashable | None], ties: str | registry.Context,
              order: Sequence[str] | None = None) -> dict[str, Summary]:
    """S and every metric per bucket of ``key(outcome)`` (``None`` keys are left out)."""
    groups = group(outcomes, key)
    names = [b for b in order if b in groups] if order is not None else sorted(groups)
    return {name: summarise(groups[name], ties, 0) for name in names}
