"""S over time (Smith 2012, §7): the rounds of a game cut into windows, and how fast S
settles.

A cell's played rounds (seed, John, Zellig, Claude), in the order they were played,
are cut into windows of ``window`` rounds (the last may be shorter).  Each window
records its first and last round (1-based, counted over the cell's played rounds,
observation phases included), its phases, whether all of them count toward S, S and
its 95% bootstrap CI (from the aggregation core: resampling instances, like S itself).

**Convergence**: with ``S_final`` the S of the last window, the number of rounds
until S stays within ``epsilon`` of it: the last round of the window just before the
first window from which every later window is within ε (0 when all are).
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.stats.aggregate import Outcome, Tally
from arena.stats.results import Convergence, Timeline, Window


def windows(outcomes: Sequence[Outcome], window: int, samples: int = 1000) -> list[Window]:
    """``outcomes``: one cell's played rounds in play order."""
    result = []
    for start in range(0, len(outcomes), window):
        chunk = outcomes[start : start + window]
        tally = Tally.of(chunk)
        result.append(Window(
            first=start + 1,
            last=start + len(chunk),
            rounds=len(chunk),
            phases=tuple(sorted({o.round.phase for o in chunk if o.round.phase is not None})),
            counts=all(o.round.counts for o in chunk),
            S=tally.rate(),
            S_ci95=tally.ci(samples),
        ))
    return result


def convergence(windows: Sequence[Window], epsilon: float) -> Convergence | None:
    """Rounds until S stays within ``epsilon`` of the last window's S."""
    if not windows:
        return None
    final = windows[-1].S
    settled = len(windows) - 1
    while settled > 0 and _within(windows[settled - 1].S, final, epsilon):
        settled -= 1
    return Convergence(epsilon=epsilon, final_S=final, rounds=windows[settled - 1].last if settled else 0,
                       window=settled)


def _within(s: float | None, final: float | None, epsilon: float) -> bool:
    """Whether a window's S is within ``epsilon`` of the final S (never for a window the Claude judged none of)."""
    return s is not None and final is not None and abs(s - final) <= epsilon


def timeline(outcomes: Sequence[Outcome], window: int, epsilon: float, samples: int = 1000) -> Timeline:
    """The ``timeline`` of a cell in ``scores.json``."""
    cut = windows(outcomes, window, samples)
    return Timeline(window=window, windows=tuple(cut), convergence=convergence(cut, epsilon))
