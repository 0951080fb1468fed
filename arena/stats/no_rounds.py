"""No finished run without rounds: a run whose scores hold no judged round (its Johns gave no
instance, its Zelligs applied to none, a John's ``balance:`` kept none) is refused with the
reason (which John, which Zellig or filter, how many were dropped) before ``scores.json``
marks it finished, unless the config asks for it (``allow_empty: true``)."""

from __future__ import annotations

from arena.errors import DataError
from arena.specs.config import Experiment
from arena.stats.results import Cell, Scores


def check_judged(experiment: Experiment, scores: Scores) -> None:
    """A :class:`DataError` saying why ``scores`` hold no judged round, unless some cell has
    one or ``experiment.allow_empty``."""
    if experiment.allow_empty or any(cell.summary.rounds for cell in scores.cells):
        return
    raise DataError(f"no round was judged: {'; '.join(reasons(experiment, scores.cells))}; the run is not marked "
                    "finished", file=experiment.source or None, key="allow_empty",
                    hint="give other Johns or Zelligs, or set allow_empty: true to record a run without rounds")


def reasons(experiment: Experiment, cells: tuple[Cell, ...]) -> list[str]:
    """Per John and Zellig, what left no round."""
    seen: dict[tuple[str, str], Cell] = {}
    for cell in cells:
        seen.setdefault((cell.john, cell.zellig), cell)
    found: list[str] = []
    for john in experiment.johns:
        pairs = {zellig: cell for (name, zellig), cell in seen.items() if name == john.label}
        if not pairs:
            found.append(f"John {john.label} gave no instance")
            continue
        for zellig, cell in pairs.items():
            instances, applicable = cell.yield_.instances, cell.yield_.applicable
            if not applicable:
                found.append(f"Zellig {zellig} applied to none of John {john.label}'s {instances} instances "
                             f"({instances} dropped)")
            elif john.balance:
                found.append(f"John {john.label}'s balance: {john.balance.get('cue')} left out all {applicable} "
                             f"pairs Zellig {zellig} made")
            else:
                found.append(f"John {john.label} × Zellig {zellig}: {applicable} pairs, none judged")
    return found
