"""Presentation of the surface-cue audit (:mod:`arena.stats.cues`): the console table of ``arena
cues`` and the *Surface cues* section of a run's report (with its controlled figures, from
:mod:`arena.stats.cue_controls`), and the marking of Zelligs with strong cues (by kind) in the leaderboards.

The report section is computed from the run's transcripts when the report is written; the
surface Claudes themselves come from the caller (the CLI hands over the catalog's), so this
module imports no performer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.present.tables import fmt, fmt_ci, render
from arena.stats import cue_kinds
from arena.stats.cue_controls import LENGTH_BINS
from arena.stats.cues import TableAudit

logger = logging.getLogger(__name__)


def fmt_p(p: float | None) -> str:
    """A p-value as the docs write it: ``< 0.001`` rather than ``0.000``."""
    return "< 0.001" if p is not None and p < 0.001 else fmt(p)


def _table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], note: str = "") -> dict[str, Any]:
    align = "".join("r" if h in ("n", "S", "accuracy") or h.startswith(("S ", "n ")) else "l" for h in headers)
    # (S net of cues may read as its reason, so it is right-aligned only as a number column would be)
    return {"title": title, "note": note, "headers": list(headers), "rows": [list(r) for r in rows], "align": align}


def cue_cell(table: TableAudit, name: str) -> str:
    score = table.cues[name]
    if score.unfittable:
        return f"unfittable: {score.unfittable}"
    return f"{fmt(score.accuracy)} {fmt_ci(score.ci)}"


def verdict_words(table: TableAudit) -> str:
    """The table's verdict in the one vocabulary: ``too few pairs (n = …)``, or the kinds of its
    strong cues (a strong nuisance cue reads ``confounded``), or ``-``."""
    if not table.enough:
        return cue_kinds.too_few(table.n)
    words = ["confounded" if kind == cue_kinds.NUISANCE else kind for kind in table.kinds]
    return ", ".join(words) or "-"


def strong_cells(table: TableAudit) -> str:
    """The strong cues with their kinds, e.g. ``length (nuisance), edit-words (edit-identity)``."""
    return ", ".join(f"{c} ({cue_kinds.kind_of(c) or '?'})" for c in table.strong) or "-"


def audit_rows(tables: Sequence[TableAudit]) -> tuple[list[str], list[list[str]]]:
    """One row per table: set, phenomenon, n, each cue's accuracy [95% CI], strongest, the strong
    cues with their kinds, verdict."""
    names = list(dict.fromkeys(name for t in tables for name in t.cues))
    headers = ["set", "phenomenon", "n", *names, "strongest", "strong cues (kind)", "verdict"]
    rows = [[t.set, t.phenomenon, str(t.n), *[cue_cell(t, name) if name in t.cues else "-" for name in names],
             t.strongest or "-", strong_cells(t), verdict_words(t)] for t in tables]
    return headers, rows


def legend(tables: Sequence[TableAudit]) -> list[str]:
    """One line per kind that some table shows (what it means), and the strength rule."""
    shown = cue_kinds.kinds_of(c for t in tables for c in t.strong)
    lines = [f"{kind}: {cue_kinds.MEANINGS[kind]}" for kind in shown]
    lines.append(f"strong: the cue's out-of-fold accuracy has its 95% interval wholly above {cue_kinds.HIGH} or "
                 f"wholly below {cue_kinds.LOW} (reversed); no verdict below {cue_kinds.MIN_PAIRS} pairs")
    return lines


BALANCE_HEADERS = ["set", "phenomenon", "cue", "n before", "n after", "corrupted longer/shorter/equal before",
                   "residual cue accuracy [95% CI]", "balance"]


def balance_rows(tables: Sequence[TableAudit], emptied: Sequence[tuple[tuple[str, str], Any]] = ()) -> list[list[str]]:
    """One row per balanced table (and per stratum the balance left without a pair): the cost in n
    and the balanced cue's residual out-of-fold accuracy on the pairs kept."""
    rows = []
    for t in tables:
        if t.balance is None:
            continue
        b, residual = t.balance, t.balance.get("residual") or {}
        strength = (f"unfittable: {residual['unfittable']}" if residual.get("unfittable")
                    else f"{fmt(residual.get('accuracy'))} {fmt_ci(residual.get('ci'))}")
        rows.append([t.set, t.phenomenon, b["cue"], str(b["before"]), str(b["after"]),
                     f"{b['longer']}/{b['shorter']}/{b['equal']}", strength,
                     "balanced" if b["balanced"] else "cannot be balanced"])
    for (set_name, phenomenon), summary in emptied:
        rows.append([set_name, phenomenon, summary.cue, str(summary.before), str(summary.after),
                     f"{summary.longer}/{summary.shorter}/{summary.equal}", "- (no pair left)",
                     "balanced" if summary.balanced else "cannot be balanced"])
    return rows


