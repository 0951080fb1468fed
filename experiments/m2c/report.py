"""Accuracy per broken dimension (and per template and slot kind) of a run whose
Zellig is ``feature-flip``.

    python experiments/m2c/report.py RUN_DIR [--by dimension|template|slot_kind|to]

Reads the run's transcripts (``rounds.jsonl``, ``judgements.jsonl``) with
:mod:`arena.stats.aggregate` and groups the judged rounds by a key of the variant's ``meta``.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from arena.stats.aggregate import join
from arena.stats.metrics import summarise
from arena.stats.run import RunData


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="run directory (arena run --out ...)")
    parser.add_argument("--by", default="dimension", help="variant meta key to group by (default: dimension)")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap samples for the CIs")
    args = parser.parse_args(argv)
    run = RunData.open(args.run)
    print(run.signature)
    print(f"{'claude':10s} {args.by:18s} {'rounds':>6s} {'S':>6s} {'accuracy':>8s}  95% CI (bootstrap over instances)")
    for claude, outcomes in join(run.rounds, run.judgements, run.one_bests).items():
        flips = [o for o in outcomes if o.round.variant is not None and o.round.variant.phenomenon == "feature_flip"]
        groups: dict[str, list] = defaultdict(list)
        for outcome in flips:
            groups[str(outcome.round.variant.meta.get(args.by))].append(outcome)
        for name, group in [*sorted(groups.items()), ("(all)", flips)]:
            if not group:
                continue
            result = summarise(group, run.ties, args.samples)
            found = result.metric("accuracy")
            accuracy, ci = (found.value, found.ci95) if found is not None else (None, None)
            shown_accuracy = f"{accuracy:8.3f}" if accuracy is not None else f"{'-':>8s}"
            shown_ci = f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""
            print(f"{claude:10s} {name:18s} {result.rounds:6d} {result.S:6.3f} {shown_accuracy}  {shown_ci}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
