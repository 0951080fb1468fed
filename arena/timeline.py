"""S over time (Smith 2012, §7): the rounds of a game cut into windows, and how fast S
settles.

A cell's played rounds (seed, John, Zellig, Claude), in the order they were played,
are cut into windows of ``window`` rounds (the last may be shorter).  Each window
records its first and last round (1-based, counted over the cell's played rounds,
observation phases included), its phases, whether all of them count toward S, S and
its 95% bootstrap CI (resampling instances, like S itself).

**Convergence**: with ``S_final`` the S of the last window, the number of rounds
until S stays within ``epsilon`` of it: the last round of the window just before the
first window from which every later window is within ε (0 when all are).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from arena.stats import bootstrap_ci


def windows(
    outcomes: Sequence[tuple[str, float, int | None, bool]], window: int, samples: int = 1000
) -> list[dict[str, Any]]:
    """``outcomes`` are ``(instance id, correct, phase, counts)`` in play order."""
    result = []
    for start in range(0, len(outcomes), window):
        chunk = outcomes[start : start + window]
        sums: dict[str, float] = defaultdict(float)
        counts: dict[str, int] = defaultdict(int)
        for instance, correct, _, _ in chunk:
            sums[instance] += correct
            counts[instance] += 1
        keys = list(sums)
        s_sums = np.array([sums[k] for k in keys])
        s_counts = np.array([counts[k] for k in keys])
        result.append({
            "first": start + 1,
            "last": start + len(chunk),
            "rounds": len(chunk),
            "phases": sorted({phase for _, _, phase, _ in chunk if phase is not None}),
            "counts": all(counted for _, _, _, counted in chunk),
            "S": float(s_sums.sum() / len(chunk)),
            "S_ci95": bootstrap_ci(s_sums, s_counts, samples),
        })
    return result


def convergence(windows: Sequence[dict[str, Any]], epsilon: float) -> dict[str, Any] | None:
    """Rounds until S stays within ``epsilon`` of the last window's S."""
    if not windows:
        return None
    final = windows[-1]["S"]
    settled = len(windows) - 1
    while settled > 0 and abs(windows[settled - 1]["S"] - final) <= epsilon:
        settled -= 1
    return {
        "epsilon": epsilon,
        "final_S": final,
        "rounds": windows[settled - 1]["last"] if settled else 0,
        "window": settled,
    }


def timeline(
    outcomes: Sequence[tuple[str, float, int | None, bool]], window: int, epsilon: float, samples: int = 1000
) -> dict[str, Any]:
    """The ``timeline`` entry of a cell in ``scores.json``."""
    cut = windows(outcomes, window, samples)
    return {"window": window, "windows": cut, "convergence": convergence(cut, epsilon)}
