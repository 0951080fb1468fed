"""Metrics: pure functions over transcripts (rounds, judgements, 1-bests).

Per cell (John, Zellig, Claude, seed):

- **S** (Smith 2012): share of judged rounds in which the Claude's final choice (after
  seeded coins for ties, abstentions and late answers; free points for Zellig
  timeouts) is the corrupted candidate; 95% bootstrap CI resampling instances.
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
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.game.timeline import timeline
from arena.record.rounds import STATUS_BALANCED_OUT, STATUS_NOT_APPLICABLE, STATUS_OK, JudgementRecord, OneBest, Round
from arena.stats import registry
from arena.stats.aggregate import Outcome, Tally, group, join
from arena.stats.cells import JOHN_META_PREFIX  # noqa: F401  (re-exported)
from arena.stats.cells import claude_label as _label
from arena.stats.cells import meta_bin_key as _meta_bin
from arena.stats.cells import meta_value_key as _meta_value
from arena.stats.cells import over_seeds as _over_seeds
from arena.stats.cells import paired_claudes as _paired_claudes
from arena.stats.cells import paired_zelligs as _paired_zelligs
from arena.stats.cells import phenomenon_key as _phenomenon
from arena.stats.results import (
    Cell,
    GenerativeRate,
    Paired,
    Scores,
    Summary,
    Yield,
    to_json,
)


def summarise(outcomes: Sequence[Outcome], ties: str, samples: int) -> Summary:
    """S, its CI, resolution counts and every registered metric of a group of outcomes."""
    s = Tally.of(outcomes)
    return Summary(
        rounds=len(outcomes),
        S=s.rate(),
        S_ci95=s.ci(samples),
        correct=int(s.sums.sum()),
        resolved_by=dict(sorted(Counter(o.judgement.resolved_by for o in outcomes).items())),
        metrics=registry.summarise(outcomes, registry.Context(ties), samples),
    )


def breakdown(outcomes: Sequence[Outcome], key: Callable[[Outcome], Hashable | None], ties: str,
              order: Sequence[str] | None = None) -> dict[str, Summary]:
    """S and every metric per bucket of ``key(outcome)`` (``None`` keys are left out)."""
    groups = group(outcomes, key)
    names = [b for b in order if b in groups] if order is not None else sorted(groups)
    return {name: summarise(groups[name], ties, 0) for name in names}


def zellig_yield(rounds: Sequence[Round]) -> Yield:
    """How many of the John's instances the Zellig applied to, and with how many candidates."""
    instances: dict[str, Round] = {}
    for r in rounds:
        instances.setdefault(r.instance.id, r)
    made = (STATUS_OK, STATUS_BALANCED_OUT)  # a pair a John's balance left out was still made
    applicable = [r for r in instances.values() if r.status in made]
    return Yield(
        instances=len(instances),
        applicable=len(applicable),
        share=len(applicable) / len(instances) if instances else None,
        timeouts=sum(1 for r in instances.values() if r.status not in (*made, STATUS_NOT_APPLICABLE)),
        mean_candidates=float(np.mean([r.n_candidates for r in applicable])) if applicable else 0.0,
    )


def generative_rate(rounds: Sequence[Round], zellig: str, one_bests: Mapping[str, OneBest]) -> GenerativeRate | None:
    """Share of the 1-best translations of the cell's sources that show the phenomenon."""
    sources = {r.instance.source for r in rounds if r.status == STATUS_OK}
    verdicts = [one_bests[s].detected[zellig] for s in sources if s in one_bests and zellig in one_bests[s].detected]
    if not verdicts:
        return None
    return GenerativeRate(sources=len(verdicts), detected=int(sum(verdicts)), rate=float(np.mean(verdicts)))


def compute_scores(run_dir: Path) -> dict[str, Any]:
    """``scores.json`` of a run directory, derived from its transcripts (as JSON values)."""
    return to_json(score_run(Path(run_dir)))


def score_run(run_dir: Path) -> Scores:
    """The typed scores of a run directory, its transcripts streamed in memory that does not
    hold their records (:mod:`arena.stats.streamed`; equal to :func:`score_run_in_memory`)."""
    from arena.stats import streamed

    return streamed.score_run(Path(run_dir))


