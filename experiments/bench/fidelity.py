"""Fidelity of the German Zelligs against the published DistilLingEval test sets.

For every set directory ``<error_type>.<human|mt>`` under the DistilLingEval data (default
``../shared/data/distil-lingeval`` relative to the repository root) whose error type names a Zellig
of the catalog (``np_agreement`` → ``np-agreement``), run that Zellig on each distinct
``tgt.correct.de`` sentence and report per set:

- ``recall``: the share of published ``tgt.incorrect.de`` variants that are among our candidates for
  their sentence (texts compared after collapsing runs of whitespace and stripping the ends: the
  published correct sentences often end in a space their variants lack);
- ``cands``: the mean number of candidates per distinct sentence;
- ``none``: the share of distinct sentences for which we produce no candidate.

Sets whose error type has no Zellig in the catalog are listed as skipped.  ``--misses N`` prints N
missed published variants per set (with the word-level edit that was expected), for studying causes.

    python experiments/bench/fidelity.py                       # all sets, 2 worker processes
    python experiments/bench/fidelity.py --sets polarity_affix_del --misses 20
    python experiments/bench/fidelity.py --limit 500 --json fidelity.json
    python experiments/bench/fidelity.py --sets clause_omission \
        --spec clause_omission=clause-omission:split_after_periods=true
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import OrderedDict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT / ".." / "shared" / "data" / "distil-lingeval"
sys.path.insert(0, str(ROOT))

_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def read_set(directory: Path, limit: int | None) -> OrderedDict[tuple[str, str], list[str]]:
    """(source, correct) → published incorrect variants, in file order; ``limit`` distinct sentences."""

    def lines(name: str) -> list[str]:
        return (directory / name).read_text(encoding="utf-8").split("\n")

    sources, correct, incorrect = lines("src.en"), lines("tgt.correct.de"), lines("tgt.incorrect.de")
    if not (len(sources) == len(correct) == len(incorrect)):
        raise ValueError(f"{directory}: src.en, tgt.correct.de and tgt.incorrect.de differ in length")
    grouped: OrderedDict[tuple[str, str], list[str]] = OrderedDict()
    for source, good, bad in zip(sources, correct, incorrect):
        if not good.strip() and not bad.strip():
            continue
        key = (source, good)
        if key not in grouped and limit is not None and len(grouped) >= limit:
            continue
        grouped.setdefault(key, []).append(bad)
    return grouped


def word_diff(before: str, after: str) -> str:
    from arena.edits import diff_edits

    return "; ".join(f"{edit.before!r}→{edit.after!r}" for edit in diff_edits(before, after))


def evaluate_set(directory: Path, zellig, name: str, limit: int | None, misses: int) -> dict:
    from arena.records import Instance

    grouped = read_set(directory, limit)
    published = found = with_none = candidates = 0
    missed: list[str] = []
    for index, ((source, good), variants) in enumerate(grouped.items()):
        instance = Instance(f"{directory.name}.{index}", source, good)
        produced = zellig.corrupt(instance)
        texts = {normalise(variant.text) for variant in produced}
        candidates += len(produced)
        with_none += not produced
        for bad in variants:
            published += 1
            if normalise(bad) in texts:
                found += 1
            elif len(missed) < misses:
                missed.append(f"  {good.strip()}\n    expected {word_diff(good, bad)}; we made {len(produced)}")
    sentences = len(grouped)
    return {
        "set": directory.name,
        "zellig": name,
        "sentences": sentences,
        "published": published,
        "recall": found / published if published else float("nan"),
        "mean_candidates": candidates / sentences if sentences else float("nan"),
        "share_none": with_none / sentences if sentences else float("nan"),
        "misses": missed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="DistilLingEval data directory")
    parser.add_argument("--sets", nargs="*", help="only these error types or set names")
    parser.add_argument("--limit", type=int, help="at most this many distinct sentences per set")
    parser.add_argument("--workers", type=int, default=2, help="processes for the German analysis")
    parser.add_argument("--misses", type=int, default=0, help="print this many misses per set")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--spec",
        action="append",
        default=[],
        metavar="TYPE=SPEC",
        help="use SPEC (name:key=value,...) for error type TYPE, e.g. "
        "clause_omission=clause-omission:split_after_periods=true (repeatable)",
    )
    args = parser.parse_args(argv)

    from arena.formats.distil_lingeval import find_sets
    from arena.specs.registry import build
    from arena.specs.spec import PerformerSpec, parse_spec
    from performers.catalog import CATALOG
    from performers.german.analysis import analyze_many

    if not args.data.is_dir():
        print(f"no DistilLingEval data at {args.data}", file=sys.stderr)
        return 2
    directories = find_sets(args.data, args.sets)
    overrides = {}
    for item in args.spec:
        error_type, _, text = item.partition("=")
        if not text:
            parser.error(f"--spec expects TYPE=SPEC, got {item!r}")
        overrides[error_type] = parse_spec(text, where="--spec")
    plan, skipped = [], []
    for directory in directories:
        error_type = directory.name.split(".")[0]
        spec = overrides.get(error_type, PerformerSpec(error_type.replace("_", "-")))
        (plan if spec.name in CATALOG.zelligs or ":" in spec.name else skipped).append((directory, spec))

    started = time.perf_counter()
    texts = [good for directory, _ in plan for _, good in read_set(directory, args.limit)]
    analyze_many(texts, workers=args.workers, progress=True)
    analysed = time.perf_counter() - started

    results, zelligs = [], {}
    for directory, spec in plan:
        if spec.label not in zelligs:
            zelligs[spec.label] = build("zellig", spec, CATALOG)
        results.append(evaluate_set(directory, zelligs[spec.label], spec.label, args.limit, args.misses))

    print(f"{'set':36} {'zellig':40} {'sents':>6} {'variants':>8} {'recall':>7} {'cands':>6} {'none':>6}")
    for row in results:
        print(
            f"{row['set']:36} {row['zellig']:40} {row['sentences']:6d} {row['published']:8d} "
            f"{row['recall']:7.1%} {row['mean_candidates']:6.2f} {row['share_none']:6.1%}"
        )
    for directory, spec in skipped:
        print(f"{directory.name:36} {'(no Zellig ' + spec.name + ')':40}")
    print(f"analysis of {len(set(texts))} sentences: {analysed:.0f} s; total {time.perf_counter() - started:.0f} s")
    if args.misses:
        for row in results:
            if row["misses"]:
                print(f"\nmisses in {row['set']}:")
                print("\n".join(row["misses"]))
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
