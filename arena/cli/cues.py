"""``arena cues``: how well Claudes that see no translation model (length, the edit's words, a
source-blind German LM) solve a test set or a run's pairs, out of fold, with a verdict per set
and phenomenon."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from arena.cli import add_verb
from arena.errors import ArenaError, DataError, UsageError

logger = logging.getLogger(__name__)

DESCRIPTION = """\
A cue audit (issue 25).  Each surface Claude judges every pair out of fold: the pairs are split
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
  arena cues runs/quickstart-1a2b3c4d5e                  # a run or tournament directory
  arena cues --testset ../shared/data/distil-lingeval/np_agreement.mt --cue length --cue edit-words"""


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
    parser.add_argument("--folds", type=int, default=5, help="cross-validation folds (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of sides and folds (default 0)")
    parser.add_argument("--threshold", type=float, default=0.75, help="a cue this accurate confounds (default 0.75)")
    parser.add_argument("--json", metavar="FILE", help="write the audit as JSON (one object per set and "
                        "phenomenon; a list when there are several)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar while target-lm is built")
    parser.set_defaults(func=run)


def factories(names: Sequence[str] | None = None, strict: bool = True) -> dict[str, Callable[[], Any]]:
    """Builders of the surface Claudes ``names`` (default: the catalog's ``SURFACE_CUES``).  A cue
    that cannot be built is an error, or (``strict=False``, for reports) left out with a warning."""
    from arena.cli import catalog
    from arena.specs.registry import build, validate
    from arena.specs.spec import PerformerSpec
    from performers.catalog import SURFACE_CUES

    result: dict[str, Callable[[], Any]] = {}
    for name in names or SURFACE_CUES:
        spec = PerformerSpec(name, {})
        validate("claude", spec, catalog(), where=f"--cue {name}")
        if name not in SURFACE_CUES:
            raise UsageError(f"--cue {name}: not a surface Claude; choose from {', '.join(SURFACE_CUES)}", key="--cue")
        try:
            built = build("claude", spec, catalog(), where=f"cue {name}")
        except ArenaError as error:
            if strict:
                raise
            logger.warning("surface cue %s left out: %s", name, error)
            continue
        # a cue that is not fitted is built once (target-lm loads its model once); fitted ones per fold
        result[name] = (lambda built=built: built) if not hasattr(built, "fit") else \
            (lambda spec=spec: build("claude", spec, catalog()))
    return result


def surface_cues(strict: bool = False) -> Any:
    """The catalog's surface Claudes for a report's *Surface cues* section (a cue that cannot be
    built, e.g. target-lm without its corpus, is left out with a warning)."""
    from arena.present.cues import SurfaceCues
    from performers.catalog import NOT_COMPARED_WITH_CUES

    return SurfaceCues(factories(strict=strict), NOT_COMPARED_WITH_CUES)


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

    from arena.cli import check_output
    from arena.present import cues as present
    from arena.stats import cue_items, cues
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
    tables = cues.audit(data, factories(args.cue), folds=args.folds, seed=args.seed, threshold=args.threshold)
    print(present.console(tables, data.skipped))
    if args.json:
        objects = [table.to_json() for table in tables]
        Path(args.json).write_text(json.dumps(objects[0] if len(objects) == 1 else objects, indent=2,
                                              ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    return 0
