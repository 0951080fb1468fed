"""``arena transfer``: play model-consulting Zelligs tuned against each of several Claudes,
judged by all of them, and write the transfer matrix (``transfer.json``)."""

from __future__ import annotations

import os
import resource
import sys
import time
from itertools import islice

from arena.cli import add_verb

EXAMPLES = """
  arena transfer experiments/game/transfer.yaml
  arena transfer experiments/game/transfer.yaml --plan          # count the work; nothing is played
  arena transfer experiments/game/transfer.yaml --set max_instances=20 --set seeds=[1,2] --executor ray
The config is a game config whose Zelligs are given in a 'transfer:' block (each with its untuned
'base'); every Zellig is played once per Claude it is tuned against (NAME@CLAUDE) and once untuned
(NAME@base), in one run judged by every Claude (docs/game.md, Transfer).  The run directory gets
transfer.json (the matrix), transfer-summary.json (diagonal/off-diagonal gains, the transfer ratio,
S over seeds, trends over seeds), transfer-plan.json and a report with the Transfer section and
report/transfer.png."""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "transfer",
                      "does a Zellig tuned against one Claude fool the others? the transfer matrix over seeds",
                      EXAMPLES)
    parser.add_argument("config", help="transfer config (a game config with a 'transfer:' block)")
    parser.add_argument("--out", default="runs", help="directory under which the run directory is made (default: runs)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (dotted keys, repeatable)")
    parser.add_argument("--executor", choices=("ray", "in-process"), default="in-process",
                        help="where the work runs (default: in-process; ray gives byte-identical transcripts)")
    parser.add_argument("--plan", action="store_true", help="print the plan (counts) and stop; nothing is played")
    parser.add_argument("--no-plots", action="store_true", help="no PNG plots")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(func=run)


def plan_text(experiment, plan, catalog) -> str:
    """What the transfer will play, counted before anything is loaded (a John's instances
    are counted up to ``max_instances``)."""
    from arena.specs.registry import build

    lines = []
    per_john = []
    for spec in experiment.johns:
        john = build("john", spec, catalog, where=f"john {spec.label}")
        per_john.append(sum(1 for _ in islice(john.instances(), experiment.max_instances)))
    instances, seeds, claudes = sum(per_john), len(experiment.seeds), len(experiment.claudes)
    zelligs = len(experiment.zelligs)
    rounds = zelligs * instances * seeds * experiment.variants_per_instance
    cells = len(plan.zelligs) * len(plan.tuned_against) * len(plan.claudes)
    lines.append(f"transfer plan: {len(plan.zelligs)} Zelligs ({', '.join(plan.zelligs)}) × "
                 f"{len(plan.tuned_against)} Claudes tuned against + {len(set(plan.bases.values()))} untuned "
                 f"base(s) = {zelligs} Zelligs; {claudes} Claudes judge ({', '.join(plan.claudes)}); "
                 f"{seeds} seeds ({', '.join(map(str, experiment.seeds))})")
    lines.append(f"  instances per seed: {instances}; rounds at most {zelligs} × {instances} × {seeds} = {rounds:,}; "
                 f"judgements at most {rounds * claudes:,}")
    lines.append(f"  matrix: {cells} cells (Zellig × tuned against × judged by), "
                 f"{len(plan.zelligs) * len(plan.tuned_against)} diagonal (self)")
    for spec in experiment.zelligs:
        budget = spec.params.get("budget")
        if budget is not None:
            lines.append(f"  {spec.label}: at most {budget} model queries per instance, {budget * instances:,} in all "
                         "(scores are cached per model, source and candidate: seeds and judges reuse them)")
    return "\n".join(lines)


def run(args) -> int:
    from arena import api
    from arena.engine import validate
    from arena.game.judges import check_learn_from
    from arena.present.report import REPORT_DIR, write_reports
    from arena.record import transcripts
    from arena.specs.transfer import PLAN_FILE, load_transfer
    from arena.stats.run import RunData
    from arena.stats.transfer import transfer_matrix

    catalog = api.catalog()
    experiment, plan = load_transfer(args.config, catalog, tuple(args.overrides))
    validate(experiment, catalog)  # every performer and its params, as arena validate checks them
    check_learn_from(experiment, catalog)
    print(plan_text(experiment, plan, catalog), flush=True)
    if args.plan:
        return 0
    started, cpu = time.monotonic(), _cpu_seconds()
    try:
        result = api.play(experiment, args.out, args.executor, progress=not args.no_progress)
    except KeyboardInterrupt:
        print("arena transfer: interrupted; finished blocks are kept — re-run the same command to continue",
              file=sys.stderr)
        return 130
    from arena.codec import dump

    run_dir = result.run_dir
    transcripts.atomic_write_json(run_dir / PLAN_FILE, dump(plan))
    data = RunData.open(run_dir, finished=True)
    matrix, summary = transfer_matrix(data.outcomes, plan, data.samples)
    transcripts.atomic_write_json(run_dir / "transfer.json", matrix)
    transcripts.atomic_write_json(run_dir / "transfer-summary.json", summary)
    markdown, html = write_reports([run_dir], plots=not args.no_plots)
    print(f"run directory: {run_dir}")
    print(format_matrix(matrix, summary))
    if not result.already_finished:
        load = os.getloadavg()
        print(f"cost: {(_cpu_seconds() - cpu) / 60:.1f} CPU-minutes (this process and its children), "
              f"{(time.monotonic() - started) / 60:.1f} minutes wall, load average {load[0]:.1f} ({args.executor})")
    print(f"transfer: {run_dir / 'transfer.json'}; report: {markdown}, {html} "
          f"(heat map: {run_dir / REPORT_DIR / 'transfer.png'})")
    return 0


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def format_matrix(matrix, summary) -> str:
    """The gain matrix per Zellig and the transfer ratios, as text."""
    from arena.present.tables import fmt, fmt_ci

    lines = []
    for family in matrix["zelligs"]:
        cells = [c for c in matrix["cells"] if c["zellig"] == family]
        judges = matrix["claudes"]
        lines.append(f"{family}: gain over the base (S(base) − S(tuned)), tuned against (rows) × judged by (columns)")
        lines.append("  " + " " * 22 + "".join(f"{j[:20]:>22s}" for j in judges))
        for tuned in dict.fromkeys(c["tuned_against"] for c in cells):
            row = {c["judged_by"]: c for c in cells if c["tuned_against"] == tuned}
            lines.append(f"  {tuned[:20]:22s}" + "".join(
                f"{(fmt(row[j]['gain_vs_base']) + ' n=' + str(row[j]['n'])) if j in row else '-':>22s}" for j in judges))
        r = summary["ratios"][family]
        lines.append(f"  diagonal {fmt(r.get('diagonal_gain'))} {fmt_ci(r.get('diagonal_ci'))}, off-diagonal "
                     f"{fmt(r.get('off_diagonal_gain'))} {fmt_ci(r.get('off_diagonal_ci'))}, transfer ratio "
                     f"{fmt(r.get('transfer_ratio'))} {fmt_ci(r.get('ratio_ci'))}")
        t = summary["trends"][family]["slope"]
        lines.append(f"  trend over seeds: mean slope {fmt(t['mean'])} per 100 rounds {fmt_ci(t['ci'])}, p = {fmt(t['p'])}")
    return "\n".join(lines)
