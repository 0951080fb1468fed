"""``arena leaderboard``: leaderboards per role and plots of a finished run."""

from __future__ import annotations

from pathlib import Path

from arena.cli import add_verb
from arena.errors import UsageError

EXAMPLES = """
  arena leaderboard runs/tournament-1a2b3c4d5e
  arena leaderboard runs/tournament-1a2b3c4d5e --json
  arena leaderboard runs/quickstart-1a2b3c4d5e --no-plots"""


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers, "leaderboard",
        "Claudes, Zelligs (per Claude) and Johns ranked by S with CIs and paired tests; writes RUN/report/",
        EXAMPLES,
    )
    parser.add_argument("run_dir", metavar="RUN", help="a finished run directory (arena run or arena tournament)")
    parser.add_argument("--json", action="store_true", help="print the leaderboards as JSON")
    parser.add_argument("--no-plots", action="store_true", help="do not (re)draw the PNG plots")
    parser.set_defaults(func=run)


def run(args) -> int:
    import json

    from arena.engine import transcripts
    from arena.present.leaderboards import build, format_leaderboards, write_report

    run_dir = Path(args.run_dir)
    if not transcripts.is_finished(run_dir):
        raise UsageError(f"{run_dir}: not a finished run (no {transcripts.SCORES}); finish or resume it first")
    paths = write_report(run_dir, plots=not args.no_plots)
    boards = build(run_dir)
    print(json.dumps(boards, ensure_ascii=False, indent=2) if args.json else format_leaderboards(boards))
    if not args.json:
        print("report: " + ", ".join(str(path) for path in paths.values()))
    return 0
