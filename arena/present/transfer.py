"""The report's *S over seeds*, *Held-out judges* and *Transfer* sections, and the
transfer heat map.

*S over seeds* (a run with at least two seeds): per John × Zellig × Claude, S of each
seed with its bootstrap CI over instances beside the mean over seeds with a 95% t
interval (:func:`arena.stats.transfer.t_interval`).

*Held-out judges*: for each model-consulting Zellig of a run and each Claude, whether
the Claude is the model the Zellig consults (``self``) or another (``held-out``), as
recorded in ``manifest.json`` → ``judges`` (:mod:`arena.game.judges`).

*Transfer* (a run of ``arena transfer``, with ``transfer.json`` and
``transfer-summary.json``, :mod:`arena.stats.transfer`): per Zellig, the matrix of S and
the gain over the untuned base (tuned against × judged by), the diagonal and
off-diagonal gains with the transfer ratio, S over seeds, and the adaptive trend over
seeds.  Nothing is computed here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.present.sections import ReportInput, Section, table
from arena.present.tables import fmt, fmt_ci

MATRIX, SUMMARY = "transfer.json", "transfer-summary.json"


def _read(run_dir: Path) -> tuple[dict[str, Any], dict[str, Any]] | None:
    paths = run_dir / MATRIX, run_dir / SUMMARY
    if not all(p.exists() for p in paths):
        return None
    return json.loads(paths[0].read_text("utf-8")), json.loads(paths[1].read_text("utf-8"))


def _gain(cell: Mapping[str, Any]) -> str:
    if cell.get("gain_vs_base") is None:
        return "-"
    return f"{cell['gain_vs_base']:+.3f} {fmt_ci(cell['gain_ci'])}, p = {fmt(cell['p'])}"


def judge_section(data: ReportInput) -> Section | None:
    judges = data.run.manifest.judges or ()
    if not judges:
        return None
    rows = [[e.zellig, e.claude, e.judge] for e in judges]
    return Section("Held-out judges", [table(
        "Is the judging Claude the model the Zellig consults?", ["Zellig", "Claude", "judge"], rows,
        "self: the Claude is the consulted model (or wraps it, or is a Claude the Zellig learns from); "
        "held-out: another model")])


def transfer_section(data: ReportInput) -> Section | None:
    read = _read(data.run.run_dir)
    if read is None:
        return None
    matrix, summary = read
    labels = data.run.manifest.judge_labels()
    tables = []
    for family in matrix["zelligs"]:
        cells = [c for c in matrix["cells"] if c["zellig"] == family]
        rows = [[c["tuned_against"], c["judged_by"], labels.get((f"{family}@{c['tuned_against']}", c["judged_by"]), "-"),
                 c["n"], c["s"], fmt_ci(c["ci"]), _gain(c)] for c in cells]
        tables.append(table(f"{family}: S and gain over the base, tuned against × judged by",
                            ["tuned against", "judged by", "judge", "n", "S", "S 95% CI", "gain vs base [95% CI], p"],
                            rows, "gain = S(base) − S(tuned), paired over the same instances (their rounds in every seed); "
                                  "positive: the tuning fools that Claude more often", align="lllrrll"))
    tables.append(_ratio_table(summary["ratios"]))
    tables.append(_trend_table(summary["trends"]))
    tables.append(_seed_table(summary["seeds"]))
    return Section("Transfer", tables)


def _ratio_table(ratios: Mapping[str, Any]) -> dict[str, Any]:
    rows = [[family, r.get("clusters", 0), fmt(r.get("diagonal_gain")), fmt_ci(r.get("diagonal_ci")),
             fmt(r.get("off_diagonal_gain")), fmt_ci(r.get("off_diagonal_ci")), fmt(r.get("transfer_ratio")),
             fmt_ci(r.get("ratio_ci"))] for family, r in ratios.items()]
    return table("Diagonal (self) and off-diagonal (transfer) gain, and the transfer ratio",
                 ["Zellig", "clusters", "diagonal gain", "95% CI", "off-diagonal gain", "95% CI", "transfer ratio",
                  "95% CI"], rows, "ratio = off-diagonal gain / diagonal gain; CIs from one bootstrap over "
                                   "instances (clusters of their rounds in every seed) shared by all cells of the Zellig", align="lrllllll")


def _trend_table(trends: Mapping[str, Any]) -> dict[str, Any]:
    rows = []
    for family, t in trends.items():
        for name in ("slope", "paired_slope"):
            entry = t[name]
            rows.append([family, "S" if name == "slope" else "S − S(base)", entry["seeds"], fmt(entry["mean"]),
                         fmt_ci(entry["ci"]), fmt(entry["p"])])
    return table("Trend over rounds, tested over seeds (diagonal cells)",
                 ["Zellig", "of", "seeds", "mean slope per 100 rounds", "95% t CI", "p (mean = 0)"], rows,
                 "one least-squares slope per seed (averaged over the Claudes tuned against), then a one-sample "
                 "t-test of the mean slope over seeds", align="llrrll")


def _seed_table(spreads: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    rows = [[s["zellig"], s["tuned_against"], s["judged_by"],
             "; ".join(f"{e['seed']}: {fmt(e['s'])} {fmt_ci(e['ci'])}" for e in s["per_seed"]),
             fmt(s["over_seeds"]["mean"]), fmt_ci(s["over_seeds"]["ci"])] for s in spreads]
    return table("S per seed (within-seed bootstrap CI) and over seeds (t interval)",
                 ["Zellig", "tuned against", "judged by", "per seed", "mean over seeds", "95% t CI"], rows,
                 align="llllrl")


def seeds_section(data: ReportInput) -> Section | None:
    """S per seed (each with its bootstrap CI over instances) beside the mean over seeds with
    a 95% t interval, per John × Zellig × Claude; for runs with at least two seeds."""
    from arena.stats.transfer import t_interval

    groups: dict[tuple[str, str, str], list[Any]] = {}
    for cell in data.scores.cells:
        if cell.summary.S is not None:
            groups.setdefault((cell.john, cell.zellig, cell.claude), []).append(cell)
    rows = []
    for (john, zellig, claude), cells in groups.items():
        if len(cells) < 2:
            continue
        spread = t_interval([c.summary.S for c in cells])
        rows.append([john, zellig, claude, "; ".join(f"{c.seed}: {fmt(c.summary.S)} {fmt_ci(c.summary.S_ci95)}"
                                                      for c in cells), spread["mean"], fmt_ci(spread["ci"])])
    if not rows:
        return None
    return Section("S over seeds", [table(
        "S per seed (within-seed 95% CI) and over seeds (95% t interval)",
        ["John", "Zellig", "Claude", "per seed", "mean over seeds", "95% t CI"], rows,
        "the t interval treats the seeds as replicates; a John yields the same instances in every seed",
        align="llllrl")])


def transfer_sections(data: ReportInput) -> list[Section]:
    """The *S over seeds*, *Held-out judges* and *Transfer* sections a run has."""
    return [s for s in (seeds_section(data), judge_section(data), transfer_section(data)) if s is not None]


def transfer_heatmap(run_dir: Path, path: Path) -> Path | None:
    """Heat map of the gain over the base, one panel per Zellig (tuned against × judged
    by, n in each cell); ``None`` for a run without ``transfer.json``."""
    read = _read(run_dir)
    if read is None:
        return None
    import numpy as np

    from arena.present.plots import _pyplot, save

    matrix = read[0]
    plt = _pyplot()
    claudes, zelligs = matrix["claudes"], matrix["zelligs"]
    tuned = list(dict.fromkeys(c["tuned_against"] for c in matrix["cells"]))
    fig, axes = plt.subplots(1, len(zelligs), figsize=(3.2 * len(zelligs) + 1.5, 0.8 * len(tuned) + 2.4),
                             squeeze=False, constrained_layout=True)
    image = None
    for ax, family in zip(axes[0], zelligs):
        grid = np.full((len(tuned), len(claudes)), np.nan)
        for c in matrix["cells"]:
            if c["zellig"] != family or c["gain_vs_base"] is None:
                continue
            i, j = tuned.index(c["tuned_against"]), claudes.index(c["judged_by"])
            grid[i, j] = c["gain_vs_base"]
            ax.text(j, i, f"{c['gain_vs_base']:+.2f}\nn={c['n']}", ha="center", va="center", fontsize=7,
                    fontweight="bold" if c["tuned_against"] == c["judged_by"] else "normal")
        image = ax.imshow(grid, cmap="RdBu", vmin=-0.5, vmax=0.5, aspect="auto")
        ax.set_xticks(range(len(claudes)), claudes, rotation=30, ha="right", fontsize=7)
        ax.set_yticks(range(len(tuned)), tuned, fontsize=7)
        ax.set_title(family, fontsize=9)
        ax.set_xlabel("judged by")
        ax.set_ylabel("tuned against")
    if image is not None:
        fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8, label="gain = S(base) − S(tuned)")
    fig.suptitle("Transfer: gain over the untuned base (bold: diagonal, the Claude tuned against)", fontsize=10)
    return save(fig, path)
