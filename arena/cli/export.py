"""``arena export``: an experiment's pairs as LingEval97 or DistilLingEval test sets,
so that external scorers can be used (and their scores read back by ``arena evaluate``),
or a finished run's results as tidy tables (CSV, Parquet, JSON lines) for pandas."""

from __future__ import annotations

import shlex
from pathlib import Path

from arena.cli import UsageError, add_verb
from arena.text_policy import visible

EXAMPLES = """
  # the pairs a finished (or started) run played (arena evaluate --help: scoring them)
  arena export runs/quickstart-100a898585 --format lingeval97 --out exported/
  arena export runs/quickstart-100a898585 --format distil-lingeval --out exported/
  # the pairs an experiment would play (Johns and Zelligs only; no Claude is built)
  arena export experiments/quickstart.yaml --format lingeval97 --out planned/ --set seeds=[1,2]
  # a finished run's rounds × judgements, cells and leaderboards as tidy tables
  arena export runs/quickstart-100a898585 --format csv --out tables/
  arena export runs/quickstart-100a898585 --format parquet --out tables/"""

DESCRIPTION = """Write an experiment's pairs as LingEval97 test sets (one JSON per John, with the
.en/.de plaintext in json_to_plaintext.py order) or as DistilLingEval directories (one
ZELLIG.JOHN directory per Zellig and John, with src.en, tgt.correct.de, tgt.incorrect.de).
RUN_OR_CONFIG is a run directory (its rounds.jsonl) or an experiment YAML (its rounds are
planned as `arena run` plans them).  Rounds without a pair are counted, and a pair played
under several seeds is written once.  An export.json manifest lists what was written.

--format csv|parquet|jsonl writes a finished run's results as tidy tables into --out:
rounds.EXT (one row per judged round × Claude: ids, performers, seed, phenomenon,
texts, choice, correct, scores, metadata columns), cells.EXT (one row per John ×
Zellig × Claude × seed of scores.json) and leaderboards.EXT; each loads with one
pandas.read_csv / read_parquet / read_json(lines=True) call.  Columns: docs/exports.md."""


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers,
        "export",
        "write a run's tidy tables (csv, parquet, jsonl) or its pairs as LingEval97 / DistilLingEval test sets",
        EXAMPLES,
        description=DESCRIPTION,
    )
    parser.add_argument("source", metavar="RUN_OR_CONFIG", help="a run directory or an experiment YAML file")
    parser.add_argument("--format", required=True, choices=("lingeval97", "distil-lingeval", "csv", "parquet", "jsonl"),
                        help="test sets for external scorers (lingeval97, distil-lingeval) or tidy tables of a "
                             "finished run (csv, parquet, jsonl)")
    parser.add_argument("--out", required=True, metavar="DIR", help="the directory to write into (created if needed)")
    parser.add_argument("--force", action="store_true", help="overwrite files an earlier export wrote")
    parser.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE", help="override a config key"
    )
    parser.set_defaults(func=run)


def _records(args):
    from arena.formats.export import read_round_records

    source = Path(args.source)
    if source.is_dir():
        if args.overrides:
            raise UsageError("--set applies to an experiment YAML, not to a run directory")
        rounds = source / "rounds.jsonl"
        if not rounds.exists():
            raise UsageError(f"{source}: no rounds.jsonl; not a (started) run directory")
        if (source / "manifest.json").exists():  # a run of arena: verified (damage refused, naming file and line)
            from arena.record.run_dir import RunDir

            RunDir.open(source)
        return list(read_round_records(rounds))
    if not source.exists():
        raise UsageError(f"{source}: no such run directory or experiment file")
    from arena.cli import catalog
    from arena.codec import dump
    from arena.engine import InProcessBackend, plan_experiment
    from arena.specs.config import load_experiment

    experiment = load_experiment(source, args.overrides)
    backend = InProcessBackend(catalog())
    try:
        rounds = plan_experiment(experiment, catalog(), backend)
    finally:
        backend.close()
    return [(f"{source}: round {r.id}", dump(r)) for r in rounds]


def tidy(args) -> int:
    from arena.present.tidy import write_tables

    source = Path(args.source)
    if not source.is_dir():
        raise UsageError(f"{source}: --format {args.format} exports a finished run directory, not a config")
    if args.overrides:
        raise UsageError("--set applies to an experiment YAML, not to a run directory")
    paths = write_tables(source, Path(args.out), args.format, force=args.force)
    for name, path in paths.items():
        print(f"wrote {path} ({name})")
    read = {"csv": "pd.read_csv({!r})", "parquet": "pd.read_parquet({!r})", "jsonl": "pd.read_json({!r}, lines=True)"}
    print("load with: import pandas as pd; " + read[args.format].format(str(paths["rounds"])))
    return 0


def run(args) -> int:
    from arena.cli import check_output
    from arena.formats.export import MANIFEST, collect, export
    from arena.present.tidy import TIDY_FORMATS

    check_output(args.out, "directory")
    if args.format in TIDY_FORMATS:
        return tidy(args)
    collected = collect(_records(args))
    written = export(collected, args.out, args.format, force=args.force)
    without = sum(collected.without_pair.values())
    detail = ", ".join(f"{status} {count}" for status, count in sorted(collected.without_pair.items()))
    print(f"{collected.rounds} rounds" + (f", {without} without a pair ({detail})" if without else ""))
    for item in written:
        phenomena = ", ".join(f"{name} {count}" for name, count in sorted(item.phenomena.items()))
        what = f"John {item.john}" + (f", Zellig {item.zellig}" if item.zellig else "")
        print(visible(f"wrote {item.path}: {item.sentences} sentences, {item.pairs} pairs ({phenomena}) — {what}"))
        if item.unwritable:
            first = next(iter(item.unwritable.values()))
            print(f"  left out {len(item.unwritable)} pair(s) that cannot be written as lines, e.g. {visible(str(first))}")
    if collected.dropped_annotations:
        print(f"dropped {collected.dropped_annotations} distance/frequency annotations that are no number")
    print(f"manifest: {Path(args.out) / MANIFEST}")
    if written:
        item = written[0]
        if args.format == "lingeval97":
            base = item.path.with_suffix("")
            categories = " ".join(sorted(item.phenomena))
            print(
                f"next: score {base}.de given {base}.en (one score per line), then\n"
                f"  arena evaluate --format lingeval97 -r {shlex.quote(str(item.path))} --scores SCORES "
                f"[--maximize] --categories {categories}"
            )
        else:
            print(
                f"next: score tgt.correct.de and then tgt.incorrect.de of {item.path} given src.en, then\n"
                f"  arena evaluate --format distil-lingeval --testset {shlex.quote(str(item.path))} --scores SCORES"
            )
    return 0
