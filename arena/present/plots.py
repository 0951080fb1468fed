"""PNG plots of a run (matplotlib, Agg backend: no display needed).

- :func:`s_heatmap`: S per Zellig × Claude (mean over seeds, ± std and n in each cell),
  one panel per John.  0.5 is chance; the colour scale is fixed to [0, 1] so plots of
  different runs compare.
- :func:`phenomena_by_reference`: per-phenomenon accuracy per reference kind of the data
  (human vs machine references in Vamvas & Sennrich 2021), one panel per Claude, 95% bootstrap CIs as
  error bars and n over each bar; contrastive accuracy for scoring Claudes, S otherwise
  (the axis says which).
- :func:`timeline` and :func:`convergence`: a game's S over rounds (:func:`game_curves`
  picks the cells' timelines) and how fast it settles.
- :func:`false_positives`: contrastive error against generative rate per phenomenon, human
  vs machine references, one colour per model, with the diagonal y = x (the false-positive
  report, :mod:`arena.stats.false_positives`).

Every cell and bar shows its n; those with fewer than :data:`FEW_ROUNDS` rounds are
grey and hatched and labelled "too few".  Legends sit outside the axes, below them;
the chance line is labelled inside the axes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from arena.present.tables import shorten
from arena.stats.false_positive_records import FalsePositiveRow
from arena.stats.leaderboards import PhenomenonRow
from arena.stats.results import OverSeeds, Scores, Timeline

# cells (and bars) with fewer rounds are drawn as "too few", not as confident results
FEW_ROUNDS = 30


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _s_matrix(scores: Scores, john: str) -> tuple[list[str], list[str], dict[tuple[int, int], tuple[OverSeeds, int]]]:
    """Zelligs, Claudes and per (Zellig, Claude) index the cell over seeds with its total rounds judged."""
    rounds: dict[tuple[str, str], int] = defaultdict(int)
    for cell in scores.cells:
        if cell.john == john:
            rounds[cell.zellig, cell.claude] += cell.summary.judged
    entries = [e for e in scores.over_seeds if e.john == john]
    zelligs = list(dict.fromkeys(e.zellig for e in entries))
    claudes = list(dict.fromkeys(e.claude for e in entries))
    matrix = {
        (zelligs.index(e.zellig), claudes.index(e.claude)): (e, rounds[e.zellig, e.claude])
        for e in entries
    }
    return zelligs, claudes, matrix


def save(figure, path: Path) -> Path:
    """Write a figure as PNG and close it; returns ``path``."""
    figure.savefig(path, dpi=130)
    _pyplot().close(figure)
    return path


def s_heatmap(scores: Scores, path: Path) -> Path:
    """:func:`s_heatmap_figure` written to ``path``."""
    return save(s_heatmap_figure(scores), path)


def s_heatmap_figure(scores: Scores):
    """Heat map(s) of S per Zellig × Claude, one panel per John, from ``scores.json``
    (mean over seeds, ± std with several seeds, n = rounds the Claude judged); cells with fewer than
    :data:`FEW_ROUNDS` rounds are grey and hatched, not coloured as results."""
    plt = _pyplot()
    johns = list(dict.fromkeys(e.john for e in scores.over_seeds)) or ["(no rounds)"]
    shapes = [_s_matrix(scores, john) for john in johns]
    zellig_count = max((len(z) for z, _, _ in shapes), default=1) or 1
    claude_count = max((len(c) for _, c, _ in shapes), default=1) or 1
    width = max(4.0, 1.4 * claude_count + 2.5)
    fig, axes = plt.subplots(
        1, len(johns), figsize=(width * len(johns), 0.7 * zellig_count + 2.6), squeeze=False, constrained_layout=True
    )
    image = None
    for ax, john, (zelligs, claudes, matrix) in zip(axes[0], johns, shapes):
        mean = np.full((max(1, len(zelligs)), max(1, len(claudes))), np.nan)
        for (i, j), (entry, n) in matrix.items():
            if n >= FEW_ROUNDS and entry.S_mean is not None:
                mean[i, j] = entry.S_mean
        image = ax.imshow(mean, cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
        ax.set_xticks(range(len(claudes)), [shorten(c, 18) for c in claudes], rotation=30, ha="right")
        ax.set_yticks(range(len(zelligs)), [shorten(z, 24) for z in zelligs])
        ax.set_title(shorten(john, 40))
        for (i, j), (entry, n) in matrix.items():
            s_mean = entry.S_mean
            few = n < FEW_ROUNDS
            if few:
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#e0e0e0", hatch="///",
                                           edgecolor="#9a9a9a", linewidth=0))
            text = "-" if s_mean is None or s_mean != s_mean else f"{s_mean:.2f}"
            if entry.seeds > 1 and not few and entry.S_std is not None:
                text += f" ±{entry.S_std:.2f}"
            text += f"\nn={n}" + (" (too few)" if few else "")
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="#555555" if few else "black")
        ax.set_xlabel("Claude")
        ax.set_ylabel("Zellig")
    if image is not None:
        fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8, label="S (mean over seeds; 0.5 = chance)")
    fig.suptitle(f"S per Zellig × Claude\n(n = rounds; hatched: fewer than {FEW_ROUNDS} rounds)", fontsize=10)
    return fig


KIND_COLOURS = {"human": "#4c72b0", "machine": "#dd8452"}


def reference_kinds(kinds: Iterable[str]) -> str:
    """The data's own reference kinds as words for a title: ``human vs machine references``
    for DistilLingEval's two kinds, ``unknown references`` for pairs that name none."""
    ordered = sorted(set(kinds), key=lambda k: (k not in KIND_COLOURS, k))
    return " vs ".join(ordered) + " references" if ordered else "references"


