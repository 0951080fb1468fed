"""``arena run``: play an experiment and print its scores."""

from __future__ import annotations

from arena.cli import add_verb

EXAMPLES = """
  arena run experiments/quickstart.yaml
  arena run experiments/quickstart.yaml --limit 50 --no-1best      # a quick look at S only
  arena run experiments/quickstart.yaml --out /tmp/runs --set seeds=[1,2,3]
  arena run my.yaml --set claudes.0.params.device=cuda --set max_instances=200
Re-running an interrupted run resumes it; a finished run is shown, never overwritten.
At the end RUN/report.md and a self-contained RUN/report.html are written (see 'arena report').
'arena run' and 'arena tournament' are two front ends of one engine: the same
transcripts; this one prints the scores, the other the leaderboards and plots."""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "run", "play an experiment (YAML) and print S with its signature", EXAMPLES)
    parser.add_argument("config", help="experiment YAML file")
    parser.add_argument("--out", default="runs", help="directory under which the run directory is made (default: runs)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (dotted keys, repeatable)")
    add_quick_options(parser)
    parser.add_argument("--no-report", action="store_true", help="do not write report.md / report.html")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(func=run)


def add_quick_options(parser) -> None:
    """``--limit`` and ``--no-1best`` (``arena run`` and ``arena tournament``)."""
    parser.add_argument("--limit", type=int, metavar="N",
                        help="at most N instances per John (the same as --set max_instances=N)")
    parser.add_argument("--no-1best", dest="no_one_best", action="store_true",
                        help="skip the 1-best decoding when only S and accuracy are wanted: no discrepancy, no "
                             "generative rate (the same as --set discrepancy=false)")


def quick_overrides(args) -> list[str]:
    """``--set`` overrides with those of ``--limit`` and ``--no-1best`` appended."""
    from arena.cli import UsageError

    overrides = list(args.overrides)
    if args.limit is not None:
        if args.limit < 1:
            raise UsageError(f"--limit {args.limit}: must be at least 1")
        overrides.append(f"max_instances={args.limit}")
    if args.no_one_best:
        overrides.append("discrepancy=false")
    return overrides


def run(args) -> int:
    """``arena run`` is :func:`arena.api.run`, the function a notebook calls."""
    from arena import api
    from arena.present.console import format_scores
    from arena.specs.config import load_experiment

    experiment = load_experiment(args.config, quick_overrides(args))
    result = api.run(experiment, out=args.out, progress=not args.no_progress, report=not args.no_report)
    if result.already_finished:
        print(f"run {result.run_dir} is already finished; its scores (rebuild with 'arena score {result.run_dir}'):")
    else:
        print(f"run directory: {result.run_dir}{' (resumed)' if result.resumed else ''}")
    print(format_scores(result.scores))
    if result.reports:
        print(f"report: {', '.join(map(str, result.reports))}")
    return 0
