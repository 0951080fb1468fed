"""``arena report``: (re)build a run's report.md and self-contained report.html, or put
several runs side by side."""

from __future__ import annotations

from pathlib import Path

from arena.cli import add_verb
from arena.errors import UsageError

EXAMPLES = """
  arena report runs/quickstart-100a898585                 # rebuild RUN/report.md and RUN/report.html
  arena report runs/quickstart-100a898585 runs/quick/quickstart-c75560a1e7 --out compare/   # two runs side by side
  arena report runs/quickstart-100a898585 --no-plots      # tables only (faster)
  arena report runs/quickstart-100a898585 --tokens        # misjudged pairs with the token the model blames"""

DESCRIPTION = """Write report.md and a self-contained report.html (plots embedded, no network
needed to view it): the signature, S and contrastive accuracy with 95% CIs, the
leaderboards with paired tests, per-phenomenon and metadata breakdowns, discrepancy
and generative rate, the S timeline of a game, plots, and misjudged pairs with the
edit highlighted.  With one RUN the files go into the run directory (arena run and
arena tournament write them there at the end); with several, --out names the
directory of the side-by-side report."""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "report", "write report.md and a self-contained report.html of finished runs",
                      EXAMPLES, description=DESCRIPTION)
    parser.add_argument("run_dirs", metavar="RUN", nargs="+", help="finished run directories")
    parser.add_argument("--out", metavar="DIR", help="where to write (default: the run directory; required for several runs)")
    parser.add_argument("--no-plots", action="store_true", help="no plots")
    parser.add_argument("--tokens", action="store_true", help="show per misjudged pair the token the model blames "
                        "(rebuilds the run's scoring Claudes once; kept in RUN/report/tokens.jsonl)")
    parser.set_defaults(func=run)


def run(args) -> int:
    from arena.api import surface_cues
    from arena.cli import check_output
    from arena.present.report import write_reports

    if args.out:
        check_output(args.out, "directory")
    for run_dir in args.run_dirs:
        if not Path(run_dir).is_dir():
            raise UsageError(f"{run_dir}: no such run directory")
    if args.tokens:
        from arena.cli import catalog
        from arena.present.report import misjudged_pairs
        from arena.run_tokens import compute_tokens
        from arena.stats.run import RunData

        for run_dir in args.run_dirs:
            compute_tokens(Path(run_dir), misjudged_pairs(RunData.open(run_dir)), catalog())
    markdown, html = write_reports([Path(d) for d in args.run_dirs], Path(args.out) if args.out else None,
                                   plots=not args.no_plots, cues=surface_cues())
    print(f"report: {markdown}, {html}")
    return 0