def console(tables: Sequence[TableAudit], skipped: Mapping[str, int] | None = None,
            emptied: Sequence[tuple[tuple[str, str], Any]] = ()) -> str:
    """The text ``arena cues`` prints (with the balance table when the pairs were balanced)."""
    headers, rows = audit_rows(tables)
    lines = [render(headers, rows)]
    balanced = balance_rows(tables, emptied)
    if balanced:
        lines += ["", "balance (pairs subsampled so that the cue sits at chance; residual: out of fold on the "
                  "pairs kept):", render(BALANCE_HEADERS, balanced)]
        lines += [f"{key[0]} / {key[1]}: {summary.note}" for key, summary in emptied]
        lines += [f"{t.set} / {t.phenomenon}: {t.balance['note']}" for t in tables
                  if t.balance is not None and not t.balance["balanced"]]
    for t in tables:
        if t.confounded or not t.enough:
            lines.append(f"{t.set} / {t.phenomenon}: {verdict_words(t)} — {t.reason}")
        for c in t.comparisons:
            h = c["hard"]
            lines.append(f"{t.set} / {t.phenomenon}: {c['claude']} S {fmt(c['s'])} vs {c['cue']} {fmt(c['cue_accuracy'])}"
                         f" (n {c['n']}, {c['wins']} wins, {c['losses']} losses, sign test p {fmt_p(c['p'])}); "
                         f"on the {h['n']} cue-hard pairs S {fmt(h['s'])} vs {fmt(h['cue_accuracy'])} "
                         f"({h['wins']} wins, {h['losses']} losses, p {fmt_p(h['p'])})")
    if skipped:
        lines.append("left out: " + ", ".join(f"{count} {why}" for why, count in sorted(skipped.items())))
    lines.append("accuracy: out of fold (folds grouped by instance), ties settled by a seeded coin; 95% Wilson intervals")
    lines += legend(tables)
    return "\n".join(lines)


def sentence(table: TableAudit, controls: Mapping[str, Any]) -> str | None:
    """A plain sentence where the cue explains the result (or cannot be separated from it)."""
    nuisance = table.reference is not None and cue_kinds.kind_of(table.reference) == cue_kinds.NUISANCE
    if controls.get("note") and nuisance and table.confounded:
        return (f"{table.set} / {table.phenomenon}: {table.reference} ({cue_kinds.NUISANCE}) solves every pair it "
                f"decides, so this phenomenon {controls['note']}: S net of cues is undefined and the Claudes' S "
                "mixes skill with the cue; only pairs balanced for the cue can separate them.")
    if not table.enough:
        return f"{table.set} / {table.phenomenon}: {cue_kinds.too_few(table.n)}, no cue verdict."
    said = []
    for kind in table.kinds:
        cues = [c for c in table.strong if cue_kinds.kind_of(c) == kind]
        said.append(f"{', '.join(cues)} is strong — {kind}: {cue_kinds.MEANINGS[kind]}")
    if not said:
        return None
    hard = (f" S on the {controls['hard_n']} cue-hard pairs is biased against a Claude that follows the cue."
            if nuisance and controls.get("hard_n") else "")
    return f"{table.set} / {table.phenomenon}: " + "; ".join(said) + "." + hard


def _s(items: Sequence[Any], correct: Mapping[str, float]) -> str:
    known = [correct[i.id] for i in items if i.id in correct]
    return f"{fmt(sum(known) / len(known))} ({len(known)})" if known else "-"


