"""PNG plots of a run (matplotlib, Agg backend: no display needed).

- :func:`s_heatmap`: S per Zellig × Claude (mean over seeds, ± std in each cell), one
  panel per John and, with several Johns, one for all of them.  0.5 is chance; the
  colour scale is fixed to [0, 1] so plots of different runs compare.
- :func:`phenomena_by_reference`: per-phenomenon accuracy for human vs machine
  references (Vamvas & Sennrich 2021), one panel per Claude, 95% bootstrap CIs as
  error bars; contrastive accuracy for scoring Claudes, S otherwise (the axis says which).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.tables import shorten


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def s_matrix(
    outcomes: Mapping[str, Sequence[Any]], john: str | None = None
) -> tuple[list[str], list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Zelligs, Claudes, and the mean and std over seeds of S (NaN where no rounds) with
    the number of seeds."""
    from arena import aggregate

    names = list(dict.fromkeys(o.round.zellig for items in outcomes.values() for o in items))
    claudes = list(outcomes)
    mean = np.full((len(names), len(claudes)), np.nan)
    std = np.full_like(mean, np.nan)
    seeds = np.zeros(mean.shape, dtype=int)
    for j, claude in enumerate(claudes):
        mine = [o for o in outcomes[claude] if john is None or o.round.john == john]
        for zellig, group in aggregate.group(mine, lambda o: o.round.zellig).items():
            i = names.index(zellig)
            seeds[i, j], mean[i, j], std[i, j] = aggregate.over_seeds(group)
    return names, claudes, mean, std, seeds


def s_heatmap(run_dir: Path, path: Path) -> Path:
    """Heat map(s) of S per Zellig × Claude; returns ``path``."""
    from arena.report import load

    _, outcomes, rounds = load(run_dir)
    johns = list(dict.fromkeys(r.john for r in rounds))
    panels: list[str | None] = [*johns, None] if len(johns) > 1 else [None]
    plt = _pyplot()
    zellig_count = len(dict.fromkeys(r.zellig for r in rounds)) or 1
    width = max(4.0, 1.3 * len(outcomes) + 2.5)
    fig, axes = plt.subplots(
        1, len(panels), figsize=(width * len(panels), 0.6 * zellig_count + 2.2), squeeze=False, constrained_layout=True
    )
    image = None
    for ax, john in zip(axes[0], panels):
        zelligs, claudes, mean, std, seeds = s_matrix(outcomes, john)
        image = ax.imshow(mean, cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
        ax.set_xticks(range(len(claudes)), [shorten(c, 18) for c in claudes], rotation=30, ha="right")
        ax.set_yticks(range(len(zelligs)), [shorten(z, 24) for z in zelligs])
        ax.set_title(shorten(john, 40) if john else ("all Johns" if len(panels) > 1 else shorten(johns[0], 40)))
        for i in range(len(zelligs)):
            for j in range(len(claudes)):
                if np.isnan(mean[i, j]):
                    continue
                text = f"{mean[i, j]:.2f}" + (f"\n±{std[i, j]:.2f}" if seeds[i, j] > 1 else "")
                ax.text(j, i, text, ha="center", va="center", fontsize=8, color="black")
        ax.set_xlabel("Claude")
        if john == panels[0]:
            ax.set_ylabel("Zellig")
    if image is not None:
        fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8, label="S (mean over seeds; 0.5 = chance)")
    fig.suptitle("S per Zellig × Claude (higher: the Claude finds the corruption more often)")
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


KIND_COLOURS = {"human": "#4c72b0", "machine": "#dd8452"}


