"""``arena build-testset``: select the instances of a John that a Zellig applies to and
write them as a contrastive test set in the reference tools' formats.

The selection (length limits, deduplication, prefilter, the Zellig applying, the
validation of machine references, caps per phenomenon with seeded stratified
sampling, variants per instance) is :func:`performers.john.selection.select`; the
files are written by :func:`performers.john.testset.write_testset`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.cli import add_verb, catalog, check_output
from arena.errors import DataError, UsageError

EXAMPLES = """
  # human references: newstest2009-2016, at most 300 sentences, stratified by test set
  arena build-testset --john newstest:dir=../shared/data/wmt/newstest,years=2009-2016 \\
      --zellig polarity-affix-del --cap 300 --out testsets/polarity_affix_del
  # machine references (Google, Microsoft, Bergamot outputs mixed per sentence), validated
  arena build-testset --zellig placeholder-ding --cap 300 --out testsets/placeholder_ding \\
      --john 'mt-reference:john="newstest:dir=../shared/data/wmt/newstest,years=2009-2016",outputs=../shared/data/wmt/mt-outputs'
  # a John from a YAML file {name, params}; only the LingEval97 JSON; every variant
  arena build-testset --john john.yaml --zellig hypercorrect-genitive --format lingeval97 \\
      --variants-per-instance all --out testsets/genitive
  # every German Zellig at once (one analysis per sentence): one test set per Zellig under testsets/all/
  arena build-testset --john newstest:dir=../shared/data/wmt/newstest,years=2009-2016 \\
      --zellig all --cap 300 --out testsets/all"""

DESCRIPTION = """Select the instances of a John that exemplify a Zellig's phenomena and write them
as a contrastive test set: per phenomenon a DistilLingEval directory PHENOMENON.KIND/
(src.en, tgt.correct.de, tgt.incorrect.de, meta.jsonl; KIND is human, mt or mixed), one
LingEval97 JSON file with origin, errors, distance and frequency, and report.json with
every count: what was selected, what was left out and why, and for machine references
the validation step of Vamvas & Sennrich (2021, §3.3) per phenomenon (kept: the MT
reference has the human reference's phenomenon-bearing words; flagged: it has the
contrastive form instead; dropped: it cannot be checked or lacks the words).

--john and --zellig take a SPEC: a catalog name with params (name:key=value,...), a
module:Class path, or a YAML file holding {name, params}.  --zellig may be repeated, and
'all' names every German Zellig; with several Zelligs each one's test set goes into
OUT/ZELLIG/, and the John's instances are read and analysed once for all of them."""


def _positive_or_all(text: str) -> int | None:
    if text.strip().lower() in ("all", "none"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"--variants-per-instance: expected a positive integer or 'all', not {text!r}") from None
    if value < 1:
        raise UsageError(f"--variants-per-instance: expected a positive integer or 'all', not {text!r}")
    return value


def add_selection_arguments(parser) -> None:
    """The selection options shared by ``build-testset`` and ``compare-johns``."""
    group = parser.add_argument_group("selection")
    group.add_argument("--cap", type=int, metavar="N", help="at most N instances per phenomenon (default: no cap)")
    group.add_argument("--seed", type=int, default=1, help="seed of the sampling (default: 1)")
    group.add_argument(
        "--stratify", default="origin", metavar="KEY",
        help="metadata key to stratify the sampling by, 'none' for no strata (default: origin, the test set)",
    )
    group.add_argument("--dedup", default="source", choices=("source", "pair", "none"),
                       help="keep the first instance of each source (default), each (source, reference), or all")
    group.add_argument("--min-words", type=int, metavar="N", help="skip sources of fewer than N words")
    group.add_argument("--max-words", type=int, metavar="N", help="skip sources of more than N words")
    group.add_argument("--variants-per-instance", default="1", metavar="N|all",
                       help="variants kept per instance and phenomenon, sampled by seed (default: 1)")
    group.add_argument("--prefilter", metavar="REGEX",
                       help="scan only references matching REGEX (a necessary condition of the Zellig applying)")
    group.add_argument("--phenomena", metavar="P,Q", help="the Zellig's phenomena, so that each is filled to its cap")
    group.add_argument("--no-validate", action="store_true", help="do not validate machine references")
    group.add_argument("--max-phrase-words", type=int, default=5, metavar="N",
                       help="validation: spans up to N words are matched verbatim, longer ones by overlap (default: 5)")
    group.add_argument("--min-overlap", type=float, default=0.5, metavar="X",
                       help="validation: Dice overlap that aligns two long spans (default: 0.5)")