def net_rows(tables: Sequence[TableAudit], claudes: Mapping[str, Mapping[str, float]]) -> list[list[str]]:
    """Per table with a strong nuisance cue and Claude: S, S net of cues [95% CI] (or why it is
    undefined), S on the cue-hard pairs and S on the balanced John's pairs (the neutral control)."""
    import numpy as np

    from arena.stats.stratify import stratified

    rows = []
    for t in tables:
        cue = t.strongest_of(cue_kinds.NUISANCE) if t.enough else None
        if cue is None:
            continue
        score = t.cues[cue]
        strata = {item.id: 0.5 if tie else hit for item, hit, tie in zip(t.items, score.hits, score.ties)}
        hard = [t.items[i] for i, (hit, tie) in enumerate(zip(score.hits, score.ties)) if tie or not hit]
        balanced = [i for b in tables if b.set.startswith(f"{t.set} (balanced John ") and b.phenomenon == t.phenomenon
                    for i in b.items]
        for label, correct in sorted(claudes.items()):
            items = [i for i in t.items if i.id in correct]
            if not items:
                continue
            value, ci, note = stratified([i.group for i in items], np.array([correct[i.id] for i in items]),
                                         np.array([strata[i.id] for i in items]), 1000)
            rows.append([t.set, t.phenomenon, label, cue, _s(t.items, correct),
                         note or f"{fmt(value)} {fmt_ci(ci)}", _s(hard, correct), _s(balanced, correct)])
    return rows


NET_HEADERS = ["Zellig", "phenomenon", "Claude", "nuisance cue", "S (n)", "S net of cues [95% CI]",
               "S cue-hard (n)", "S balanced John (n)"]
NET_NOTE = ("S net of cues: mean of S over the pairs the cue gets right and over those it gets wrong (ties split "
            "evenly), strata weighted equally, so that the cue sits at chance; bootstrap over instances; the same "
            "figure per cell is in scores.json and the leaderboards (s_net_of_cues). S cue-hard is biased against "
            "a Claude that follows the cue; the balanced John (balance: {cue: length}) is the neutral control")


def section(tables: Sequence[TableAudit], controls: Sequence[Mapping[str, Any]],
            emptied: Sequence[tuple[tuple[str, str], Any]] = (),
            claudes: Mapping[str, Mapping[str, float]] | None = None) -> dict[str, Any]:
    """The report's *Surface cues* section: tables in the report's table format and sentences."""
    headers, rows = audit_rows(tables)
    result = [_table("Surface Claudes, out of fold", headers, rows,
                     "accuracy [95% CI], folds grouped by instance; " + "; ".join(legend(tables)))]
    versus = [[t.set, t.phenomenon, c["claude"], str(c["n"]), fmt(c["s"]), f"{c['cue']} {fmt(c['cue_accuracy'])}",
               f"{c['wins']}/{c['losses']}", fmt_p(c["p"]), str(c["hard"]["n"]), fmt(c["hard"]["s"]),
               f"{c['hard']['wins']}/{c['hard']['losses']}", fmt_p(c["hard"]["p"])]
              for t in tables for c in t.comparisons]
    if versus:
        result.append(_table("Claude vs the reference cue (the strongest nuisance cue, else the strongest; paired)",
                             ["Zellig", "phenomenon", "Claude", "n", "S", "cue", "wins/losses", "sign test p",
                              "n cue-hard", "S cue-hard", "wins/losses cue-hard", "p cue-hard"], versus,
                             "wins: pairs the Claude gets right and the cue wrong; two-sided exact sign test; "
                             "cue-hard: the pairs the cue gets wrong or ties, where a Claude beats the cue only by "
                             "more than following it"))
    hard, binned = [], []
    for control in controls:
        for row in control["claudes"]:
            where = [control["set"], control["phenomenon"], row["claude"]]
            hard.append([*where, f"{fmt(row['all']['s']['value'])} ({row['all']['s']['n']})",
                         f"{fmt(row['hard']['s']['value'])} ({row['hard']['s']['n']})",
                         f"{fmt(row['hard']['accuracy']['value'])} ({row['hard']['accuracy']['n']})"])
            binned.append([*where, *[f"{fmt(row['bins'][b]['value'])} ({row['bins'][b]['n']})" for b in LENGTH_BINS]])
    if hard:
        result.append(_table("Cue-hard subset (pairs the reference cue gets wrong or ties)",
                             ["Zellig", "phenomenon", "Claude", "S all (n)", "S cue-hard (n)", "accuracy cue-hard (n)"],
                             hard, "biased against a Claude that follows the cue; the neutral control is a balanced "
                             "John, the unbiased figure S net of cues (leaderboards); '-' with n 0: the phenomenon "
                             "cannot be separated from the cue with these pairs"))
        result.append(_table("S by length difference (characters, corrupted − correct)",
                             ["Zellig", "phenomenon", "Claude", *[f"S {b} (n)" for b in LENGTH_BINS]], binned))
    net = net_rows(tables, claudes or {})
    if net:
        result.insert(1, _table("S net of cues (cells with a strong nuisance cue)", NET_HEADERS, net, NET_NOTE))
    sentences = [s for t, c in zip(tables, controls) if (s := sentence(t, c))]
    balanced = balance_rows(tables, emptied)
    if balanced:
        result.insert(1, _table("Balanced pairs (a John's balance:)", ["Zellig", *BALANCE_HEADERS[1:]], balanced,
                                "n before → after: the pairs the John's balance kept (the others are recorded as "
                                "balanced_out, not judged); residual: the balanced cue's out-of-fold accuracy on "
                                "the pairs kept; cannot be balanced: the corrupted side always the longer or "
                                "always the shorter one, only pairs of equal length kept"))
        sentences += [f"{key[0]} / {key[1]}: {summary.note}; nothing of it was scored." for key, summary in emptied]
    return {"tables": result, "sentences": sentences}


