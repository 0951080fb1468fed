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
comes from the aggregation core (:mod:`arena.stats.aggregate`).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.engine.match import STATUS_NOT_APPLICABLE, STATUS_OK, JudgementRecord, OneBest, Round
from arena.game.timeline import timeline
from arena.stats.aggregate import Outcome, Tally, group, join, mean_std, read_run, summary

JOHN_META_PREFIX = "john."  # breakdowns by the John's instance metadata m_n


def breakdown(outcomes: Sequence[Outcome], key, ties: str, order: Sequence[str] | None = None) -> dict[str, Any]:
    """Accuracy and S per bucket of ``key(outcome)`` (``None`` keys are left out)."""
    groups = group(outcomes, key)
    names = [b for b in order if b in groups] if order is not None else sorted(groups)
    return {name: summary(groups[name], ties, 0) for name in names}


def _phenomenon(outcome: Outcome) -> str | None:
    return outcome.round.variant.phenomenon if outcome.round.variant is not None else None


def _meta_bin(field: str):
    from arena.stats import bins

    binner = bins.distance_bin if field == "distance" else bins.frequency_bin

    def key(outcome: Outcome) -> str | None:
        variant = outcome.round.variant
        if variant is None or variant.meta.get(field) is None:
            return None
        return binner(variant.meta[field])

    return key


def _meta_value(field: str):
    """A breakdown key: a variant meta key, or ``john.KEY`` for the John's metadata m_n."""
    john_key = field.removeprefix(JOHN_META_PREFIX) if field.startswith(JOHN_META_PREFIX) else None

    def key(outcome: Outcome) -> str | None:
        if john_key is not None:
            value = outcome.round.instance.meta.get(john_key)
        else:
            variant = outcome.round.variant
            value = variant.meta.get(field) if variant is not None else None
        return None if value is None else str(value)

    return key


def zellig_yield(rounds: Sequence[Round]) -> dict[str, Any]:
    """How many of the John's instances the Zellig applied to, and with how many candidates."""
    instances: dict[str, Round] = {}
    for r in rounds:
        instances.setdefault(r.instance.id, r)
    applicable = [r for r in instances.values() if r.status == STATUS_OK]
    return {
        "instances": len(instances),
        "applicable": len(applicable),
        "share": len(applicable) / len(instances) if instances else None,
        "timeouts": sum(1 for r in instances.values() if r.status not in (STATUS_OK, STATUS_NOT_APPLICABLE)),
        "mean_candidates": float(np.mean([r.n_candidates for r in applicable])) if applicable else 0.0,
    }


def generative_rate(rounds: Sequence[Round], zellig: str, one_bests: Mapping[str, OneBest]) -> dict[str, Any] | None:
    """Share of the 1-best translations of the cell's sources that show the phenomenon."""
    sources = {r.instance.source for r in rounds if r.status == STATUS_OK}
    verdicts = [one_bests[s].detected[zellig] for s in sources if s in one_bests and zellig in one_bests[s].detected]
    if not verdicts:
        return None
    return {"sources": len(verdicts), "detected": int(sum(verdicts)), "rate": float(np.mean(verdicts))}


def compute_scores(run_dir: Path) -> dict[str, Any]:
    """Derive ``scores.json`` from a run directory's transcripts."""
    from arena.specs.signature import run_signature

    manifest, rounds, judgements, one_bests = read_run(Path(run_dir))
    experiment = manifest["experiment"]
    signature = run_signature(manifest, (r.to_json() for r in rounds))
    scores = score_transcripts(experiment, rounds, judgements, one_bests, signature, manifest.get("game"))
    scores["signatures"] = manifest.get("signatures", {})
    return scores


