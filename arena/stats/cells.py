"""What a run's scores share however they are computed (:mod:`arena.stats.streamed` from columns,
the in-memory reference of ``tests/arena/stats/oracle.py`` from records): the breakdown keys of an
outcome, a Claude's label, mean ± std over seeds, and the paired tests between Claudes and
between Zelligs from each cell's S tally."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.stats import registry
from arena.stats.aggregate import Outcome, Tally, mean_std
from arena.stats.results import Bootstrap, Cell, ClaudePair, OverSeeds, ZelligPair

JOHN_META_PREFIX = "john."  # breakdowns by the John's instance metadata m_n


def phenomenon_key(outcome: Outcome) -> str | None:
    return outcome.round.variant.phenomenon if outcome.round.variant is not None else None


def meta_bin_key(field: str) -> Callable[[Outcome], str | None]:
    from arena.stats import bins

    binner = bins.distance_bin if field == "distance" else bins.frequency_bin

    def key(outcome: Outcome) -> str | None:
        variant = outcome.round.variant
        if variant is None or variant.meta.get(field) is None:
            return None
        return binner(variant.meta[field])

    return key


def meta_value_key(field: str) -> Callable[[Outcome], str | None]:
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


def claude_label(spec: Mapping[str, Any]) -> str:
    from arena.specs.spec import PerformerSpec

    return PerformerSpec(spec["name"], spec.get("params") or {}).label


def over_seeds(cells: Sequence[Cell]) -> tuple[OverSeeds, ...]:
    groups: dict[tuple[str, str, str], list[Cell]] = defaultdict(list)
    for cell in cells:
        groups[cell.john, cell.zellig, cell.claude].append(cell)
    result = []
    for (john, zellig, claude), items in groups.items():
        judged = [c.summary.S for c in items if c.summary.S is not None]
        s_mean, s_std = mean_std(judged) if judged else (None, None)
        means = registry.over_seeds([c.summary.metrics for c in items])
        result.append(OverSeeds(john, zellig, claude, len(items), s_mean, s_std, means))
    return tuple(result)


def _bootstrap(test: Mapping[str, Any]) -> Bootstrap:
    return Bootstrap(test["delta"], test["low"], test["high"], test["p_value"], test["n"])


def paired_claudes(tallies: Mapping[tuple[str, str, str, int], Tally], claudes: Sequence[str],
                    samples: int) -> tuple[ClaudePair, ...]:
    """Claudes compared on the same rounds, per John, Zellig and seed (``tallies``: S's
    tally of each cell that has counted rounds)."""
    result = []
    empty = Tally.of([])
    cells = sorted({(j, z, s) for (j, z, _, s) in tallies})
    for john, zellig, seed in cells:
        for a, b in itertools.combinations(claudes, 2):
            left = tallies.get((john, zellig, a, seed), empty)
            test = left.paired(tallies.get((john, zellig, b, seed), empty), samples)
            if test is not None:
                result.append(ClaudePair(john, zellig, seed, a, b, _bootstrap(test)))
    return tuple(result)


def paired_zelligs(tallies: Mapping[tuple[str, str, str, int], Tally], samples: int) -> tuple[ZelligPair, ...]:
    """Zelligs compared on the instances both apply to (per-instance S, equal weight)."""
    result = []
    groups = sorted({(j, c, s) for (j, _, c, s) in tallies})
    for john, claude, seed in groups:
        zelligs = sorted({z for (j, z, c, s) in tallies if (j, c, s) == (john, claude, seed)})
        for a, b in itertools.combinations(zelligs, 2):
            test = tallies[john, a, claude, seed].paired(tallies[john, b, claude, seed], samples, equal_weight=True)
            if test is not None:
                result.append(ZelligPair(john, claude, seed, a, b, _bootstrap(test)))
    return tuple(result)
