"""``arena compare-johns``: compare data selectors for a fixed Zellig and Claude (Smith 2012, §7).

A John is better when, for the same Zellig and Claude, his data give a higher S.
This verb plays one match per John against the same Zellig and Claude (one arena run,
written under ``--out`` like ``arena run``: resumable, never overwritten) and reports

- per John: instances, rounds, S with its 95% bootstrap CI, contrastive accuracy with
  its CI and the distributional discrepancy of the John's test set for this Claude
  (Vamvas & Sennrich 2021: mean of ``max(0, s(1-best) − max(s(correct),
  s(corrupted)))``, needing a scoring Claude);
- per pair of Johns: paired bootstrap tests (Koehn 2004) of the differences in S,
  accuracy and discrepancy on the sources both Johns' test sets contain.  Johns are
  paired by *source sentence* (whitespace-normalised), since two Johns over the same
  corpus — human and machine references of the same newstest sentences — share
  sources but not necessarily ids; each shared source counts once, with the mean of
  its rounds.

:func:`compare_johns` does the work and returns the report as a dict, so that
experiment scripts (``experiments/johns/``) can use it.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.cli import UsageError, add_verb
from arena.cli.ranges import integer

EXAMPLES = """
  # two test sets (DistilLingEval's human and MT sets here, or two that `arena build-testset`
  # wrote), replayed exactly, with the toy NMT model
  arena compare-johns --claude toy-en-de \\
      --john distil-lingeval:dir=../shared/data/distil-lingeval/polarity_affix_del.human \\
      --john distil-lingeval:dir=../shared/data/distil-lingeval/polarity_affix_del.mt
  # select Johns with the real Zellig (the select John's variants replayed)
  arena compare-johns --claude toy-en-de --zellig replay --john human.yaml --john mt.yaml --out runs/johns"""

DESCRIPTION = """Play the same Zellig and Claude against several Johns and report, per John, S with
its bootstrap CI, contrastive accuracy and the distributional discrepancy of the John's
test set for the Claude, and, per pair of Johns, paired bootstrap tests of the
differences on the source sentences both test sets share.  The Zellig defaults to
'replay', which plays the variants a John attaches (DistilLingEval/LingEval97 test sets,
select Johns).  Johns, the Zellig and the Claude are SPECs."""

NORMALISE = " ".join


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers, "compare-johns", "compare Johns (test sets) for a fixed Zellig and Claude: S, accuracy, discrepancy",
        EXAMPLES, description=DESCRIPTION,
    )
    parser.add_argument("--john", dest="johns", action="append", required=True, metavar="SPEC",
                        help="a John (repeat; at least two)")
    parser.add_argument("--zellig", default="replay", metavar="SPEC", help="the Zellig (default: replay)")
    parser.add_argument("--claude", required=True, metavar="SPEC", help="the Claude (a scoring one for discrepancy)")
    parser.add_argument("--out", default="runs", help="directory under which the run directory is made (default: runs)")
    parser.add_argument("--name", default="compare-johns", help="experiment name, the run directory's prefix")
    parser.add_argument("--seed", type=integer(0), default=1, help="the arena's seed (default: 1)")
    parser.add_argument("--variants-per-instance", type=integer(1), default=1000, metavar="K",
                        help="rounds per instance (default: 1000, i.e. every variant a John attaches)")
    parser.add_argument("--bootstrap-samples", type=integer(1, 1_000_000), default=1000, metavar="N",
                        help="bootstrap resamples, 1 to 1,000,000 (default: 1000)")
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(func=run)


def run(args) -> int:
    from arena.present.compare import format_comparison
    from arena.specs.spec import parse_spec

    if len(args.johns) < 2:
        raise UsageError("compare-johns needs at least two --john")
    johns = [parse_spec(text, where=f"--john {index + 1}") for index, text in enumerate(args.johns)]
    report = compare_johns(
        johns, parse_spec(args.zellig, where="--zellig"), parse_spec(args.claude, where="--claude"), Path(args.out),
        name=args.name, seed=args.seed, variants_per_instance=args.variants_per_instance,
        bootstrap_samples=args.bootstrap_samples, progress=not args.no_progress,
    )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    from arena.text_policy import visible_lines

    print(visible_lines(format_comparison(report)))
    return 0


def compare_johns(
    johns: Sequence[Any],
    zellig: Any,
    claude: Any,
    out: Path,
    name: str = "compare-johns",
    seed: int = 1,
    variants_per_instance: int = 1000,
    bootstrap_samples: int = 1000,
    progress: bool = True,
    pairs: Sequence[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """Run the match of each John (``PerformerSpec``) against ``zellig`` and ``claude``
    in one arena run (so each source's 1-best is decoded once) and return the
    comparison report (module docstring); ``pairs`` lists the (John label, John label)
    pairs to test, all pairs by default."""
    from arena import api
    from arena.specs.config import Experiment

    labels = [spec.label for spec in johns]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise UsageError(f"John {duplicates[0]!r} is given twice; give one of them an alias (a YAML spec)")
    experiment = Experiment(
        name=name,
        johns=tuple(johns),
        zelligs=(zellig,),
        claudes=(claude,),
        seeds=(seed,),
        variants_per_instance=variants_per_instance,
        bootstrap_samples=bootstrap_samples,
        discrepancy=True,
        generative_rate=False,
    )
    result = api.play(experiment, out, progress=progress)
    report = compare_run(result.run_dir, bootstrap_samples, pairs)
    report["run_dir"] = str(result.run_dir)
    report["signature"] = result.scores.signature
    return report


def compare_run(
    run_dir: Path, bootstrap_samples: int = 1000, pairs: Sequence[tuple[str, str]] | None = None
) -> dict[str, Any]:
    """The comparison report of a finished run with one Zellig and one Claude; ``pairs``
    of John labels to test (all pairs by default)."""
    from arena.record.run_dir import RunDir
    from arena.stats import aggregate
    from arena.stats.results import read_scores

    run = RunDir.open(run_dir, finished=True)
    manifest, rounds, judgements, one_bests = run.manifest, run.rounds, run.judgements, run.one_bests
    scores = read_scores(run.path)
    experiment = manifest.experiment
    ties = experiment.get("contrastive_ties", "wrong")
    by_claude = aggregate.join(rounds, judgements, one_bests, counted_only=True)
    if len(by_claude) != 1 or len({r.zellig for r in rounds}) != 1 or len({r.seed for r in rounds}) != 1:
        raise UsageError(f"{run_dir}: compare-johns expects a run of one Zellig, one Claude and one seed")
    (claude, outcomes), = by_claude.items()
    johns = list(dict.fromkeys(r.john for r in rounds))
    per_john: dict[str, list[Any]] = defaultdict(list)
    for outcome in outcomes:
        per_john[outcome.round.john].append(outcome)
    rows = []
    for john in johns:
        cell = next(c for c in scores.cells if c.john == john and c.claude == claude)
        summary, accuracy = cell.summary, cell.summary.metric("accuracy")
        john_rounds = [r for r in rounds if r.john == john]
        rows.append(
            {
                "john": john,
                "instances": len({r.instance.id for r in john_rounds}),
                "applicable": cell.yield_.applicable,
                "rounds": summary.rounds,
                "S": summary.S,
                "S_ci95": summary.S_ci95,
                "accuracy": accuracy.value if accuracy is not None else None,
                "accuracy_ci95": accuracy.ci95 if accuracy is not None else None,
                "discrepancy": summary.value("discrepancy"),
            }
        )
    values = {"S": aggregate.correct, "accuracy": aggregate.accurate(ties), "discrepancy": aggregate.discrepancy}

    def source(outcome: aggregate.Outcome) -> str:
        return NORMALISE(outcome.round.instance.source.split())

    tallies = {
        john: {metric: aggregate.Tally.of(per_john[john], value, source) for metric, value in values.items()}
        for john in johns
    }
    if pairs is None:
        pairs = list(itertools.combinations(johns, 2))
    unknown = sorted({label for pair in pairs for label in pair} - set(johns))
    if unknown:
        raise UsageError(f"{run_dir}: no John {unknown[0]!r} in this run; Johns: {', '.join(johns)}")
    tests = []
    for a, b in pairs:
        entry: dict[str, Any] = {"a": a, "b": b}
        for metric in values:
            test = tallies[a][metric].paired(tallies[b][metric], bootstrap_samples, equal_weight=True)
            if test is not None:
                entry[metric] = test
        entry["shared_sources"] = len(set(tallies[a]["S"].keys) & set(tallies[b]["S"].keys))
        tests.append(entry)
    return {
        "zellig": rounds[0].zellig if rounds else None,
        "claude": claude,
        "seed": rounds[0].seed if rounds else None,
        "contrastive_ties": ties,
        "johns": rows,
        "paired": tests,
    }
