"""The adequacy−fluency gap per phenomenon (Smith 2012, §4.3), from a run's typed scores.

A run that has a *fluency* Claude (``sees: {source: false}``: it judges the candidates
without the English source, e.g. ``target-lm``) and an *adequacy* Claude (one that sees
the source) says, per Zellig, how much of a phenomenon needs the source: the gap
``S(adequacy) − S(fluency)`` over the same rounds.  A gap near zero means a German
reader finds the corruption without the source (np-agreement on the toy model); a
large gap means the source is needed (*Ding* for a noun).

The paired test is the run's own (``scores.json`` → ``paired.claudes``, a paired
bootstrap over the same rounds, :mod:`arena.stats.metrics`); here it is only oriented
as adequacy − fluency.  ``experiments/game/gap.py`` prints the same per Zellig for any
two Claudes.  Nothing is computed from the transcripts here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.stats.results import Scores


@dataclass(frozen=True)
class GapRow:
    """One (John, Zellig, seed) with one adequacy and one fluency Claude."""

    john: str
    zellig: str
    phenomena: tuple[str, ...]
    seed: int
    adequacy: str
    fluency: str
    rounds: int
    S_adequacy: float | None
    S_fluency: float | None
    gap: float
    low: float
    high: float
    p_value: float


def claude_views(claudes: Sequence[Mapping[str, Any]]) -> dict[str, bool]:
    """Each Claude's label (its alias, else its spec label) → whether it sees the source."""
    from arena.specs.spec import PerformerSpec

    views = {}
    for spec in claudes:
        label = spec.get("alias") or PerformerSpec(spec["name"], spec.get("params") or {}).label
        views[label] = bool({"source": True, **(spec.get("sees") or {})}["source"])
    return views


def gap_rows(experiment: Mapping[str, Any], scores: Scores) -> list[GapRow]:
    """Every paired test in ``scores`` between an adequacy and a fluency Claude of the
    run, as adequacy − fluency; none when the run has no fluency Claude."""
    views = claude_views(experiment.get("claudes") or [])
    if all(views.values()):
        return []
    cells = {(c.john, c.zellig, c.claude, c.seed): c for c in scores.cells}
    rows = []
    for pair in scores.paired.claudes:
        if pair.a not in views or pair.b not in views or views[pair.a] == views[pair.b]:
            continue
        adequacy, fluency = (pair.a, pair.b) if views[pair.a] else (pair.b, pair.a)
        sign = 1.0 if adequacy == pair.a else -1.0
        t = pair.test
        low, high = (t.low, t.high) if sign > 0 else (-t.high, -t.low)
        cell_a = cells.get((pair.john, pair.zellig, adequacy, pair.seed))
        cell_f = cells.get((pair.john, pair.zellig, fluency, pair.seed))
        rows.append(GapRow(
            pair.john, pair.zellig, tuple(cell_a.phenomena) if cell_a else (), pair.seed, adequacy, fluency, t.n,
            cell_a.summary.S if cell_a else None, cell_f.summary.S if cell_f else None,
            sign * t.delta, low, high, t.p_value,
        ))
    return rows