def phenomena_by_reference(rows: Sequence[PhenomenonRow], path: Path) -> Path:
    """:func:`phenomena_figure` written to ``path``."""
    return save(phenomena_figure(rows), path)


def phenomena_figure(rows: Sequence[PhenomenonRow]):
    """Grouped bars: per phenomenon, accuracy per reference kind of the data (human vs
    machine references for DistilLingEval), one panel per Claude (rows from :func:`arena.stats.leaderboards.phenomenon_accuracy`)."""
    plt = _pyplot()
    claudes = list(dict.fromkeys(r.claude for r in rows))
    phenomena = list(dict.fromkeys(r.phenomenon for r in rows))
    kinds = sorted({r.reference_kind for r in rows}, key=lambda k: (k not in KIND_COLOURS, k))
    fig, axes = plt.subplots(
        len(claudes), 1, figsize=(max(6.0, 1.3 * len(phenomena) + 2.5), 3.3 * len(claudes) + 0.8),
        squeeze=False, constrained_layout=True,
    )
    width = 0.8 / max(1, len(kinds))
    for ax, claude in zip(axes[:, 0], claudes):
        mine = {(r.phenomenon, r.reference_kind): r for r in rows if r.claude == claude}
        metric = next(iter(mine.values())).metric
        for k, kind in enumerate(kinds):
            colour = KIND_COLOURS.get(kind, "#8c8c8c")
            for p, phenomenon in enumerate(phenomena):
                row = mine.get((phenomenon, kind))
                if row is None:
                    continue
                x = p + (k - (len(kinds) - 1) / 2) * width
                few = row.rounds < FEW_ROUNDS
                value = row.value if row.value is not None else float("nan")
                ci = row.ci95 or (value, value)
                ax.bar(x, value, width, yerr=[[value - ci[0]], [ci[1] - value]], capsize=3,
                       color="#e0e0e0" if few else colour, edgecolor="#9a9a9a" if few else colour,
                       hatch="///" if few else None)
                label = f"n={row.rounds}" + ("\ntoo few" if few else "")
                ax.text(x, min(ci[1], 1.0) + 0.02, label, ha="center", va="bottom", fontsize=7,
                        color="#555555" if few else "black")
        ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        ax.text(-0.45, 0.51, "chance (0.5)", color="grey", fontsize=7, ha="left", va="bottom",
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
        ax.set_ylim(0, 1.18)
        ax.set_xlim(-0.5, len(phenomena) - 0.5)
        ax.set_xticks(range(len(phenomena)), phenomena, rotation=20, ha="right")
        ax.set_xlabel("phenomenon")
        ax.set_ylabel("contrastive accuracy" if metric == "accuracy" else "S")
        ax.set_title(f"{claude}: per phenomenon, {reference_kinds(kinds)}")
        from matplotlib.patches import Patch

        handles = [Patch(color=KIND_COLOURS.get(kind, "#8c8c8c"), label=f"{kind} references") for kind in kinds]
        if any(r.rounds < FEW_ROUNDS for r in mine.values()):
            handles.append(Patch(facecolor="#e0e0e0", edgecolor="#9a9a9a", hatch="///",
                                 label=f"fewer than {FEW_ROUNDS} rounds"))
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.32), ncol=len(handles),
                  fontsize=8, frameon=False)
    return fig


def game_curves(scores: Scores, prefix: str = "") -> list[tuple[str, Timeline]]:
    """``(label, timeline)`` of every cell of a game's scores (none for a schedule-less
    run); the label names what differs between cells."""
    cells = [cell for cell in scores.cells if cell.timeline]
    varying = [key for key in ("john", "zellig", "claude", "seed") if len({str(getattr(c, key)) for c in cells}) > 1]
    return [
        (prefix + (" ".join(shorten(str(getattr(cell, key)), 24) for key in varying) or shorten(cell.claude, 24)),
         cell.timeline)
        for cell in cells if cell.timeline is not None
    ]


