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
the strongest cue, the strong cues (interval wholly above --threshold or wholly below 1 - it) with
their kinds, and the verdict: 'too few pairs' under 30 pairs; 'confounded' for a strong nuisance
cue (length); 'edit-identity' (edit-words: learnable by an observing Claude) and 'target-only'
(target-lm: measures fluency, not adequacy) under their own names.  On a run each Claude is set
beside the strongest cue, on all pairs and on the cue-hard pairs (paired sign test).  Input: a
DistilLingEval set or a directory of sets, a LingEval97 JSON file, a run or tournament directory,
or your own pairs (--pairs FILE, read as score-pairs reads them, one table per phenomenon column
value; --columns maps column names)."""

EXAMPLES = """
  arena cues --format distil-lingeval --testset ../shared/data/distil-lingeval/placeholder_ding.human
  arena cues --format distil-lingeval --testset ../shared/data/distil-lingeval --json cues.json
  arena cues --format lingeval97 --testset lingeval97.json
  arena cues runs/quickstart-100a898585                  # a run or tournament directory
  arena cues --pairs experiments/own-pairs/pairs.tsv --cue length --cue edit-words
  arena cues --pairs mine.csv --columns source=en,correct=good,incorrect=bad,phenomenon=category
  arena cues --testset ../shared/data/distil-lingeval/np_agreement.mt --cue length --cue edit-words
  arena cues --testset ../shared/data/distil-lingeval --kind nuisance      # the nuisance cues only
  arena cues --testset ../shared/data/distil-lingeval/placeholder_ding.human --balance length --cue length"""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "cues", "surface-cue audit of a test set or run: cheap Claudes out of fold, "
                      "and which sets they explain", EXAMPLES, description=DESCRIPTION)
    parser.add_argument("run_dir", metavar="RUN", nargs="?", help="a run or tournament directory")
    parser.add_argument("--format", choices=("distil-lingeval", "lingeval97", "run", "pairs"),
                        help="format of --testset (default: guessed from the path)")
    parser.add_argument("--testset", metavar="PATH", help="a DistilLingEval set directory (or a directory of "
                        "sets), or a LingEval97 JSON file")
    parser.add_argument("--pairs", metavar="FILE", help="own pairs: .tsv, .csv, .jsonl, .parquet or a datasets "
                        "directory, as score-pairs reads them")
    parser.add_argument("--columns", metavar="MAP", help="with --pairs: source=COL,correct=COL,incorrect=COL,id=COL,"
                        "phenomenon=COL")
    parser.add_argument("--cue", action="append", metavar="NAME",
                        help="a surface Claude of the catalog (repeatable; default: length, edit-words, target-lm)")
    parser.add_argument("--kind", action="append", metavar="KIND",
                        help="only the cues of this kind (repeatable): nuisance, edit-identity, target-only")
    parser.add_argument("--folds", type=integer(2, 100), default=5, help="cross-validation folds, 2-100 (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of sides and folds (default 0)")
    parser.add_argument("--threshold", type=float, default=0.75, help="a cue is strong when its 95%% interval lies "
                        "wholly above this or wholly below 1 minus it, in (0.5, 1) (default 0.75)")
    parser.add_argument("--json", metavar="FILE", help="write the audit as JSON (one object per set and "
                        "phenomenon; a list when there are several)")
    parser.add_argument("--balance", metavar="CUE", help="subsample the pairs so that CUE (length) sits at chance, "
                        "per set and phenomenon, as a John's balance: does in a run, and report the cost in n and "
                        "the cue's residual accuracy (a run is audited as it was played; its balance is reported)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar while target-lm is built")
    parser.set_defaults(func=run)


def _input(args) -> tuple[str, Path]:
    given = [key for key, value in (("RUN", args.run_dir), ("--testset", args.testset), ("--pairs", args.pairs))
             if value]
    if len(given) > 1:
        raise UsageError(f"give one of a RUN directory, --testset or --pairs, not {' and '.join(given)}",
                         key=given[-1])
    if not given:
        raise UsageError("give a RUN directory or --testset PATH or --pairs FILE", key="--testset",
                         hint="e.g. arena cues --format distil-lingeval --testset ../shared/data/distil-lingeval")
    if args.columns and not args.pairs:
        raise UsageError("--columns goes with --pairs", key="--columns")
    if args.pairs and args.format not in (None, "pairs"):
        raise UsageError(f"--pairs is own pairs, not --format {args.format}", key="--format")
    path = Path(args.run_dir or args.testset or args.pairs)
    if not path.exists():
        raise UsageError(f"{path}: no such file or directory", file=path, key=given[0])
    if args.pairs or args.format == "pairs":
        return "pairs", path
    if args.format:
        return args.format, path
    if (path / "manifest.json").is_file():
        return "run", path
    return ("lingeval97" if path.is_file() else "distil-lingeval"), path


def _factories(args, cue_factories) -> dict:
    """The surface Claudes asked for (``--cue``), kept to the kinds asked for (``--kind``)."""
    from arena.stats import cue_kinds

    names = args.cue or list(cue_kinds.KINDS)
    for name in names:
        if name not in cue_kinds.KINDS:
            raise UsageError(f"--cue {name}: not a surface Claude; choose from {', '.join(cue_kinds.KINDS)}",
                             key="--cue")
    for kind in args.kind or ():
        cue_kinds.check_kind(kind, names)
    if args.kind:
        names = [n for n in names if cue_kinds.kind_of(n) in args.kind]
    return cue_factories(names)


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
    if not 0.5 < args.threshold < 1:
        raise UsageError(f"--threshold must be in (0.5, 1), not {args.threshold}", key="--threshold")
    factories = _factories(args, cue_factories)
    data = cue_items.load(kind, path, NOT_COMPARED_WITH_CUES, columns=args.columns)
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
    tables = cues.audit(data, factories, folds=args.folds, seed=args.seed, threshold=args.threshold)
    cue_balance.attach(tables, data)
    print(present.console(tables, data.skipped, cue_balance.emptied(data)))
    if args.json:
        from arena.codec import dump

        objects = [dump(table.record()) for table in tables]
        Path(args.json).write_text(json.dumps(objects[0] if len(objects) == 1 else objects, indent=2,
                                              ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    return 0
