"""``arena run``: play an experiment and print its scores."""

from __future__ import annotations

from pathlib import Path

from arena.cli import add_verb, catalog

EXAMPLES = """
  arena run experiments/quickstart.yaml
  arena run experiments/quickstart.yaml --out /tmp/runs --set seeds=[1,2,3]
  arena run my.yaml --set claudes.0.params.device=cuda --set max_instances=200
Re-running an interrupted run resumes it; a finished run is shown, never overwritten.
'arena run' and 'arena tournament' are two front ends of one engine: the same
transcripts; this one prints the scores, the other the leaderboards and plots."""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "run", "play an experiment (YAML) and print S with its signature", EXAMPLES)
    parser.add_argument("config", help="experiment YAML file")
    parser.add_argument("--out", default="runs", help="directory under which the run directory is made (default: runs)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (dotted keys, repeatable)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(func=run)


def run(args) -> int:
    from arena import engine
    from arena.config import load_experiment
    from arena.summary import format_scores

    experiment = load_experiment(args.config, args.overrides)
    result = engine.run(experiment, catalog(), Path(args.out), experiment.executor, progress=not args.no_progress)
    if result.already_finished:
        print(f"run {result.run_dir} is already finished; its scores (rebuild with 'arena score {result.run_dir}'):")
    else:
        print(f"run directory: {result.run_dir}{' (resumed)' if result.resumed else ''}")
    print(format_scores(result.scores))
    return 0
