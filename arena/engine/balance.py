"""A John's ``balance:`` (issue 25, item 6): subsample the pairs so that a surface cue sits at chance.

Any John may carry it (it is part of the performer spec, not of a John's params)::

    johns:
      - name: distil-lingeval
        params: {dir: ../shared/data/distil-lingeval/placeholder_ding.human}
        balance: {cue: length}

The only cue that can be balanced by subsampling is ``length``, as the ``length`` Claude sees it:
the difference in characters and in tokens (words and punctuation marks) of the corrupted candidate
minus the correct one.  A pair's *direction* is the sign of the character difference (of the token
difference where characters tie); its *stratum* is the difference seen from that direction, binned
(:data:`BINS`: 1, 2, 3–4, 5–8, 9–16, 17–32, more; tokens signed), so a pair and its mirror image
share a stratum.  Within one (seed, John, Zellig) stream and phenomenon, in each stratum the larger
side (corrupted longer, corrupted shorter) is subsampled to the size of the smaller by a seeded draw
(``random.Random(f"{seed}/{john}/{zellig}/{phenomenon}/{stratum}/balance")``); pairs of equal length
in both are all kept.  So the distribution of the (character, token) difference is (nearly) the same
whichever side is corrupted, and a Claude that sees only lengths cannot beat chance by much.  What
it still gets is measured, not assumed: the cue audit (``arena cues``, the report's *Surface cues*
section) runs the ``length`` Claude out of fold on the balanced pairs and reports its residual
accuracy beside the cost in n.

``edit-words`` cannot be balanced by subsampling (the edit's own words are the phenomenon: every
*Ding* pair has *Ding* on the corrupted side) and ``target-lm`` is a scoring Claude the planner does
not run; both are refused with the list of cues that can be balanced.

A stratum whose non-equal pairs all lie on one side (clause omission, *un-*, *kein*, *nicht*
deletion: the corrupted side is always shorter) **cannot be balanced**: what a researcher asking for
balance expects is that no pair the cue separates is scored, so only its equal-length pairs are kept
(usually none), the rest are recorded with status ``balanced_out`` and the summary says that the
phenomenon cannot be balanced for the cue.  Other strata keep what they can.  Left-out pairs stay in
``rounds.jsonl`` (status ``balanced_out``, not judged), so the cost in n is derived from the
transcripts like every other figure (:func:`summaries`).  A game (a ``schedule``, or a learning
Claude such as ``length``) plans block by block: there each block is balanced by itself, and the
rounds a balance leaves out are neither judged, nor counted toward the schedule, nor observed.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import computed_field

from arena.record.rounds import STATUS_BALANCED_OUT, STATUS_OK, Round
from arena.specs.spec import BALANCE_CUES  # noqa: F401  (re-exported: the cues that can be balanced)

T = TypeVar("T")
# lower edges of the |difference| bins; 0 (equal length) is never subsampled
BINS = (1, 2, 3, 5, 9, 17, 33)
# words and punctuation marks, as the ``length`` Claude counts tokens (performers/claude/kneser_ney.py)
TOKEN = re.compile(r"\w+|[^\w\s]")


def length_delta(correct: str, corrupted: str) -> tuple[int, int]:
    """Characters and tokens of the corrupted candidate minus those of the correct one."""
    return len(corrupted) - len(correct), len(TOKEN.findall(corrupted)) - len(TOKEN.findall(correct))


def bin_of(delta: int) -> str:
    """The label of the ``|delta|`` bin of a length difference (``0`` for equal lengths)."""
    size = abs(delta)
    if size == 0:
        return "0"
    for low, high in zip(BINS, (*BINS[1:], None)):
        if high is None or size < high:
            return f"{low}+" if high is None else (str(low) if high == low + 1 else f"{low}-{high - 1}")
    raise AssertionError("unreachable")


def _direction(delta: tuple[int, int]) -> int:
    """+1 when the corrupted side is longer (in characters; in tokens where characters tie), -1
    when shorter, 0 when both are equal."""
    characters, tokens = delta
    lead = characters or tokens
    return (lead > 0) - (lead < 0)


def _stratum(delta: tuple[int, int], direction: int) -> tuple[str, str]:
    """The bin of a difference seen from its own direction: a pair and its mirror image (every
    difference negated) share a stratum and have opposite directions."""
    characters, tokens = delta[0] * direction, delta[1] * direction
    return bin_of(characters), ("-" if tokens < 0 else "") + bin_of(tokens)


def keep_balanced(deltas: Sequence[tuple[int, int]], key: str) -> list[bool]:
    """Which pairs to keep so that, within every stratum of (character, token) difference, as many
    corrupted candidates are longer as shorter; the larger side is subsampled by a draw seeded with
    ``key`` and the stratum; pairs of equal length are all kept."""
    keep = [_direction(delta) == 0 for delta in deltas]
    sides: dict[tuple[str, str], tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for index, delta in enumerate(deltas):
        direction = _direction(delta)
        if direction:
            sides[_stratum(delta, direction)][direction < 0].append(index)
    for name, (longer, shorter) in sorted(sides.items()):
        size = min(len(longer), len(shorter))
        rng = random.Random(f"{key}/{name[0]}/{name[1]}/balance")
        for side in (longer, shorter):
            for index in rng.sample(side, size):
                keep[index] = True
    return keep


@dataclass(frozen=True)
class BalanceSummary:
    """What balancing did to one stratum: pairs before and after, and the corrupted side's length
    before (``longer``, ``shorter``, ``equal``).  Written (:mod:`arena.codec`) with ``balanced``
    and ``note``."""

    cue: str
    before: int
    after: int
    longer: int
    shorter: int
    equal: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def balanced(self) -> bool:
        """Whether both directions were there to balance (else only equal-length pairs remain)."""
        return not (self.longer or self.shorter) or bool(self.longer and self.shorter)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def note(self) -> str:
        """A plain sentence on what balancing cost, or why it was impossible."""
        if self.balanced:
            return f"balanced for {self.cue}: {self.before} → {self.after} pairs"
        side = "longer" if self.longer else "shorter"
        return (f"cannot be balanced for {self.cue}: the corrupted candidate is always {side} or equal; "
                f"kept the {self.equal} pair(s) of equal length ({self.before} → {self.after})")


def summarize(cue: str, deltas: Sequence[tuple[int, int]], keep: Sequence[bool]) -> BalanceSummary:
    """The summary of one stratum from its deltas and what was kept."""
    directions = [_direction(delta) for delta in deltas]
    return BalanceSummary(cue, len(deltas), sum(keep), directions.count(1), directions.count(-1), directions.count(0))


def balance_items(items: Sequence[T], cue: str, stratum: Callable[[T], Hashable], delta: Callable[[T], tuple[int, int]],
                  seed: int | str) -> tuple[list[T], dict[Hashable, BalanceSummary]]:
    """The items kept (in their order) and a summary per stratum; a stratum's draw is seeded by
    ``seed`` and the stratum, so strata do not reshuffle each other."""
    groups: dict[Hashable, list[int]] = defaultdict(list)
    for index, item in enumerate(items):
        groups[stratum(item)].append(index)
    kept: set[int] = set()
    result = {}
    for name, indices in groups.items():
        deltas = [delta(items[i]) for i in indices]
        key = "/".join(str(part) for part in (name if isinstance(name, tuple) else (name,)))
        flags = keep_balanced(deltas, f"{seed}/{key}")
        kept.update(i for i, flag in zip(indices, flags) if flag)
        result[name] = summarize(cue, deltas, flags)
    return [item for index, item in enumerate(items) if index in kept], result


def _round_delta(r: Round) -> tuple[int, int]:
    assert r.variant is not None
    return length_delta(r.instance.reference, r.variant.text)


def _phenomenon(r: Round) -> str:
    return r.variant.phenomenon if r.variant is not None else r.zellig


def balance_rounds(rounds: Sequence[Round], balance: Mapping[str, Any]) -> list[Round]:
    """One (seed, John, Zellig) stream's rounds with the pairs the balance leaves out marked
    ``balanced_out`` (their order and ids unchanged); other statuses are left as they are."""
    pairs = [r for r in rounds if r.status == STATUS_OK and r.variant is not None]
    if not pairs:
        return list(rounds)
    first = pairs[0]
    kept, _ = balance_items(pairs, str(balance["cue"]), _phenomenon, _round_delta, f"{first.seed}/{first.john}/{first.zellig}")
    keep = {r.id for r in kept}
    return [dataclasses.replace(r, status=STATUS_BALANCED_OUT)
            if r.status == STATUS_OK and r.variant is not None and r.id not in keep else r for r in rounds]


def summaries(rounds: Iterable[Round], balances: Mapping[str, Mapping[str, Any]],
              key: Callable[[Round], tuple[str, str]] | None = None) -> dict[tuple[str, str], BalanceSummary]:
    """Per table (``key`` of a round; default its Zellig and phenomenon), pooled over seeds: the
    balance's cost in n, from the transcripts (``ok`` and ``balanced_out`` rounds).  ``balances``:
    John label → its ``balance:``; rounds of other Johns are not counted."""
    deltas: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    keep: dict[tuple[str, str], list[bool]] = defaultdict(list)
    cues: dict[tuple[str, str], str] = {}
    for r in rounds:
        if r.john not in balances or r.variant is None or r.status not in (STATUS_OK, STATUS_BALANCED_OUT):
            continue
        if not r.counts:
            continue
        table = key(r) if key is not None else (r.zellig, _phenomenon(r))
        deltas[table].append(_round_delta(r))
        keep[table].append(r.status == STATUS_OK)
        cues[table] = str(balances[r.john].get("cue"))
    return {table: summarize(cues[table], deltas[table], keep[table]) for table in deltas}
