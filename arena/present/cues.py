"""Presentation of the surface-cue audit (:mod:`arena.stats.cues`): the console table of ``arena
cues`` and the *Surface cues* section of a run's report (with its controlled figures, from
:mod:`arena.stats.cue_controls`), and the marking of confounded Zelligs in the leaderboards.

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
from arena.stats.cue_controls import LENGTH_BINS
from arena.stats.cues import TableAudit

logger = logging.getLogger(__name__)


def fmt_p(p: float | None) -> str:
    """A p-value as the docs write it: ``< 0.001`` rather than ``0.000``."""
    return "< 0.001" if p is not None and p < 0.001 else fmt(p)


def _table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], note: str = "") -> dict[str, Any]:
    align = "".join("r" if h in ("n", "S", "accuracy") or h.startswith(("S ", "n ")) else "l" for h in headers)
    return {"title": title, "note": note, "headers": list(headers), "rows": [list(r) for r in rows], "align": align}


def cue_cell(table: TableAudit, name: str) -> str:
    score = table.cues[name]
    if score.unfittable:
        return f"unfittable: {score.unfittable}"
    return f"{fmt(score.accuracy)} {fmt_ci(score.ci)}"


def audit_rows(tables: Sequence[TableAudit]) -> tuple[list[str], list[list[str]]]:
    """One row per table: set, phenomenon, n, each cue's accuracy [95% CI], strongest, verdict."""
    names = list(dict.fromkeys(name for t in tables for name in t.cues))
    headers = ["set", "phenomenon", "n", *names, "strongest", "verdict"]
    rows = [[t.set, t.phenomenon, str(t.n), *[cue_cell(t, name) if name in t.cues else "-" for name in names],
             t.strongest or "-", "confounded" if t.confounded else "-"] for t in tables]
    return headers, rows


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
        if t.confounded:
            lines.append(f"{t.set} / {t.phenomenon}: confounded — {t.reason}")
        for c in t.comparisons:
            lines.append(f"{t.set} / {t.phenomenon}: {c['claude']} S {fmt(c['s'])} vs {c['cue']} {fmt(c['cue_accuracy'])}"
                         f" (n {c['n']}, {c['wins']} wins, {c['losses']} losses, sign test p {fmt_p(c['p'])})")
    if skipped:
        lines.append("left out: " + ", ".join(f"{count} {why}" for why, count in sorted(skipped.items())))
    lines.append("accuracy: out of fold (folds grouped by instance), ties settled by a seeded coin; "
                 "95% Wilson intervals; confounded: strongest cue ≥ 0.75, or above chance and not "
                 "significantly below the best Claude of a run")
    return "\n".join(lines)


def sentence(table: TableAudit, controls: Mapping[str, Any]) -> str | None:
    """A plain sentence where the cue explains the result (or cannot be separated from it)."""
    if controls.get("note"):
        return (f"{table.set} / {table.phenomenon}: {table.strongest} solves every pair it decides, so this "
                f"phenomenon {controls['note']}; the Claudes' S here says nothing about translation.")
    if table.confounded:
        return (f"{table.set} / {table.phenomenon}: confounded by {table.strongest} — {table.reason}; read S on "
                f"the {controls['neutral_n']} cue-neutral pairs instead.")
    return None


def section(tables: Sequence[TableAudit], controls: Sequence[Mapping[str, Any]],
            emptied: Sequence[tuple[tuple[str, str], Any]] = ()) -> dict[str, Any]:
    """The report's *Surface cues* section: tables in the report's table format and sentences."""
    headers, rows = audit_rows(tables)
    result = [_table("Surface Claudes, out of fold", headers, rows,
                     "accuracy [95% CI], folds grouped by instance; confounded: strongest cue ≥ 0.75 or not "
                     "significantly below the best Claude")]
    versus = [[t.set, t.phenomenon, c["claude"], str(c["n"]), fmt(c["s"]), f"{c['cue']} {fmt(c['cue_accuracy'])}",
               f"{c['wins']}/{c['losses']}", fmt_p(c["p"])] for t in tables for c in t.comparisons]
    if versus:
        result.append(_table("Claude vs strongest cue (paired)",
                             ["Zellig", "phenomenon", "Claude", "n", "S", "cue", "wins/losses", "sign test p"], versus,
                             "wins: pairs the Claude gets right and the cue wrong; two-sided exact sign test"))
    neutral, binned = [], []
    for control in controls:
        for row in control["claudes"]:
            where = [control["set"], control["phenomenon"], row["claude"]]
            neutral.append([*where, f"{fmt(row['all']['s']['value'])} ({row['all']['s']['n']})",
                            f"{fmt(row['neutral']['s']['value'])} ({row['neutral']['s']['n']})",
                            f"{fmt(row['neutral']['accuracy']['value'])} ({row['neutral']['accuracy']['n']})"])
            binned.append([*where, *[f"{fmt(row['bins'][b]['value'])} ({row['bins'][b]['n']})" for b in LENGTH_BINS]])
    if neutral:
        result.append(_table("Cue-neutral subset (pairs the strongest cue gets wrong or ties)",
                             ["Zellig", "phenomenon", "Claude", "S all (n)", "S cue-neutral (n)", "accuracy cue-neutral (n)"],
                             neutral, "'-' with n 0: the phenomenon cannot be separated from the cue with these pairs"))
        result.append(_table("S by length difference (characters, corrupted − correct)",
                             ["Zellig", "phenomenon", "Claude", *[f"S {b} (n)" for b in LENGTH_BINS]], binned))
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


def confounded_zelligs(tables: Sequence[TableAudit]) -> dict[str, str]:
    """Zellig → the cue that confounds it (any of its phenomena)."""
    return {t.set: t.strongest for t in tables if t.confounded and t.strongest}


def mark_confounded(leaderboards: Sequence[dict[str, Any]], confounded: Mapping[str, str]) -> None:
    """Mark confounded Zelligs in the report's leaderboard tables (in place)."""
    for board in leaderboards:
        if "Zellig" not in board["headers"]:
            continue
        column = board["headers"].index("Zellig")
        for row in board["rows"]:
            if row[column] in confounded:
                row[column] = f"{row[column]} (confounded by {confounded[row[column]]})"


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
    result = section(tables, [cue_controls.controlled(t, data) for t in tables], cue_balance.emptied(data))
    result["confounded"] = confounded_zelligs(tables)
    return result


def with_surface_cues(report_sections: list[dict[str, Any]], run: Any,
                      setup: SurfaceCues | None) -> list[dict[str, Any]]:
    """The report's sections with the *Surface cues* section added after the others and the
    confounded Zelligs marked in the leaderboards (in place); ``run``: the run's records."""
    surface = run_section(run, setup)
    if surface is None:
        return report_sections
    for entry in report_sections:
        if "leaderboard" in entry["title"].lower():
            mark_confounded(entry["tables"], surface["confounded"])
    findings = [_table("Where a cue explains the result", ["finding"], [[line] for line in surface["sentences"]])]
    return [*report_sections, {"title": "Surface cues", "tables": [*findings, *surface["tables"]]}]
