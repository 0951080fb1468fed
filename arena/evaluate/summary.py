"""The summary ``arena evaluate`` prints beside the reference tools' output: per category
the number of pairs, how many the model got right, accuracy with a 95% Wilson interval,
and ties; as a text table or as JSON (``--json``).

Pairs are counted as the reference tool counts them (DistilLingEval: ties right;
LingEval97: ties wrong), so the accuracies equal the tool's.  The interval treats pairs as
independent draws (Wilson 1927); pairs that share a source are not independent, so it is
somewhat narrow for sets with several contrastives per sentence.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from arena.stats.aggregate import wilson_ci

TOTAL = "total"


def summary_rows(tallies: Mapping[str, tuple[int, int]], ties: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """One row per category (``name -> (correct, total)``), then the total over all of them."""
    rows = []
    for name, (correct, total) in [*tallies.items(), (TOTAL, (sum(c for c, _ in tallies.values()),
                                                               sum(t for _, t in tallies.values())))]:
        if name == TOTAL and len(tallies) == 1:
            continue
        interval = wilson_ci(correct, total)
        rows.append({
            "category": name, "n": total, "correct": correct, "accuracy": correct / total if total else None,
            "ci95": list(interval) if interval is not None else None,
            "ties": (ties or {}).get(name, sum((ties or {}).values()) if name == TOTAL else None),
        })
    return rows


def table_text(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as an aligned text table (accuracy and CI in percent)."""
    width = max([len(str(r["category"])) for r in rows] + [8])
    lines = [f"{'category':<{width}}  {'n':>6}  {'correct':>7}  {'accuracy':>8}  {'95% CI':>13}  {'ties':>5}"]
    for row in rows:
        accuracy = "-" if row["accuracy"] is None else f"{100 * row['accuracy']:.1f}"
        interval = "-" if row["ci95"] is None else f"{100 * row['ci95'][0]:.1f}–{100 * row['ci95'][1]:.1f}"
        ties = "" if row["ties"] is None else str(row["ties"])
        small = "  (n < 30)" if row["n"] < 30 else ""
        lines.append(f"{row['category']:<{width}}  {row['n']:>6}  {row['correct']:>7}  {accuracy:>8}  {interval:>13}  "
                     f"{ties:>5}{small}")
    return "\n".join(lines) + "\n"


def json_text(rows: Sequence[Mapping[str, Any]], **context: Any) -> str:
    """The rows and the evaluation's context (format, test set, tie rule) as JSON."""
    return json.dumps({**context, "categories": list(rows)}, ensure_ascii=False, indent=2) + "\n"
