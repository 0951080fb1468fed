"""``arena leaderboard``: leaderboards per role and plots of a finished run."""

from __future__ import annotations

from pathlib import Path

from arena.cli import add_verb

EXAMPLES = """
  arena leaderboard runs/tournament-smoke-c6bdb5defb
  arena leaderboard runs/tournament-smoke-c6bdb5defb --json
  arena leaderboard runs/quickstart-100a898585 --no-plots"""


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

    from arena.codec import dump
    from arena.present.console import format_leaderboards
    from arena.present.report import report_input, write_report_dir

    data = report_input(Path(args.run_dir))
    paths = write_report_dir(data, plots=not args.no_plots)
    from arena.text_policy import json_visible

    print(json_visible(json.dumps(dump(data.boards), ensure_ascii=False, indent=2)) if args.json
          else format_leaderboards(data.boards))
    if not args.json:
        print("report: " + ", ".join(str(path) for path in paths.values()))
    return 0
