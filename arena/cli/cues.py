"""``arena cues``: how well Claudes that see no translation model (length, the edit's words, a
source-blind German LM) solve a test set or a run's pairs, out of fold, with a verdict per set
and phenomenon."""

from __future__ import annotations

import logging
from pathlib import Path

from arena.cli import add_verb
from arena.cli.ranges import integer
from arena.errors import DataError, UsageError

logger = logging.getLogger(__name__)

DESCRIPTION = """\
A cue audit.  Each surface Claude judges every pair out of fold: the pairs are split
into --folds folds by instance (source sentence), a fitted cue (length, edit-words) is fitted on
the other folds, target-lm (a German LM trained on ../shared/data/parallel-toy/train.de) judges
as it is.  Per set and phenomenon it prints each cue's accuracy with a 95% Wilson interval and n,
the strongest cue and the verdict 'confounded' (strongest cue >= --threshold, or, on a run, above
chance and not significantly below the run's best Claude by a paired sign test).  Input: a
DistilLingEval set or a directory of sets, a LingEval97 JSON file, a run or tournament directory."""

EXAMPLES = """
  arena cues --format distil-lingeval --testset ../shared/data/distil-lingeval/placeholder_ding.human
  arena cues --format distil-lingeval --testset ../shared/data/distil-lingeval --json cues.json
  arena cues --format lingeval97 --testset lingeval97.json
  arena cues runs/quickstart-100a898585                  # a run or tournament directory
  arena cues --testset ../shared/data/distil-lingeval/np_agreement.mt --cue length --cue edit-words
  arena cues --testset ../shared/data/distil-lingeval/placeholder_ding.human --balance length --cue length"""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "cues", "surface-cue audit of a test set or run: cheap Claudes out of fold, "
                      "and which sets they explain", EXAMPLES, description=DESCRIPTION)
    parser.add_argument("run_dir", metavar="RUN", nargs="?", help="a run or tournament directory")
    parser.add_argument("--format", choices=("distil-lingeval", "lingeval97", "run"),
                        help="format of --testset (default: guessed from the path)")
    parser.add_argument("--testset", metavar="PATH", help="a DistilLingEval set directory (or a directory of "
                        "sets), or a LingEval97 JSON file")
    parser.add_argument("--cue", action="append", metavar="NAME",
                        help="a surface Claude of the catalog (repeatable; default: length, edit-words, target-lm)")
    parser.add_argument("--folds", type=integer(2, 100), default=5, help="cross-validation folds, 2-100 (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of sides and folds (default 0)")
    parser.add_argument("--threshold", type=float, default=0.75, help="a cue this accurate confounds (default 0.75)")
    parser.add_argument("--json", metavar="FILE", help="write the audit as JSON (one object per set and "
                        "phenomenon; a list when there are several)")
    parser.add_argument("--balance", metavar="CUE", help="subsample the pairs so that CUE (length) sits at chance, "
                        "per set and phenomenon, as a John's balance: does in a run, and report the cost in n and "
                        "the cue's residual accuracy (a run is audited as it was played; its balance is reported)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar while target-lm is built")
    parser.set_defaults(func=run)


def _input(args) -> tuple[str, Path]:
    if args.run_dir and args.testset:
        raise UsageError("give a RUN directory or --testset, not both", key="--testset")
    if not args.run_dir and not args.testset:
        raise UsageError("give a RUN directory or --testset PATH", key="--testset",
                         hint="e.g. arena cues --format distil-lingeval --testset ../shared/data/distil-lingeval")
    path = Path(args.run_dir or args.testset)
    if not path.exists():
        raise UsageError(f"{path}: no such file or directory", file=path, key="RUN" if args.run_dir else "--testset")
    if args.format:
        return args.format, path
    if (path / "manifest.json").is_file():
        return "run", path
    return ("lingeval97" if path.is_file() else "distil-lingeval"), path


def run(args) -> int:
    import json

    from arena.api import cue_factories
    from arena.cli import check_output
    from arena.present import cues as present
    from arena.stats import cue_balance, cue_items, cues
    from performers.catalog import NOT_COMPARED_WITH_CUES

    kind, path = _input(args)
    if args.json:
        check_output(args.json, "file")
    if not 0 < args.threshold <= 1:
        raise UsageError(f"--threshold must be in (0, 1], not {args.threshold}", key="--threshold")
    data = cue_items.load(kind, path, NOT_COMPARED_WITH_CUES)
    if not data.items:
        raise DataError(f"{path}: no pair of two candidates to audit", file=path,
                        key="RUN" if kind == "run" else "--testset")
    if args.balance:
        if kind == "run":
            raise UsageError("--balance is for a test set; a run is balanced by its John's 'balance:' and its "
                             "audit reports that balance", key="--balance")
        data = cue_balance.balance_input(data, args.balance, args.seed)
        if not data.items:
            raise DataError(f"--balance {args.balance} leaves no pair to audit: "
                            + "; ".join(f"{k[0]}: {s.note}" for k, s in sorted(data.balance.items())),
                            file=path, key="--balance")
    tables = cues.audit(data, cue_factories(args.cue), folds=args.folds, seed=args.seed, threshold=args.threshold)
    cue_balance.attach(tables, data)
    print(present.console(tables, data.skipped, cue_balance.emptied(data)))
    if args.json:
        objects = [table.to_json() for table in tables]
        Path(args.json).write_text(json.dumps(objects[0] if len(objects) == 1 else objects, indent=2,
                                              ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    return 0
