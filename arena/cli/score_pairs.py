"""``arena score-pairs``: write a scoring Claude's scores in the reference tools' formats.

- ``--format distil-lingeval --testset DIR``: DistilLingEval's 2N-line scores file —
  the mean log-probabilities of ``tgt.correct.de`` first, then those of
  ``tgt.incorrect.de`` (higher is better), as its ``contrastive_evaluation.py
  --scores-path`` reads them.
- ``--format lingeval97 -r TEST.json``: LingEval97's one-number-per-line file in the
  order of ``json_to_plaintext.py`` (per sentence the reference, then each
  contrastive), *negated* mean log-probabilities, so that lower is better as its
  ``evaluate.py`` expects by default (no ``--maximize``).

- ``--pairs FILE``: one's own pairs (TSV, CSV, JSONL, Parquet or a Hugging Face
  ``datasets`` directory with columns ``source``, ``correct``, ``incorrect``; map other
  names with ``--columns source=src,correct=good,incorrect=bad``) into a table with one row
  per pair: both scores, the decision and the pair's other columns, written as TSV, CSV,
  JSONL or Parquet by ``--out``'s suffix (TSV on stdout for ``-``).  ``--tokens`` adds the
  per-token log-probabilities of both candidates and the token the decision turned on
  (columns in docs/own-data.md).

``--score sum`` writes sums of log-probabilities instead of means.  Scores are
natural-log probabilities with the end-of-sentence token counted; cached scores are reused, so a second run is
instant and an interrupted one resumes.  An ``--out`` that cannot be written is refused
before any scoring; a write that fails afterwards (a full disk) loses nothing, since the
scores are in the cache and the rerun is instant.
"""

from __future__ import annotations

import inspect
import logging
import sys

from arena.cli import add_verb
from arena.errors import UsageError

log = logging.getLogger(__name__)

FORMATS = ("distil-lingeval", "lingeval97")

EXAMPLES = """
  arena score-pairs --claude toy-en-de --pairs experiments/own-pairs/pairs.tsv --tokens --out pairs.scores.tsv
  arena score-pairs --claude toy-en-de --pairs mine.csv --columns source=en,correct=de,incorrect=de_bad --out mine.jsonl
  arena score-pairs --claude toy-en-de --format distil-lingeval \\
      --testset ../shared/data/distil-lingeval/polarity_affix_del.mt --out affix.mt.scores
  arena score-pairs --claude toy-en-de --format lingeval97 -r exported/ding-human.json --out exported/ding-human.scores
  arena score-pairs --claude hf-seq2seq:model=Helsinki-NLP/opus-mt-en-de --device cuda --dtype bf16 \\
      --format lingeval97 -r lingeval97/test.json --out opus.scores
  python contrastive_evaluation.py --testset-name polarity_affix_del.mt --scores-path affix.mt.scores
  python evaluate.py -r lingeval97/test.json < opus.scores"""


def add_parser(subparsers) -> None:
    parser = add_verb(
        subparsers, "score-pairs",
        "score your own pairs (--pairs FILE) or a DistilLingEval / LingEval97 test set with a scoring Claude",
        EXAMPLES, description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
    )
    parser.add_argument("--claude", required=True, metavar="SPEC",
                        help="a scoring Claude: catalog name with params (toy-en-de, hf-seq2seq:model=...) or a YAML file")
    parser.add_argument("--format", choices=FORMATS, help="scores file layout of a published test set")
    parser.add_argument("--pairs", metavar="FILE", help="own pairs: .tsv, .csv, .jsonl, .parquet or a datasets directory")
    parser.add_argument("--columns", metavar="MAP", help="with --pairs: source=COL,correct=COL,incorrect=COL,id=COL")
    parser.add_argument("--tokens", action="store_true", help="with --pairs: per-token log-probabilities and the token "
                        "the decision turned on")
    parser.add_argument("--testset", metavar="DIR", help="DistilLingEval directory (src.en, tgt.correct.de, tgt.incorrect.de)")
    parser.add_argument("-r", "--reference", metavar="JSON", help="LingEval97 test set (JSON)")
    parser.add_argument("--out", required=True, metavar="FILE", help="scores file to write ('-': stdout)")
    parser.add_argument("--score", choices=("mean", "sum"), default="mean",
                        help="mean (default) or sum of token log-probabilities")
    parser.add_argument("--batch-tokens", type=int, metavar="N", help="token budget per batch (Claude param batch_tokens)")
    parser.add_argument("--device", metavar="DEV", help="cpu, cuda, cuda:1, auto (Claude param device)")
    parser.add_argument("--dtype", metavar="TYPE", help="fp32, bf16, fp16 (Claude param dtype)")
    parser.set_defaults(func=run)