def score_run_in_memory(run_dir: Path) -> Scores:
    """The reference computation of :func:`score_run`: the run read once into records
    (:mod:`arena.stats.run`) and scored by :func:`score_transcripts`."""
    from arena.stats.run import load_run

    run = load_run(run_dir)
    scores = score_transcripts(run.experiment, run.rounds, run.judgements, run.one_bests, run.signature,
                               run.manifest.get("game"))
    return Scores(scores.signature, scores.contrastive_ties, scores.cells, scores.over_seeds, scores.paired,
                  scores.cues, run.manifest.get("signatures", {}))


class _Index:
    """A run's rounds, outcomes and 1-bests grouped by cell."""

    def __init__(self, rounds: Sequence[Round], outcomes: Mapping[str, Sequence[Outcome]],
                 one_bests: Sequence[OneBest]) -> None:
        self.best: dict[tuple[str, int | None], dict[str, OneBest]] = defaultdict(dict)
        for best in one_bests:
            self.best[best.claude, best.seed][best.source] = best
        self.rounds: dict[tuple[str, str, int], list[Round]] = defaultdict(list)
        for r in rounds:
            self.rounds[r.john, r.zellig, r.seed].append(r)
        self.counted: dict[tuple[str, str, str, int], list[Outcome]] = defaultdict(list)
        self.played: dict[tuple[str, str, str, int], list[Outcome]] = defaultdict(list)
        for claude, items in outcomes.items():
            for o in items:
                self.played[o.round.john, o.round.zellig, claude, o.round.seed].append(o)
                if o.round.counts:  # observation phases of a game do not count toward S
                    self.counted[o.round.john, o.round.zellig, claude, o.round.seed].append(o)

    def one_bests(self, claude: str, seed: int) -> dict[str, OneBest]:
        return self.best.get((claude, seed)) or self.best.get((claude, None), {})


def _cell(index: _Index, key: tuple[str, str, str, int], experiment: Mapping[str, Any],
          game: Mapping[str, Any] | None) -> Cell:
    from arena.stats import bins

    john, zellig, claude, seed = key
    ties = experiment.get("contrastive_ties", "wrong")
    samples = int(experiment.get("bootstrap_samples", 1000))
    cell = index.counted.get(key, [])
    cell_rounds = index.rounds[john, zellig, seed]
    played = index.played.get(key, []) if game is not None else None
    return Cell(
        john, zellig, claude, seed,
        summary=summarise(cell, ties, samples),
        yield_=zellig_yield(cell_rounds),
        generative_rate=generative_rate(cell_rounds, zellig, index.one_bests(claude, seed)),
        phenomena=breakdown(cell, _phenomenon, ties),
        by_distance=breakdown(cell, _meta_bin("distance"), ties, bins.DISTANCE_BINS),
        by_frequency=breakdown(cell, _meta_bin("frequency"), ties, bins.FREQUENCY_BINS),
        by_meta={k: breakdown(cell, _meta_value(k), ties) for k in experiment["breakdowns"]}
        if experiment.get("breakdowns") else None,
        observation_rounds=len(played) - len(cell) if played is not None else None,
        timeline=timeline(played, int(game["window"]), float(game["epsilon"]), samples)
        if game is not None and played is not None else None,
    )


def score_transcripts(
    experiment: Mapping[str, Any],
    rounds: Sequence[Round],
    judgements: Sequence[JudgementRecord],
    one_bests: Sequence[OneBest],
    signature: str = "",
    game: Mapping[str, Any] | None = None,
) -> Scores:
    """Scores of a run.  In a game (``game``: the schedule the run played, see
    :mod:`arena.game.play`) S and everything else count only rounds of phases that count
    toward S, and each cell gets a ``timeline`` of all its played rounds."""
    ties = experiment.get("contrastive_ties", "wrong")
    samples = int(experiment.get("bootstrap_samples", 1000))
    claudes = [c.get("alias") or _label(c) for c in experiment["claudes"]]
    index = _Index(rounds, join(rounds, judgements, one_bests), one_bests)
    counted = {key: Tally.of(items) for key, items in index.counted.items()}
    cells = tuple(
        _cell(index, (john, zellig, claude, seed), experiment, game)
        for (john, zellig, seed) in index.rounds for claude in claudes
    )
    return Scores(
        signature=signature,
        contrastive_ties=ties,
        cells=cells,
        over_seeds=_over_seeds(cells),
        paired=Paired(_paired_claudes(counted, claudes, samples), _paired_zelligs(counted, samples)),
    )