def zellig_kinds(tables: Sequence[TableAudit]) -> dict[str, str]:
    """Zellig → its strong cues with their kinds in words (any of its phenomena with enough pairs),
    e.g. ``confounded by length; edit-identity: edit-words``."""
    found: dict[str, dict[str, list[str]]] = {}
    for t in tables:
        if not t.enough:
            continue
        for cue in t.strong:
            kind = cue_kinds.kind_of(cue) or "?"
            cues = found.setdefault(t.set, {}).setdefault(kind, [])
            if cue not in cues:
                cues.append(cue)
    return {zellig: "; ".join(f"confounded by {', '.join(c)}" if kind == cue_kinds.NUISANCE else f"{kind}: {', '.join(c)}"
                              for kind, c in sorted(kinds.items(), key=lambda kv: cue_kinds.ORDER.index(kv[0])
                                                    if kv[0] in cue_kinds.ORDER else 9))
            for zellig, kinds in found.items()}


def mark_kinds(leaderboards: Sequence[dict[str, Any]], marks: Mapping[str, str]) -> None:
    """Mark the Zelligs with strong cues in the report's leaderboard tables (in place)."""
    for board in leaderboards:
        if "Zellig" not in board["headers"]:
            continue
        column = board["headers"].index("Zellig")
        for row in board["rows"]:
            if row[column] in marks:
                row[column] = f"{row[column]} ({marks[row[column]]})"


@dataclass(frozen=True)
class SurfaceCues:
    """What a report needs to run the cue audit: builders of the surface Claudes (the CLI makes
    them from the catalog) and the catalog names of Claudes not compared with a cue."""

    factories: Mapping[str, Callable[[], Any]]
    not_compared: tuple[str, ...] = ()


def run_section(run: Path | Any, setup: SurfaceCues | None) -> dict[str, Any] | None:
    """The *Surface cues* section of one run's report (``run``: its directory, or its records
    already read, :class:`arena.stats.run.RunData`), or ``None`` without surface Claudes."""
    if setup is None or not setup.factories:
        return None
    from arena.stats import cue_balance, cue_controls, cue_items, cues

    data = cue_items.from_run(run, setup.not_compared)
    if not data.items:
        return None
    tables = cues.audit(data, setup.factories)
    cue_balance.attach(tables, data)
    result = section(tables, [cue_controls.controlled(t, data) for t in tables], cue_balance.emptied(data),
                     data.claudes)
    result["kinds"] = zellig_kinds(tables)
    return result


def with_surface_cues(report_sections: list[dict[str, Any]], run: Any,
                      setup: SurfaceCues | None) -> list[dict[str, Any]]:
    """The report's sections with the *Surface cues* section added after the others and the
    Zelligs with strong cues marked (by kind) in the leaderboards (in place); ``run``: the run's records."""
    surface = run_section(run, setup)
    if surface is None:
        return report_sections
    for entry in report_sections:
        if "leaderboard" in entry["title"].lower():
            mark_kinds(entry["tables"], surface["kinds"])
    findings = [_table("Where a cue explains the result", ["finding"], [[line] for line in surface["sentences"]])]
    return [*report_sections, {"title": "Surface cues", "tables": [*findings, *surface["tables"]]}]