def selection_options(args) -> Any:
    from performers.john.selection_records import SelectionOptions

    phenomena = tuple(p.strip() for p in args.phenomena.split(",") if p.strip()) if args.phenomena else None
    return SelectionOptions(
        cap=args.cap,
        seed=args.seed,
        stratify=None if args.stratify.lower() == "none" else args.stratify,
        dedup=args.dedup,
        min_words=args.min_words,
        max_words=args.max_words,
        variants_per_instance=_positive_or_all(args.variants_per_instance),
        validate=not args.no_validate,
        phenomena=phenomena,
        max_phrase_words=args.max_phrase_words,
        min_overlap=args.min_overlap,
        prefilter=args.prefilter,
    )


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers, "build-testset", "build a contrastive test set from a John and a Zellig (both formats)",
        EXAMPLES, description=DESCRIPTION,
    )
    parser.add_argument("--john", required=True, metavar="SPEC", help="the John whose instances are selected")
    parser.add_argument("--zellig", required=True, action="append", metavar="SPEC",
                        help="the Zellig that makes the minimal pairs; repeatable; 'all' for every German Zellig")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory to write the test set into")
    parser.add_argument("--format", choices=("distil-lingeval", "lingeval97"), action="append",
                        help="write only this format (repeatable; default: both)")
    parser.add_argument("--force", action="store_true", help="overwrite the files of an earlier build")
    parser.add_argument("--allow-empty", action="store_true", help="exit 0 when nothing is selected (the report is "
                        "written either way; without this flag an empty test set is exit 2)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    add_selection_arguments(parser)
    parser.set_defaults(func=run)


def build(john_spec: str, zellig_spec: str, options: Any, progress: bool = True) -> Any:
    """Build the John and the Zellig from their SPECs and select; returns the selection."""
    return next(build_many(john_spec, [zellig_spec], options, progress))[1]


def build_many(john_spec: str, zellig_specs: list[str], options: Any, progress: bool = True) -> Iterator[tuple[str, Any]]:
    """Build the John once and yield ``(zellig SPEC, selection)`` per Zellig; every Zellig is built
    before any work starts (so a bad SPEC fails at once), and the German analysis of a reference is
    shared by all of them (one process-wide cache)."""
    from arena.specs.registry import build as build_performer
    from arena.specs.spec import parse_spec
    from performers.john.selection import select

    john = parse_spec(john_spec, where="--john")
    zelligs = [parse_spec(text, where="--zellig") for text in zellig_specs]
    john_performer = build_performer("john", john, catalog(), where=f"--john {john.label}")
    performers = [build_performer("zellig", z, catalog(), where=f"--zellig {z.label}") for z in zelligs]
    instances = list(john_performer.instances())
    for text, zellig, performer in zip(zellig_specs, zelligs, performers):
        yield text, select(
            instances, performer, options, progress,
            john=john.label, zellig_label=zellig.label, john_report=getattr(john_performer, "report", None),
        )


def run(args) -> int:
    from arena.cli import zellig_specs
    from arena.present.testset import format_report
    from arena.specs.registry import signature
    from arena.specs.spec import parse_spec
    from performers.john.testset import FORMATS, write_testset

    check_output(args.out, "directory")  # before the selection is computed
    options = selection_options(args)
    specs = zellig_specs(args.zellig)
    # one directory per Zellig, named by its label with anything but [\w.=,-] replaced (no path can leave --out)
    folders = [re.sub(r"[^\w.=,-]", "_", parse_spec(spec, where="--zellig").label) for spec in specs]
    if len(set(folders)) < len(folders):
        raise UsageError("--zellig: two Zelligs would share an output folder; give their YAML specs distinct aliases")
    selections = build_many(args.john, specs, options, progress=not args.no_progress)
    for folder, (spec, selection) in zip(folders, selections):
        out = Path(args.out) if len(specs) == 1 else Path(args.out) / folder
        signatures = {
            "john": signature("john", parse_spec(args.john), catalog()),
            "zellig": signature("zellig", parse_spec(spec), catalog()),
        }
        report = write_testset(
            selection, out, tuple(args.format or FORMATS), overwrite=args.force,
            extra_report={"signatures": signatures},
        )
        from arena.text_policy import visible_lines

        print(visible_lines(format_report(report)), flush=True)
        if not report.get("files") and not args.allow_empty:
            counts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in report["instances"].items() if v)
            raise DataError(f"John {report.get('john')} × Zellig {report.get('zellig')}: nothing selected from "
                            f"{report['pool']} instances ({counts or 'none'}); no test set written",
                            file=out / "report.json", key="--zellig",
                            hint="see report.json for what each filter dropped; --allow-empty to accept an empty set")
    return 0
