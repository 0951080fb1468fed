"""Text summaries of a run's scores (what ``arena run`` and ``arena score`` print)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.present.tables import fmt, fmt_ci, render, shorten


def cells_table(scores: Mapping[str, Any], width: int = 32) -> str:
    """One row per (John, Zellig, Claude, seed)."""
    rows = []
    for cell in scores.get("cells", []):
        rate = cell.get("generative_rate")
        rows.append(
            [
                shorten(cell["john"], width),
                shorten(cell["zellig"], width),
                shorten(cell["claude"], width),
                cell["seed"],
                cell["rounds"],
                cell["S"],
                fmt_ci(cell.get("S_ci95")),
                cell.get("accuracy"),
                cell.get("discrepancy"),
                rate["rate"] if rate else None,
                cell["yield"]["share"],
            ]
        )
    headers = ["john", "zellig", "claude", "seed", "rounds", "S", "S 95% CI", "acc", "discr", "gen.rate", "yield"]
    return render(headers, rows, align="lllrrrlrrrr")


def seeds_table(scores: Mapping[str, Any], width: int = 32) -> str:
    rows = [
        [
            shorten(e["john"], width), shorten(e["zellig"], width), shorten(e["claude"], width), e["seeds"],
            f"{fmt(e['S_mean'])} ± {fmt(e['S_std'])}",
            f"{fmt(e['accuracy_mean'])} ± {fmt(e['accuracy_std'])}" if "accuracy_mean" in e else "-",
        ]
        for e in scores.get("over_seeds", [])
    ]
    return render(["john", "zellig", "claude", "seeds", "S mean ± std", "acc mean ± std"], rows, align="lllrll")


def phenomena_table(scores: Mapping[str, Any], width: int = 32) -> str:
    rows = []
    for cell in scores.get("cells", []):
        for phenomenon, entry in cell.get("phenomena", {}).items():
            rows.append(
                [shorten(cell["claude"], width), cell["seed"], phenomenon, entry["rounds"], entry["S"],
                 entry.get("accuracy"), entry.get("discrepancy")]
            )
    return render(["claude", "seed", "phenomenon", "rounds", "S", "acc", "discr"], rows, align="lrlrrrr")


def timeline_table(scores: Mapping[str, Any], width: int = 20) -> str:
    """A game's S over rounds: one row per window of every cell (``*``: the window
    belongs to an observation phase and does not count toward S)."""
    rows = []
    for cell in scores.get("cells", []):
        timeline = cell.get("timeline")
        if not timeline:
            continue
        for window in timeline["windows"]:
            rows.append([
                shorten(cell["zellig"], width), shorten(cell["claude"], width), cell["seed"],
                f"{window['first']}–{window['last']}" + ("" if window["counts"] else " *"),
                window["S"], fmt_ci(window.get("S_ci95")),
            ])
    return render(["zellig", "claude", "seed", "rounds", "S", "S 95% CI"], rows, align="llrlrl")


def convergence_lines(scores: Mapping[str, Any], width: int = 24) -> list[str]:
    lines = []
    for cell in scores.get("cells", []):
        settled = (cell.get("timeline") or {}).get("convergence")
        if settled:
            lines.append(
                f"  {shorten(cell['zellig'], width)} / {shorten(cell['claude'], width)} / seed {cell['seed']}: "
                f"within ε={settled['epsilon']} of its final S {fmt(settled['final_S'])} after {settled['rounds']} rounds"
            )
    return lines


def meta_table(scores: Mapping[str, Any], width: int = 32) -> str:
    """S and accuracy by the variant meta keys (and ``john.`` keys of the John's
    metadata) an experiment's ``breakdowns`` names."""
    rows = []
    for cell in scores.get("cells", []):
        for key, buckets in cell.get("by_meta", {}).items():
            for value, entry in buckets.items():
                rows.append([shorten(cell["claude"], width), cell["seed"], f"{key}={value}", entry["rounds"],
                             entry["S"], entry.get("accuracy")])
    return render(["claude", "seed", "bucket", "rounds", "S", "acc"], rows, align="lrlrrr")


def format_scores(scores: Mapping[str, Any]) -> str:
    parts = [cells_table(scores)]
    if any(e["seeds"] > 1 for e in scores.get("over_seeds", [])):
        parts += ["", "over seeds:", seeds_table(scores)]
    phenomena = {p for c in scores.get("cells", []) for p in c.get("phenomena", {})}
    if len(phenomena) > 1:
        parts += ["", "per phenomenon:", phenomena_table(scores)]
    if any(cell.get("by_meta") for cell in scores.get("cells", [])):
        parts += ["", "by metadata:", meta_table(scores)]
    if any(cell.get("timeline") for cell in scores.get("cells", [])):
        parts += ["", "S over rounds (a game; * = observation phase, not counted in S):", timeline_table(scores)]
        parts += ["", "convergence:", *convergence_lines(scores)]
    parts += ["", f"contrastive ties count as: {scores.get('contrastive_ties')}", f"signature: {scores.get('signature')}"]
    for role, entries in scores.get("signatures", {}).items():
        for label, signature in entries.items():
            parts.append(f"  {role[:-1]} {label} = {signature}" if label != signature.split("@")[0] else f"  {role[:-1]} {signature}")
    return "\n".join(parts)
