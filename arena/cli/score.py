"""``arena score``: rebuild a run's scores from its transcripts."""

from __future__ import annotations

from pathlib import Path

from arena.cli import add_verb
from arena.errors import UsageError

EXAMPLES = """
  arena score runs/quickstart-100a898585
  arena score runs/quickstart-100a898585 --json"""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "score", "rebuild scores.json from a run's transcripts and print it", EXAMPLES)
    parser.add_argument("run_dir", metavar="RUN", help="a run directory")
    parser.add_argument("--json", action="store_true", help="print scores.json instead of tables")
    parser.set_defaults(func=run)


def run(args) -> int:
    import json

    from arena.codec import dump
    from arena.present.console import format_scores
    from arena.record import transcripts
    from arena.stats.results import write_scores
    from arena.stats.streamed import score_run

    run_dir = Path(args.run_dir)
    for name in (transcripts.MANIFEST, transcripts.ROUNDS):
        if not (run_dir / name).exists():
            raise UsageError(f"{run_dir}: no {name}; not a (started) run directory")
    if not (run_dir / transcripts.JUDGEMENTS).exists():
        raise UsageError(f"{run_dir}: no {transcripts.JUDGEMENTS} yet (it is assembled from cells/ when every cell "
                         "is played); re-run the run to finish it")
    scores = score_run(run_dir)
    if transcripts.is_finished(run_dir):
        write_scores(run_dir, scores)
    else:
        import sys

        print(f"note: {run_dir} is not finished (re-run it to resume); these scores cover the transcripts so far "
              "and are not saved", file=sys.stderr)
    from arena.text_policy import json_visible

    print(json_visible(json.dumps(dump(scores), ensure_ascii=False, indent=2)) if args.json else format_scores(scores))
    return 0
