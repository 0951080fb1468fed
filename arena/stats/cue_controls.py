"""Controlled figures of a run beside its cue audit: each Claude's S and contrastive accuracy
on the *cue-hard* subset (the pairs the reference cue — the strongest nuisance cue, else the strongest
— gets wrong or ties; biased against a
Claude that follows the cue — the neutral control is a balanced John, and the unbiased figure is
S net of cues, :mod:`arena.stats.cue_strata`) and by bins of length difference (characters of
the corrupted candidate minus the correct one), each with its n.  Where the cue-hard subset is
empty the phenomenon cannot be separated from the cue with these pairs, and the figures say so
instead of a number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.stats.cue_items import CueInput, CueItem
from arena.stats.cues import TableAudit

LENGTH_BINS = ("< -10", "-10..-1", "0", "1..10", "> 10")
INSEPARABLE = "cannot be separated from the cue with these pairs (no cue-hard pair)"


def length_bin(item: CueItem) -> str:
    """The bin of ``len(corrupted) - len(correct)`` in characters."""
    delta = len(item.corrupted) - len(item.correct)
    if delta < -10:
        return LENGTH_BINS[0]
    if delta < 0:
        return LENGTH_BINS[1]
    if delta == 0:
        return LENGTH_BINS[2]
    return LENGTH_BINS[3] if delta <= 10 else LENGTH_BINS[4]


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _figure(items: Sequence[CueItem], values: Mapping[str, float]) -> dict[str, Any]:
    known = [values[item.id] for item in items if item.id in values]
    return {"n": len(known), "value": _mean(known)}


def controlled(table: TableAudit, data: CueInput) -> dict[str, Any]:
    """Per Claude of the run: S and contrastive accuracy on all pairs, on the cue-hard subset,
    and S per length-difference bin; ``note`` says when the subset is empty."""
    hard = [table.items[i] for i in table.hard()]
    bins = {name: [item for item in table.items if length_bin(item) == name] for name in LENGTH_BINS}
    rows = []
    for label in sorted(data.claudes):
        correct = data.claudes[label]
        if not any(item.id in correct for item in table.items):
            continue
        contrastive = data.contrastive.get(label, {})
        rows.append({
            "claude": label,
            "all": {"s": _figure(table.items, correct), "accuracy": _figure(table.items, contrastive)},
            "hard": {"s": _figure(hard, correct), "accuracy": _figure(hard, contrastive)},
            "bins": {name: _figure(members, correct) for name, members in bins.items()},
        })
    cue = table.cues.get(table.reference) if table.reference else None
    hits = {item.id: hit for item, hit in zip(table.items, cue.hits)} if cue else {}
    return {
        "set": table.set,
        "phenomenon": table.phenomenon,
        "strongest": table.strongest,
        "reference": table.reference,
        "hard_n": len(hard),
        "bin_n": {name: len(members) for name, members in bins.items()},
        "cue_bins": {name: _mean([hits[m.id] for m in members if m.id in hits]) for name, members in bins.items()},
        "claudes": rows,
        "note": INSEPARABLE if table.reference and not hard else "",
    }
