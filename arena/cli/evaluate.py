"""``arena evaluate``: score files of external models, evaluated as the reference tools do.

``--format lingeval97`` prints the report of LingEval97's ``evaluate.py`` line for
line; ``--format distil-lingeval`` prints a table (n, correct, accuracy with its 95%
interval, ties) and then DistilLingEval's own ``Accuracy: 97.3`` line (``--plain``: that
line alone, exactly as the tool prints it).  ``--json`` prints the per-category summary
as JSON instead (:mod:`arena.evaluate.summary`).  Notes (contrastives of unselected
categories, empty lines in a test set, ties) go to stderr.
"""

from __future__ import annotations

import sys

from arena.cli import UsageError, add_verb
from arena.text_policy import json_visible, visible, visible_lines

EXAMPLES = """
  # LingEval97 (its test set's JSON from the LingEval97 repository): one score per line (reference,
  # then each contrastive, as json_to_plaintext.py writes them); lower is better unless --maximize
  arena evaluate --format lingeval97 -r lingeval97.json --scores model.scores
  arena evaluate --format lingeval97 -r lingeval97.json < model.scores
  arena evaluate --format lingeval97 -r lingeval97.json -s model.scores --categories np_agreement --fd
  arena evaluate --format lingeval97 -r lingeval97.json -s model.scores -v --outputs model.newstest2014
  # a run's pairs from `arena export --format lingeval97`, scored by `arena score-pairs` (see its
  # examples; arena phenomena are not among LingEval97's 13 categories)
  arena evaluate --format lingeval97 -r exported/ding-human.json -s exported/ding-human.scores --categories placeholder_ding
  # DistilLingEval: 2N scores (N for tgt.correct.de, then N for tgt.incorrect.de), higher is better
  arena evaluate --format distil-lingeval --testset ../shared/data/distil-lingeval/polarity_affix_del.mt --scores affix.mt.scores"""

DESCRIPTION = """Evaluate an external model's scores of a test set as the reference tools do.

--format lingeval97 prints the report of LingEval97's evaluate.py line for line (an error
counts as correct only if the reference's score is strictly better; ties are wrong).
--format distil-lingeval prints DistilLingEval's "Accuracy: 97.3" (score(correct) >=
score(incorrect) is correct), after a table with n, accuracy and its 95% interval
(--plain: the tool's line alone).  --json prints the per-category summary (n, correct,
accuracy, 95% interval, ties) as JSON for either format.  Notes go to stderr."""