def score_transcripts(
    experiment: Mapping[str, Any],
    rounds: Sequence[Round],
    judgements: Sequence[JudgementRecord],
    one_bests: Sequence[OneBest],
    signature: str = "",
    game: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Scores of a run.  In a game (``game``: the schedule the run played, see
    :mod:`arena.game.play`) S and everything else count only rounds of phases that count
    toward S, and each cell gets a ``timeline`` of all its played rounds."""
    from arena.stats import bins

    ties = experiment.get("contrastive_ties", "wrong")
    samples = int(experiment.get("bootstrap_samples", 1000))
    claudes = [c.get("alias") or _label(c) for c in experiment["claudes"]]
    outcomes = join(rounds, judgements, one_bests)
    best_by_claude: dict[tuple[str, int | None], dict[str, OneBest]] = defaultdict(dict)
    for o in one_bests:
        best_by_claude[o.claude, o.seed][o.source] = o
    rounds_by_cell: dict[tuple[str, str, int], list[Round]] = defaultdict(list)
    for r in rounds:
        rounds_by_cell[r.john, r.zellig, r.seed].append(r)
    outcomes_by_cell: dict[tuple[str, str, str, int], list[Outcome]] = defaultdict(list)
    played_by_cell: dict[tuple[str, str, str, int], list[Outcome]] = defaultdict(list)
    for claude, items in outcomes.items():
        for o in items:
            played_by_cell[o.round.john, o.round.zellig, claude, o.round.seed].append(o)
            if o.round.counts:  # observation phases of a game do not count toward S
                outcomes_by_cell[o.round.john, o.round.zellig, claude, o.round.seed].append(o)

    cells = []
    for (john, zellig, seed), cell_rounds in rounds_by_cell.items():
        for claude in claudes:
            cell = outcomes_by_cell.get((john, zellig, claude, seed), [])
            entry = {"john": john, "zellig": zellig, "claude": claude, "seed": seed}
            entry.update(summary(cell, ties, samples))
            entry["yield"] = zellig_yield(cell_rounds)
            replica = best_by_claude.get((claude, seed)) or best_by_claude.get((claude, None), {})
            rate = generative_rate(cell_rounds, zellig, replica)
            if rate is not None:
                entry["generative_rate"] = rate
            entry["phenomena"] = breakdown(cell, _phenomenon, ties)
            by_distance = breakdown(cell, _meta_bin("distance"), ties, bins.DISTANCE_BINS)
            if by_distance:
                entry["by_distance"] = by_distance
            by_frequency = breakdown(cell, _meta_bin("frequency"), ties, bins.FREQUENCY_BINS)
            if by_frequency:
                entry["by_frequency"] = by_frequency
            if experiment.get("breakdowns"):
                entry["by_meta"] = {key: breakdown(cell, _meta_value(key), ties) for key in experiment["breakdowns"]}
            if game is not None:
                played = played_by_cell.get((john, zellig, claude, seed), [])
                entry["observation_rounds"] = len(played) - len(cell)
                entry["timeline"] = timeline(played, int(game["window"]), float(game["epsilon"]), samples)
            cells.append(entry)
    return {
        "signature": signature,
        "contrastive_ties": ties,
        "cells": cells,
        "over_seeds": _over_seeds(cells),
        "paired": {
            "claudes": _paired_claudes(outcomes_by_cell, claudes, samples),
            "zelligs": _paired_zelligs(outcomes_by_cell, samples),
        },
    }


def _label(spec: Mapping[str, Any]) -> str:
    from arena.specs.spec import PerformerSpec

    return PerformerSpec(spec["name"], spec.get("params") or {}).label


def _over_seeds(cells: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for cell in cells:
        groups[cell["john"], cell["zellig"], cell["claude"]].append(cell)
    result = []
    for (john, zellig, claude), items in groups.items():
        s_values = [c["S"] for c in items if c["S"] is not None]
        entry = {"john": john, "zellig": zellig, "claude": claude, "seeds": len(items)}
        entry["S_mean"], entry["S_std"] = mean_std(s_values)
        accuracies = [c["accuracy"] for c in items if c.get("accuracy") is not None]
        if accuracies:
            entry["accuracy_mean"], entry["accuracy_std"] = mean_std(accuracies)
        result.append(entry)
    return result


def _paired_claudes(outcomes_by_cell, claudes: Sequence[str], samples: int) -> list[dict[str, Any]]:
    """Claudes compared on the same rounds, per John, Zellig and seed."""
    result = []
    cells = sorted({(j, z, s) for (j, z, _, s) in outcomes_by_cell})
    for john, zellig, seed in cells:
        for a, b in itertools.combinations(claudes, 2):
            left = Tally.of(outcomes_by_cell.get((john, zellig, a, seed), []))
            test = left.paired(Tally.of(outcomes_by_cell.get((john, zellig, b, seed), [])), samples)
            if test is not None:
                result.append({"john": john, "zellig": zellig, "seed": seed, "a": a, "b": b, **test})
    return result


def _paired_zelligs(outcomes_by_cell, samples: int) -> list[dict[str, Any]]:
    """Zelligs compared on the instances both apply to (per-instance S, equal weight)."""
    result = []
    groups = sorted({(j, c, s) for (j, _, c, s) in outcomes_by_cell})
    for john, claude, seed in groups:
        zelligs = sorted({z for (j, z, c, s) in outcomes_by_cell if (j, c, s) == (john, claude, seed)})
        for a, b in itertools.combinations(zelligs, 2):
            left = Tally.of(outcomes_by_cell[john, a, claude, seed])
            test = left.paired(Tally.of(outcomes_by_cell[john, b, claude, seed]), samples, equal_weight=True)
            if test is not None:
                result.append({"john": john, "claude": claude, "seed": seed, "a": a, "b": b, **test})
    return result
