"""``arena tournament``: Johns × Zelligs × Claudes × seeds on Ray (or in process)."""

from __future__ import annotations

import sys
from pathlib import Path

from arena.cli import add_verb
from arena.cli.ranges import integer

EXAMPLES = """
  arena tournament experiments/tournament/distil-lingeval.yaml
  arena tournament experiments/tournament/smoke.yaml --executor in-process
  arena tournament my.yaml --address ray://head-node:10001 --out /shared/runs
  RAY_ADDRESS=auto arena tournament my.yaml          # join the cluster this machine belongs to
  arena tournament experiments/tournament/smoke.yaml --plan   # what it will cost; no model is loaded
Without --address (or RAY_ADDRESS, or ray.address in the config) a local Ray is started
with a small object store; --executor in-process gives byte-identical transcripts without
Ray.  Finished cells are written atomically under RUN/cells/; after Ctrl-C, re-running the
same command plays only the rest.  A finished run is shown, never overwritten.
RUN/report.md and a self-contained RUN/report.html are written at the end, the
leaderboards and PNG plots go to RUN/report/ (see also 'arena leaderboard RUN' and
'arena report RUN').  The engine is the one 'arena run' uses: the same config gives the
same transcripts."""


def add_parser(subparsers) -> None:
    from arena.cli.run import add_quick_options

    parser = add_verb(
        subparsers, "tournament",
        "play every John × Zellig × Claude × seed cell of an experiment, on Ray or in process; leaderboards and plots",
        EXAMPLES,
    )
    parser.add_argument("config", help="experiment YAML file (lists of johns, zelligs, claudes, seeds)")
    parser.add_argument("--out", default="runs", help="directory under which the run directory is made (default: runs)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (dotted keys, repeatable)")
    parser.add_argument("--executor", choices=("ray", "in-process"), default="ray",
                        help="where the work runs (default: ray; in-process for debugging, no Ray needed)")
    parser.add_argument("--address", default=None,
                        help="Ray cluster to join (default: $RAY_ADDRESS, else ray.address of the config, "
                             "else a local Ray started for this run)")
    parser.add_argument("--num-cpus", type=integer(1, 4096), default=None, metavar="N",
                        help="CPUs of a local Ray, at least 1 (default: ray.num_cpus of the config, else all)")
    parser.add_argument("--resume", action="store_true",
                        help="accepted for old scripts: re-running always resumes an interrupted run")
    add_quick_options(parser)
    parser.add_argument("--no-plots", action="store_true", help="write the leaderboards and reports but no plots")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("--plan", action="store_true",
                        help="play nothing: plan the run (Johns and Zelligs, in process; no model is loaded) and print "
                             "cells, rounds, distinct pairs and 1-best sources per model and, with a calibration, "
                             "the estimated hours (docs/scale.md)")
    parser.add_argument("--calibration", type=Path, default=None, metavar="FILE",
                        help="calibration for --plan (default: $ARENA_CACHE_DIR/calibration.json, else "
                             "~/.cache/arena/calibration.json; written by experiments/bench/calibrate.py)")
    parser.add_argument("--json", action="store_true", help="with --plan: print the plan and estimate as JSON")
    parser.set_defaults(func=run)


def run(args) -> int:
    from arena import api
    from arena.cli.run import quick_overrides
    from arena.present.report import REPORT_DIR, write_reports
    from arena.specs.config import load_experiment

    if (args.json or args.calibration is not None) and not args.plan:
        from arena.errors import UsageError

        raise UsageError(f"{'--json' if args.json else '--calibration'} goes with --plan", key="--plan",
                         hint="add --plan to see what the run will cost without playing it")
    experiment = load_experiment(args.config, quick_overrides(args))
    if args.plan:
        return plan(args, experiment)
    try:
        result = api.play(
            experiment, args.out, args.executor,
            address=args.address, num_cpus=args.num_cpus, progress=not args.no_progress,
        )
    except KeyboardInterrupt:
        print("arena tournament: interrupted; finished cells are kept — re-run the same command to continue",
              file=sys.stderr)
        return 130
    if result.already_finished:
        print(f"tournament {result.run_dir} is already finished; its leaderboards:")
    else:
        resumed = f", resumed: {result.cells_before} finished before" if result.resumed else ""
        print(f"run directory: {result.run_dir} ({result.cells} cells on {result.backend}{resumed}, "
              f"{result.seconds:.1f} s)")
        for model, work in result.work.items():
            if "requests" in work:
                saved = 1 - work["unique"] / work["requests"] if work["requests"] else 0.0
                print(f"  {model}: {work['requests']} scoring requests, {work['unique']} after deduplication "
                      f"({saved:.0%} saved)")
    from arena.api import surface_cues

    markdown, html = write_reports([result.run_dir], plots=not args.no_plots, cues=surface_cues())
    from arena.text_policy import visible_lines

    print(visible_lines((result.run_dir / REPORT_DIR / "leaderboard.txt").read_text(encoding="utf-8")), end="")
    print(f"report: {markdown}, {html} (leaderboards and plots in {result.run_dir / 'report'})")
    return 0


def plan(args, experiment) -> int:
    """``--plan``: count the work and estimate its cost; nothing is played or written."""
    import json

    from arena.api import catalog
    from arena.codec import dump
    from arena.engine import calibration as calibrations
    from arena.engine.cost import count_work, estimate, with_estimate
    from arena.present.cost_plan import format_plan

    calibration = calibrations.load(args.calibration)
    work = count_work(experiment, catalog(), progress=not args.no_progress)
    result = estimate(work, calibration, catalog()) if calibration is not None else None
    if args.json:
        from arena.text_policy import json_visible

        print(json_visible(json.dumps(dump(with_estimate(work, result)), indent=1, ensure_ascii=False)))
    else:
        print(format_plan(work, result, calibration))
    return 0
