"""The cue audit of balanced pairs (issue 25, item 6): what balancing cost in n and how strong
the balanced cue still is.

A run whose John carries ``balance: {cue: length}`` records the pairs it left out
(:mod:`arena.engine.balance`); ``arena cues --balance length`` applies the same balancing to a
test set before auditing it (stratified per set and phenomenon, seeded by ``--seed``).  Either
way each audited table gets a ``balance`` record: pairs before → after, the corrupted side's
length before (longer, shorter, equal), whether balance was possible, and the **residual** —
the balanced cue's out-of-fold accuracy with its 95% interval on the pairs that were kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from arena.codec import dump
from arena.engine.balance import balance_items, length_delta
from arena.specs.spec import BALANCE_CUES
from arena.stats.cue_items import CueInput, CueItem
from arena.stats.cues import TableAudit


def balance_input(data: CueInput, cue: str, seed: int) -> CueInput:
    """``data`` with its items balanced for ``cue`` per (set, phenomenon), and the summaries."""
    if cue not in BALANCE_CUES:
        from arena.errors import UsageError

        raise UsageError(f"--balance {cue!r} is not a cue that can be balanced; choose one of "
                         f"{', '.join(BALANCE_CUES)}", key="--balance")

    def stratum(item: CueItem) -> tuple[str, str]:
        return (item.set, item.phenomenon)

    kept, summaries = balance_items(data.items, cue, stratum, lambda i: length_delta(i.correct, i.corrupted), seed)
    skipped = dict(data.skipped)
    left_out = len(data.items) - len(kept)
    if left_out:
        skipped["balanced out"] = skipped.get("balanced out", 0) + left_out
    by_table = {(str(key[0]), str(key[1])): summary for key, summary in summaries.items() if isinstance(key, tuple)}
    return replace(data, items=kept, skipped=skipped, balance=by_table)


def attach(tables: Sequence[TableAudit], data: CueInput) -> None:
    """Give each audited table its balance record (in place), with the residual strength of the
    balanced cue; also a table every pair of which was balanced out gets none (it is not audited)."""
    for table in tables:
        summary = data.balance.get((table.set, table.phenomenon))
        if summary is None:
            continue
        record: dict[str, Any] = dump(summary)
        score = table.cues.get(summary.cue)
        record["residual"] = dump(score) if score is not None else None
        table.balance = record


def emptied(data: CueInput) -> list[tuple[tuple[str, str], Any]]:
    """The (set, phenomenon) strata a balance left without a pair (nothing to audit there)."""
    audited = {(item.set, item.phenomenon) for item in data.items}
    return [(key, summary) for key, summary in sorted(data.balance.items()) if key not in audited]