def claude_params(cls: type, spec_params: dict, overrides: dict) -> dict:
    """The spec's params with the command-line overrides, each checked against the
    Claude's constructor."""
    accepted = inspect.signature(cls).parameters
    params = dict(spec_params)
    for key, value in overrides.items():
        if value is None:
            continue
        if key not in accepted:
            raise UsageError(f"--{key.replace('_', '-')} given, but {cls.__name__} has no parameter {key!r}")
        params[key] = value
    return params


def pairs_for(args) -> tuple[list[tuple[str, str]], str]:
    """The (source, target) pairs to score, in the scores file's order."""
    if args.format == "distil-lingeval":
        if not args.testset or args.reference:
            raise UsageError("--format distil-lingeval needs --testset DIR (and no -r)")
        from arena.formats.distil_lingeval import read_distil_lingeval

        testset = read_distil_lingeval(args.testset, allow_empty=True)
        if testset.empty_lines:
            log.warning("%s: empty lines scored as they are (as DistilLingEval does): %s",
                        testset.path, ", ".join(testset.empty_lines[:10]))
        pairs = [(p.source, p.correct) for p in testset.pairs] + [(p.source, p.incorrect) for p in testset.pairs]
        return pairs, f"{len(testset)} pairs of {testset.path}"
    if not args.reference or args.testset:
        raise UsageError("--format lingeval97 needs -r TEST.json (and no --testset)")
    from arena.formats.lingeval97 import plaintext_pairs, read_lingeval97

    sentences = read_lingeval97(args.reference)
    pairs = list(plaintext_pairs(sentences))
    return pairs, f"{len(sentences)} sentences ({len(pairs)} lines) of {args.reference}"


def run(args) -> int:
    from arena.cli import catalog, check_output
    from arena.formats.textlines import write_text_atomic
    from arena.specs.registry import build, validate
    from arena.specs.spec import PerformerSpec, parse_spec

    out = None if args.out == "-" else check_output(args.out, "file")  # before any scoring
    if args.pairs is not None or args.format is None:
        return run_own_pairs(args, out)
    if args.tokens or args.columns:
        raise UsageError("--tokens and --columns go with --pairs", key="--tokens" if args.tokens else "--columns")
    pairs, what = pairs_for(args)
    spec = parse_spec(args.claude, where="--claude")
    cls = validate("claude", spec, catalog(), where="--claude")
    params = claude_params(cls, dict(spec.params),
                           {"batch_tokens": args.batch_tokens, "device": args.device, "dtype": args.dtype})
    claude = build("claude", PerformerSpec(spec.name, params), catalog(), where="--claude")
    if not callable(getattr(claude, "score", None)):
        raise UsageError(f"--claude {spec.label}: {cls.__name__} has no score() method; score-pairs needs a scoring Claude")
    log.info("scoring %s with %s", what, spec.label)
    scores = claude.score([source for source, _ in pairs], [target for _, target in pairs])
    values = [s.logprob if args.score == "sum" else s.mean for s in scores]
    if args.format == "lingeval97":
        values = [-value for value in values]  # lower is better for evaluate.py
    text = "".join(f"{value!r}\n" for value in values)  # repr round-trips the float exactly
    if out is None:
        sys.stdout.write(text)
    else:
        write_text_atomic(out, text)
        log.info("wrote %d scores to %s", len(values), out)
    return 0


def run_own_pairs(args, out) -> int:
    """``--pairs FILE``: one row per pair (see :mod:`arena.pairs_api`) into ``--out``."""
    from arena.formats.pairs import read_pairs
    from arena.formats.tables import format_of, write_rows
    from arena.pairs_api import score_rows, scoring_claude

    if args.pairs is None:
        raise UsageError("give --pairs FILE (own pairs) or --format distil-lingeval|lingeval97", key="--pairs")
    if args.format is not None or args.testset or args.reference:
        raise UsageError("--pairs goes without --format, --testset and -r", key="--pairs")
    if args.score != "mean":
        raise UsageError("--score applies to --format scores files; --pairs writes both sums and means",
                         key="--score")
    kind = "tsv" if out is None else format_of(out, key="--out")
    pairs = read_pairs(args.pairs, args.columns)
    from arena.cli import catalog

    claude = scoring_claude(args.claude, catalog(), where="--claude",
                            overrides={"batch_tokens": args.batch_tokens, "device": args.device, "dtype": args.dtype})
    log.info("scoring %d pairs of %s", len(pairs), args.pairs)
    rows = score_rows(pairs, claude, tokens=args.tokens)
    write_rows(rows, out, kind)
    if out is not None:
        log.info("wrote %d rows to %s", len(rows), out)
    return 0