def phenomena_by_reference(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    """Grouped bars: per phenomenon, accuracy on human vs machine references, one panel
    per Claude (rows from :func:`arena.report.phenomenon_accuracy`); returns ``path``."""
    plt = _pyplot()
    claudes = list(dict.fromkeys(r["claude"] for r in rows))
    phenomena = list(dict.fromkeys(r["phenomenon"] for r in rows))
    kinds = sorted({r["reference_kind"] for r in rows}, key=lambda k: (k not in KIND_COLOURS, k))
    fig, axes = plt.subplots(
        len(claudes), 1, figsize=(max(6.0, 1.2 * len(phenomena) + 2.5), 2.8 * len(claudes) + 0.6),
        squeeze=False, constrained_layout=True,
    )
    width = 0.8 / max(1, len(kinds))
    for ax, claude in zip(axes[:, 0], claudes):
        mine = {(r["phenomenon"], r["reference_kind"]): r for r in rows if r["claude"] == claude}
        metric = next(iter(mine.values()))["metric"]
        for k, kind in enumerate(kinds):
            xs, values, low, high = [], [], [], []
            for p, phenomenon in enumerate(phenomena):
                row = mine.get((phenomenon, kind))
                if row is None:
                    continue
                xs.append(p + (k - (len(kinds) - 1) / 2) * width)
                values.append(row["value"])
                ci = row.get("ci95") or (row["value"], row["value"])
                low.append(row["value"] - ci[0])
                high.append(ci[1] - row["value"])
            if xs:
                ax.bar(xs, values, width, yerr=[low, high], capsize=3, label=f"{kind} references",
                       color=KIND_COLOURS.get(kind, "#8c8c8c"))
        ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        ax.text(len(phenomena) - 0.5, 0.51, "chance", color="grey", fontsize=7, ha="right", va="bottom")
        ax.set_ylim(0, 1.05)
        ax.set_xticks(range(len(phenomena)), phenomena, rotation=20, ha="right")
        ax.set_ylabel("contrastive accuracy" if metric == "accuracy" else "S")
        ax.set_title(f"{claude}: per phenomenon, human vs machine references")
        ax.legend(loc="lower right", fontsize=8)
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


KIND_MARKERS = {"human": "o", "machine": "s"}


def false_positives(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    """Contrastive error rate against generative rate, one panel per phenomenon (rows from
    :func:`arena.false_positives.report_rows`): colour per Claude (model), marker per reference kind,
    95% intervals as error bars (bootstrap over instances for the error, Wilson for the generative
    rate), ``n`` (pairs / translations) beside each point and the
    diagonal y = x, above which a hypothesis penalises the model more often than it produces the
    phenomenon.  Rows without a generative rate are left out.  Returns ``path``."""
    plt = _pyplot()
    usable = [r for r in rows if (r.get("generative_pool") or r.get("generative")) and r["contrastive_error"]["n"]]
    phenomena = list(dict.fromkeys(r["phenomenon"] for r in usable)) or ["(no detector in this run)"]
    claudes = list(dict.fromkeys(r["claude"] for r in rows))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    columns = min(3, len(phenomena))
    lines = (len(phenomena) + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(max(6.0, 4.6 * columns), 4.2 * lines + 1.2), squeeze=False,
                             constrained_layout=True)
    pool = any(r.get("generative_pool") for r in usable)
    for ax, phenomenon in zip(axes.flat, phenomena):
        mine = [r for r in usable if r["phenomenon"] == phenomenon]
        top = 0.05
        for row in mine:
            generative = row.get("generative_pool") or row["generative"]
            error = row["contrastive_error"]
            x, y = generative["rate"], error["rate"]
            (x_low, x_high), (y_low, y_high) = generative["ci95"], error["ci95"]
            top = max(top, x_high, y_high)
            # a percentile bootstrap interval need not contain its estimate, and rounding can put a
            # Wilson bound a hair past it: error bars never go negative
            ax.errorbar(
                x, y, xerr=[[max(0.0, x - x_low)], [max(0.0, x_high - x)]],
                yerr=[[max(0.0, y - y_low)], [max(0.0, y_high - y)]],
                fmt=KIND_MARKERS.get(row["reference_kind"], "^"), color=colours[claudes.index(row["claude"]) % len(colours)],
                markersize=7, capsize=3, markerfacecolor="none" if row["reference_kind"] == "machine" else None,
            )
            ax.annotate(f"n={error['n']}/{generative['n']}", (x, y), textcoords="offset points", xytext=(5, 4),
                        fontsize=7)
        limit = min(1.0, top * 1.15)
        ax.plot([0, limit], [0, limit], color="grey", linestyle="--", linewidth=0.8)
        ax.text(limit * 0.97, limit * 0.90, "y = x", color="grey", fontsize=8, ha="right", rotation=0)
        ax.set_xlim(-0.01 * limit, limit)
        ax.set_ylim(-0.01 * limit, limit)
        ax.set_title(phenomenon)
        ax.set_xlabel("generative rate" + (" (pool of sources)" if pool else " (1-best of the same sources)"))
        ax.set_ylabel("contrastive error rate (1 − accuracy)")
    for ax in list(axes.flat)[len(phenomena):]:
        ax.axis("off")
    handles = [
        plt.Line2D([], [], color=colours[i % len(colours)], marker="o", linestyle="", label=shorten(claude, 30))
        for i, claude in enumerate(claudes)
    ]
    kinds = sorted({r["reference_kind"] for r in usable})
    handles += [
        plt.Line2D([], [], color="black", marker=KIND_MARKERS.get(kind, "^"), linestyle="",
                   markerfacecolor="none" if kind == "machine" else "black", label=f"{kind} references")
        for kind in kinds
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=min(6, len(handles)), fontsize=8)
    fig.suptitle("Contrastive error vs generative rate\n(above y = x: the test penalises what the model rarely "
                 "produces)\nn = pairs / translations", fontsize=10)
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path