FORMATS = ("lingeval97", "distil-lingeval")
LINGEVAL97_ONLY = ("maximize", "categories", "fd", "latex", "latex_polarity", "wrong", "outputs")


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers,
        "evaluate",
        "evaluate an external model's scores of a LingEval97 or DistilLingEval test set",
        EXAMPLES,
        description=DESCRIPTION,
    )
    parser.add_argument("--format", required=True, choices=FORMATS, help="the test set's format")
    parser.add_argument("-r", "--reference", metavar="TEST.json", help="LingEval97: the JSON test set")
    parser.add_argument("--testset", metavar="DIR", help="DistilLingEval: the directory with src.en, tgt.*.de")
    parser.add_argument(
        "-s", "--scores", metavar="FILE", default="-", help="the scores, one per line ('-' or absent: stdin)"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print per category n, accuracy, 95%% CI, ties as JSON")
    output.add_argument("--plain", action="store_true", help="distil-lingeval: only the tool's 'Accuracy: X' line")
    group = parser.add_argument_group("LingEval97 options (as evaluate.py)")
    group.add_argument("--maximize", action="store_true", help="higher scores are better (log-probabilities)")
    group.add_argument(
        "--categories",
        nargs="+",
        metavar="CATEGORY",
        help="error categories to count (default: LingEval97's 13); any type of the test set may be named",
    )
    group.add_argument("--fd", action="store_true", help="also print statistics by frequency and distance")
    group.add_argument("--latex", action="store_true", help="also print the published LaTeX table")
    group.add_argument("--latex-polarity", action="store_true", help="also print the LaTeX table of polarity")
    group.add_argument(
        "-v", dest="wrong", action="store_true", help="print every pair where the model does not prefer the reference"
    )
    group.add_argument(
        "--outputs",
        nargs="+",
        metavar="FILE",
        help="1-best translations shown with -v: one line per sentence, or NAME.TESTSET looked up by origin TESTSET.N",
    )
    parser.set_defaults(func=run)


def _note(message: str) -> None:
    print(f"arena evaluate: note: {visible(message)}", file=sys.stderr)


def _check_scores_source(args) -> None:
    if args.scores == "-" and sys.stdin.isatty():
        raise UsageError("no --scores FILE given and stdin is a terminal; pass --scores FILE or pipe the scores in")


def run(args) -> int:
    if args.format == "lingeval97":
        return _lingeval97(args)
    return _distil_lingeval(args)


def _lingeval97(args) -> int:
    from arena.evaluate import lingeval97 as evaluation
    from arena.formats import lingeval97 as formats

    if not args.reference:
        raise UsageError("--format lingeval97 needs -r/--reference TEST.json")
    if args.testset:
        raise UsageError("--testset is for --format distil-lingeval; LingEval97 takes -r/--reference TEST.json")
    if args.outputs and not args.wrong:
        raise UsageError("--outputs are shown with -v; add -v")
    sentences = formats.read_lingeval97(args.reference)
    _check_scores_source(args)
    scores = formats.read_scores(args.scores, sentences)
    categories = args.categories or evaluation.ERROR_CATEGORIES
    result = evaluation.evaluate(sentences, scores, maximize=args.maximize, categories=categories)
    if args.json:
        from arena.evaluate.summary import json_text, summary_rows

        tallies = {c: (result.by_category[c].correct, result.by_category[c].total) for c in result.category_order()
                   if c in result.by_category}
        sys.stdout.write(json_visible(json_text(summary_rows(tallies), format="lingeval97", testset=str(args.reference),
                                   ties="wrong", maximize=args.maximize)))
        return 0
    outputs = {path: formats.read_outputs(path, sentences) for path in args.outputs or ()}
    report = evaluation.format_report(
        result, fd=args.fd, latex=args.latex, latex_polarity=args.latex_polarity, verbose=args.wrong, outputs=outputs
    )
    sys.stdout.write(visible_lines(report))
    if result.skipped:
        counts = ", ".join(f"{category} ({count})" for category, count in sorted(result.skipped.items()))
        _note(
            f"{sum(result.skipped.values())} contrastive translations of unselected types were not counted: "
            f"{counts}; select them with --categories"
        )
    return 0


def _distil_lingeval(args) -> int:
    from arena.evaluate import distil_lingeval as evaluation
    from arena.formats import distil_lingeval as formats

    if not args.testset:
        raise UsageError("--format distil-lingeval needs --testset DIR")
    if args.reference:
        raise UsageError("-r/--reference is for --format lingeval97; DistilLingEval takes --testset DIR")
    given = [name for name in LINGEVAL97_ONLY if getattr(args, name)]
    if given:
        option = "-v" if given[0] == "wrong" else "--" + given[0].replace("_", "-")
        raise UsageError(f"{option} is a LingEval97 option; DistilLingEval scores are higher-is-better, one format")
    testset = formats.read_distil_lingeval(args.testset, allow_empty=True)
    if testset.empty_lines:
        _note(
            f"{args.testset}: {len(testset.empty_lines)} empty line(s) kept as items, as DistilLingEval does: "
            + ", ".join(testset.empty_lines[:5])
        )
    _check_scores_source(args)
    correct, incorrect = formats.read_scores(args.scores, len(testset))
    result = evaluation.evaluate(correct, incorrect)
    from arena.evaluate.summary import json_text, summary_rows, table_text

    rows = summary_rows({testset.name: (result.correct, result.total)}, {testset.name: result.ties})
    if args.json:
        sys.stdout.write(json_visible(json_text(rows, format="distil-lingeval", testset=str(args.testset), ties="correct")))
        return 0
    if not args.plain:
        sys.stdout.write(visible_lines(table_text(rows)))
    sys.stdout.write(visible_lines(evaluation.format_report(result)))
    if result.ties:
        _note(
            f"{result.ties} of {result.total} pairs have equal scores; counted as correct (score(correct) >= score(incorrect))"
        )
    return 0
