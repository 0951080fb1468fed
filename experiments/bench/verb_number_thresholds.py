"""Recall and false alarms of the verb-number model (:mod:`performers.german.verb_number_model`) as a function
of its threshold, alone and OR-combined with the hand-written subject–verb rules
(``subj-verb-agreement``'s detector with ``detector: rules``), so a threshold can be picked for
``subj-verb-agreement``'s ``detector: rules+model``.

For each text it computes once whether the rules fire and the model's highest rejection probability (the
probability of the other number at the verb it rejects most), then counts for every threshold:

- ``recall``: share of DistilLingEval ``subj_verb_agreement`` incorrect variants the detector fires on;
- ``correct``: share of the same pairs' correct sides it fires on;
- ``human``: share of newstest 2009–2016 human references (``--limit`` lines a year) it fires on.

    python experiments/bench/verb_number_thresholds.py --lines :3600 --limit 4000

Only the development block (``--lines :3600``) may be used to choose the threshold; lines 3600 and after are
held out.  The model directory is ``--model`` (default: the shipped one).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "experiments" / "bench"))

THRESHOLDS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)


def scores(texts: list[str], sources: list[str], rules_detector, model, clock: dict[str, float]) -> list[tuple[bool, float]]:
    """(rules fire, highest rejection probability of the model) for each text; adds the seconds the rules and
    the model took to ``clock``."""
    from performers.german.analysis import analyze
    from performers.german.verb_number_model import rejected_verbs

    out = []
    for text, source in zip(texts, sources):
        analysis = analyze(text)
        started = time.perf_counter()
        rules = rules_detector.detect(text, source=source)
        middle = time.perf_counter()
        rejected = rejected_verbs(analysis, model, 0.0)
        clock["rules"] += middle - started
        clock["model"] += time.perf_counter() - middle
        out.append((rules, max((p for _, p in rejected), default=0.0)))
    return out


def rate(rows: list[tuple[bool, float]], threshold: float, combined: bool) -> float:
    fired = sum(1 for rules, p in rows if p >= threshold or (combined and rules))
    return fired / len(rows) if rows else float("nan")


def main(argv: list[str] | None = None) -> int:
    from detectors import DEFAULT_DATA, DEFAULT_NEWSTEST, DEFAULT_YEARS, line_range, newstest

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="DistilLingEval data directory")
    parser.add_argument("--newstest", type=Path, default=DEFAULT_NEWSTEST, help="WMT newstest directory")
    parser.add_argument("--lines", type=line_range, default=(0, 3600), metavar="A:B", help="lines of the set")
    parser.add_argument("--limit", type=int, default=4000, help="at most this many lines per set and per year")
    parser.add_argument("--workers", type=int, default=1, help="analysis processes")
    parser.add_argument("--model", type=Path, help="model directory (default: the shipped model)")
    args = parser.parse_args(argv)

    from arena.formats.distil_lingeval import find_sets, read_distil_lingeval
    from arena.specs.registry import build
    from arena.specs.spec import PerformerSpec
    from performers.catalog import CATALOG
    from performers.german.analysis import analyze_many
    from performers.german.verb_number_model import load_model

    model = load_model(args.model)
    rules_detector = build("zellig", PerformerSpec("subj-verb-agreement", {"detector": "rules"}), CATALOG)
    pairs = []
    for directory in find_sets(args.data, ["subj_verb_agreement"]):
        pairs += read_distil_lingeval(directory, allow_empty=True).pairs[slice(*args.lines)][: args.limit]
    references, ref_sources = newstest(args.newstest, list(DEFAULT_YEARS), args.limit)
    texts = [t for p in pairs for t in (p.correct, p.incorrect)] + references
    analyze_many(texts, workers=args.workers, progress=os.environ.get("ARENA_PROGRESS", "1") != "0")
    started, cpu = time.perf_counter(), time.process_time()
    sources = [p.source for p in pairs]
    clock = {"rules": 0.0, "model": 0.0}
    incorrect = scores([p.incorrect for p in pairs], sources, rules_detector, model, clock)
    correct = scores([p.correct for p in pairs], sources, rules_detector, model, clock)
    human = scores(references, ref_sources, rules_detector, model, clock)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"{len(pairs)} pairs, {len(references)} human references; rules alone: recall "
          f"{rate(incorrect, 2, True):.1%}, correct {rate(correct, 2, True):.1%}, human {rate(human, 2, True):.2%}")
    print(f"{'threshold':>9} | {'model recall':>12} {'correct':>8} {'human':>7} | {'OR recall':>9} {'correct':>8} {'human':>7}")
    for threshold in THRESHOLDS:
        alone = [rate(rows, threshold, False) for rows in (incorrect, correct, human)]
        both = [rate(rows, threshold, True) for rows in (incorrect, correct, human)]
        print(f"{threshold:9.3f} | {alone[0]:12.1%} {alone[1]:8.1%} {alone[2]:7.2%} | "
              f"{both[0]:9.1%} {both[1]:8.1%} {both[2]:7.2%}")
    print(f"rules and model over {len(texts)} texts: {elapsed:.0f} s wall, {cpu:.0f} s CPU; the model took "
          f"{clock['model'] / max(clock['rules'], 1e-9):.2f}× the rules' time ({clock['model']:.0f} s vs {clock['rules']:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