def timeline(curves: Sequence[tuple[str, Timeline]], path: Path, title: str = "") -> Path:
    """S per window of rounds against the round (the window's last round), one line per
    ``(label, timeline)`` with its 95% CI as a band; windows of observation phases
    (that do not count toward S) are drawn hollow; n per window in the legend."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for label, entry in curves:
        windows = entry.windows
        if not windows:
            continue
        x = [w.last for w in windows]
        y = [w.S for w in windows]
        low = [w.S_ci95[0] if w.S_ci95 else w.S for w in windows]
        high = [w.S_ci95[1] if w.S_ci95 else w.S for w in windows]
        (line,) = ax.plot(x, y, "-", label=f"{label} (n={entry.window}/window, {x[-1]} rounds)")
        ax.fill_between(x, low, high, color=line.get_color(), alpha=0.15)
        for w, xi, yi in zip(windows, x, y):
            face = line.get_color() if w.counts else "white"
            ax.plot([xi], [yi], "o", color=line.get_color(), markerfacecolor=face, markersize=4)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("round (last round of the window)")
    ax.set_ylabel("S (Claude finds the corruption)")
    ax.set_ylim(0.0, 1.05)
    ax.set_title(title or "S over rounds (hollow: observation phase, not counted in S)", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


def convergence(curves: Sequence[tuple[str, Timeline]], path: Path) -> Path:
    """|S(window) − S(final window)| against the round, with the ε band and a marker at
    the round from which S stays within ε of its final value."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    epsilon = None
    for label, entry in curves:
        windows, settled = entry.windows, entry.convergence
        if not windows or settled is None:
            continue
        epsilon = settled.epsilon
        x = [w.last for w in windows]
        y = [abs(w.S - settled.final_S) for w in windows]  # type: ignore[operator]
        (line,) = ax.plot(x, y, "o-", markersize=3, label=f"{label}: within ε after {settled.rounds} rounds")
        ax.axvline(settled.rounds, color=line.get_color(), linestyle="--", linewidth=0.8)
    if epsilon is not None:
        ax.axhspan(0, epsilon, color="grey", alpha=0.15, label=f"ε = {epsilon}")
    ax.set_xlabel("round (last round of the window)")
    ax.set_ylabel("|S(window) − S(last window)|")
    ax.set_title("Convergence: rounds until S stays within ε of its final value", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


KIND_MARKERS = {"human": "o", "machine": "s"}


def false_positives(rows: Sequence[FalsePositiveRow], path: Path) -> Path:
    """Contrastive error rate against generative rate, one panel per phenomenon (rows from
    :func:`arena.stats.false_positives.report_rows`): colour per Claude (model), marker per reference kind,
    95% intervals as error bars (bootstrap over instances for the error, Wilson for the generative
    rate), ``n`` (pairs / translations) beside each point and the
    diagonal y = x, above which a hypothesis penalises the model more often than it produces the
    phenomenon.  Rows without a generative rate are left out.  Returns ``path``."""
    plt = _pyplot()
    usable = [r for r in rows if (r.generative_pool or r.generative) and r.contrastive_error.n]
    phenomena = list(dict.fromkeys(r.phenomenon for r in usable)) or ["(no detector in this run)"]
    claudes = list(dict.fromkeys(r.claude for r in rows))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    columns = min(3, len(phenomena))
    lines = (len(phenomena) + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(max(6.0, 4.6 * columns), 4.2 * lines + 1.2), squeeze=False,
                             constrained_layout=True)
    pool = any(r.generative_pool for r in usable)
    for ax, phenomenon in zip(axes.flat, phenomena):
        mine = [r for r in usable if r.phenomenon == phenomenon]
        top = 0.05
        for row in mine:
            generative = row.generative_pool or row.generative
            error = row.contrastive_error
            if generative is None or generative.ci95 is None or error.ci95 is None:  # no interval to draw
                continue
            if generative.rate is None or error.rate is None:
                continue
            x, y = generative.rate, error.rate
            (x_low, x_high), (y_low, y_high) = generative.ci95, error.ci95
            top = max(top, x_high, y_high)
            # a percentile bootstrap interval need not contain its estimate, and rounding can put a
            # Wilson bound a hair past it: error bars never go negative
            ax.errorbar(
                x, y, xerr=[[max(0.0, x - x_low)], [max(0.0, x_high - x)]],
                yerr=[[max(0.0, y - y_low)], [max(0.0, y_high - y)]],
                fmt=KIND_MARKERS.get(row.reference_kind, "^"), color=colours[claudes.index(row.claude) % len(colours)],
                markersize=7, capsize=3, markerfacecolor="none" if row.reference_kind == "machine" else None,
            )
            ax.annotate(f"n={error.n}/{generative.n}", (x, y), textcoords="offset points", xytext=(5, 4),
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
    kinds = sorted({r.reference_kind for r in usable})
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
