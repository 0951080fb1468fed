"""Overlay the S timelines (and their convergence) of several game runs.

    python experiments/game/plot.py RUN [RUN ...] --out timeline.png

Each finished run directory contributes its cells' timelines (``scores.json``),
labelled by the run's name (and what differs between its cells); the convergence
figure is written beside ``--out`` as ``<stem>-convergence.png``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from arena.present import plots
from arena.present.plots import game_curves
from arena.stats.results import read_scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", type=Path, help="finished run directories of games")
    parser.add_argument("--out", type=Path, required=True, help="PNG file for the timeline")
    parser.add_argument("--title", default="", help="figure title")
    args = parser.parse_args()
    curves = []
    for run_dir in args.runs:
        scores = read_scores(run_dir)
        name = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))["experiment"]["name"]
        curves += game_curves(scores, prefix=f"{name}: ")
    if not curves:
        parser.error("no run has a timeline (is it a game, with a schedule?)")
    plots.timeline(curves, args.out, args.title)
    convergence = args.out.with_name(f"{args.out.stem}-convergence.png")
    plots.convergence(curves, convergence)
    print(f"wrote {args.out} and {convergence}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
