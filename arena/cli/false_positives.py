"""``arena false-positives``: which contrastive errors of a run are likely false positives of an
implausible hypothesis (contrastive error rate significantly above the generative rate)."""

from __future__ import annotations

from pathlib import Path

from arena.cli import add_verb
from arena.errors import UsageError

DESCRIPTION = """\
Per phenomenon × reference kind (human/machine) × Claude of a run or tournament directory: the
contrastive error rate (1 − accuracy) and the generative rate (the Zellig's detector on the Claude's
own beam-search 1-best translations of the same sources, or of a larger pool of sources) with 95%
intervals (bootstrap over instances; Wilson), their gap, the distributional discrepancy, and a verdict
with three outcomes: 'exceeds' when the error rate significantly exceeds the generative rate (one-sided
Wald test, cluster-robust variance over instances, alpha 0.05: likely false positives), 'equivalent (±M)'
when two one-sided tests put the gap within --margin, else 'undecided (n ≈ K would decide)'.  Beside it:
the verdict against the detector-corrected rate, the strongest surface cue and the kinds of the strong
cues (nuisance, edit-identity, target-only).  With model replicas: mean ± std over replicas.
Writes RUN/report/false_positives.{json,md,txt,png}; prints the table (--markdown: pasteable).
The detector correction (Rogan-Gladen, calibrated on published pairs) assumes the detector's rates
transfer to the model's own translations; each row shows its verdict under a band of those rates
(flips in band).  --validate N draws a validation sample of the run's 1-bests for people to label
(RUN/validation/); once labelled, the correction uses them (double sampling: PPV and NPV on the
model's own translations)."""

EXAMPLES = """
  arena false-positives runs/false-positives-toy-99bb533856
  arena false-positives runs/false-positives-toy-99bb533856 --markdown
  arena false-positives runs/tournament-smoke-c6bdb5defb --json
  arena false-positives runs/false-positives-toy-99bb533856 \\
      --pool-sources ../shared/data/wmt/newstest/newstest2016.en --pool-limit 1000
  arena false-positives runs/false-positives-toy-99bb533856 --alpha 0.01 --no-plot
  arena false-positives runs/quickstart-100a898585 --validate 20 --name ann    # label a validation sample
  arena false-positives runs/quickstart-100a898585 --validate 20 --serve      # the same in the browser"""


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers, "false-positives",
        "contrastive error vs generative rate per phenomenon, reference kind and Claude, with a false-positive "
        "verdict and a plot; writes RUN/report/",
        EXAMPLES, description=DESCRIPTION,
    )
    parser.add_argument("run_dir", metavar="RUN", help="a run directory (arena run or arena tournament)")
    parser.add_argument("--pool-sources", metavar="FILE", type=Path,
                        help="English sources, one per line: each scoring Claude (each replica) translates them "
                             "(beam of the run, cached in RUN/report/) and the detectors run on those 1-bests")
    parser.add_argument("--pool-limit", type=int, metavar="N", help="only the first N lines of --pool-sources")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level of the verdict (default 0.05)")
    parser.add_argument("--margin", type=float, default=0.05,
                        help="equivalence margin of the two one-sided tests, a share in (0, 0.5) (default 0.05: ±5 points)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    output.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-plot", action="store_true", help="do not draw the PNG")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars while translating the pool")
    parser.add_argument("--calibration", metavar="FILE", type=Path,
                        help="detectors' measured recall and false alarms (JSON of experiments/bench/detectors.py "
                             "--calibration; default: the one shipped in performers/zellig/) for the Rogan-Gladen "
                             "corrected generative rate")
    parser.add_argument("--no-cues", action="store_true", help="no surface-cue columns (strongest cue, cue kinds)")
    from arena.cli.fp_validate import add_arguments

    add_arguments(parser)
    parser.set_defaults(func=run)


def _pool_sources(path: Path, limit: int | None) -> list[str]:
    from arena.formats.textlines import read_lines

    if not path.is_file():
        raise UsageError(f"--pool-sources {path}: no such file")
    sources = [line for line in read_lines(path, allow_empty=True) if line.strip()]
    if limit is not None:
        if limit < 1:
            raise UsageError(f"--pool-limit must be at least 1, got {limit}")
        sources = sources[:limit]
    if not sources:
        raise UsageError(f"--pool-sources {path}: no non-empty line")
    return sources


def run(args) -> int:
    import json
    import os
    import sys

    from arena.present import false_positives as present
    from arena.record import transcripts
    from arena.stats import false_positives

    run_dir = Path(args.run_dir)
    for name in (transcripts.MANIFEST, transcripts.ROUNDS, transcripts.JUDGEMENTS):
        if not (run_dir / name).exists():
            raise UsageError(f"{run_dir}: no {name}; not a (started) run directory")
    if not 0 < args.alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1, got {args.alpha}", key="--alpha")
    if args.validate is not None:
        from arena.cli.fp_validate import validate

        return validate(args)
    if args.serve or args.name is not None:
        raise UsageError("--serve and --name label a validation sample: give --validate N", key="--validate")
    from arena.stats.outcome_tests import check_margin

    check_margin(args.margin, "--margin")
    pool = None
    if args.pool_sources is not None:
        from arena.cli import catalog
        from arena.record.verify import load_manifest
        from arena.specs.config import experiment_from_dict

        manifest = load_manifest(run_dir)
        experiment = experiment_from_dict(manifest.experiment, path=str(run_dir / transcripts.MANIFEST))
        sources = _pool_sources(args.pool_sources, args.pool_limit)
        progress = not args.no_progress and os.environ.get("ARENA_PROGRESS", "1") != "0"
        pool = false_positives.pool_one_bests(run_dir, experiment, sources, catalog(), progress=progress)
    from arena.cli.fp_inputs import calibrations, cue_verdicts
    from arena.people.validation import validations

    labelled = validations(run_dir)  # RUN/validation/: bad labels stop here, before anything is written
    report = false_positives.build(run_dir, pool, args.alpha, calibrations(run_dir, args.calibration),
                                   None if args.no_cues else cue_verdicts(run_dir), labelled, margin=args.margin)
    if not transcripts.is_finished(run_dir):
        print(f"note: {run_dir} is not finished; this report covers the transcripts so far", file=sys.stderr)
    paths = present.write(run_dir, report, plot=not args.no_plot)
    if args.json:
        from arena.codec import dump
        from arena.text_policy import json_visible

        print(json_visible(json.dumps(dump(report), ensure_ascii=False, indent=2)))
    else:
        from arena.text_policy import visible_lines

        print(visible_lines(present.format_markdown(report) if args.markdown else present.format_text(report)))
        print("report: " + ", ".join(str(path) for path in paths.values()), file=sys.stderr)
    return 0
