"""The reference computation of a run's scores, in memory: every round joined with its
judgements and 1-bests as :class:`~arena.stats.aggregate.Outcome` objects, grouped by cell
and summarised by :mod:`arena.stats.metrics`.  Production scoring is streamed from columns
(:mod:`arena.stats.streamed`); the tests check that it equals this, byte for byte."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.record.rounds import STATUS_BALANCED_OUT, STATUS_NOT_APPLICABLE, STATUS_OK, JudgementRecord, OneBest, Round
from arena.stats import registry
from arena.stats.aggregate import Outcome, Tally, join
from arena.stats.cells import claude_label as _label
from arena.stats.cells import meta_bin_key as _meta_bin
from arena.stats.cells import meta_value_key as _meta_value
from arena.stats.cells import over_seeds as _over_seeds
from arena.stats.cells import paired_claudes as _paired_claudes
from arena.stats.cells import paired_zelligs as _paired_zelligs
from arena.stats.cells import phenomenon_key as _phenomenon
from arena.stats.metrics import breakdown, summarise
from arena.stats.results import Cell, GenerativeRate, Paired, Scores, Yield
from arena.stats.timeline import timeline


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
          game: Mapping[str, Any] | None, ties: registry.Context) -> Cell:
    from arena.stats import bins

    john, zellig, claude, seed = key
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
    from arena.stats import cue_strata

    ties = experiment.get("contrastive_ties", "wrong")
    context = registry.Context(ties, cue_strata.of_rounds(rounds, experiment))
    samples = int(experiment.get("bootstrap_samples", 1000))
    claudes = [c.get("alias") or _label(c) for c in experiment["claudes"]]
    index = _Index(rounds, join(rounds, judgements, one_bests), one_bests)
    counted = {key: Tally.of(items) for key, items in index.counted.items()}
    cells = tuple(
        _cell(index, (john, zellig, claude, seed), experiment, game, context)
        for (john, zellig, seed) in index.rounds for claude in claudes
    )
    return Scores(
        signature=signature,
        contrastive_ties=ties,
        cells=cells,
        over_seeds=_over_seeds(cells),
        paired=Paired(_paired_claudes(counted, claudes, samples), _paired_zelligs(counted, samples)),
    )


def score_run_in_memory(run_dir: Path) -> Scores:
    """The scores of a run directory from its records read into memory (:mod:`arena.stats.run`)."""
    from arena.stats.run import RunData

    run = RunData.open(run_dir)
    scores = score_transcripts(run.experiment, run.rounds, run.judgements, run.one_bests, run.signature,
                               run.manifest.game)
    return Scores(scores.signature, scores.contrastive_ties, scores.cells, scores.over_seeds, scores.paired,
                  scores.cues, run.manifest.signatures)
