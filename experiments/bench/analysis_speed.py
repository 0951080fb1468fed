"""Speed of the German analysis + all German Zelligs on newstest2009, against a naive baseline.

Three ways of corrupting the same references with every German Zellig of the catalog, measured in
the same run:

- ``naive``: no sharing — before each Zellig call every cache (analyses, HanTa's tags per sentence,
  morphemes) is emptied, so each Zellig re-analyses each sentence (what one analysis per Zellig costs);
- ``shared``: one cached analysis per sentence, shared by all Zelligs (one process);
- ``shared+pool``: the same, with the analyses computed by ``--workers`` processes first
  (:func:`performers.german.analysis.analyze_many`).

It prints sentences per second for each, their ratios, and the projected time for newstest2009–2016
(the line count of those files, ~22k sentences).  The naive baseline runs on the first
``--baseline-limit`` sentences only (it is many times slower); sentences/s are comparable.

    python experiments/bench/analysis_speed.py
    python experiments/bench/analysis_speed.py --limit 500 --baseline-limit 50 --workers 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NEWSTEST = ROOT / ".." / "shared" / "data" / "wmt" / "newstest"
sys.path.insert(0, str(ROOT))



def read_lines(path: Path) -> list[str]:
    """Lines split at newlines only (``str.splitlines`` would also split at U+2028 and U+0085 inside
    lines of these files)."""
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def corrupt_all(zelligs, instances, naive: bool = False) -> int:
    from performers.german.analysis import clear_cache

    produced = 0
    for instance in instances:
        for zellig in zelligs.values():
            if naive:
                clear_cache(backends=True)
            produced += len(zellig.corrupt(instance))
    return produced


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--newstest", type=Path, default=NEWSTEST, help="folder with newstestYYYY.de files")
    parser.add_argument("--limit", type=int, help="only the first N sentences of newstest2009")
    parser.add_argument("--baseline-limit", type=int, default=100, help="sentences for the naive baseline (100)")
    parser.add_argument("--workers", type=int, default=2, help="processes for shared+pool (2)")
    args = parser.parse_args(argv)

    from arena.records import Instance
    from arena.specs.registry import build
    from arena.specs.spec import PerformerSpec
    from performers.catalog import CATALOG
    from performers.german.analysis import analyze, analyze_many, clear_cache

    path = args.newstest / "newstest2009.de"
    if not path.is_file():
        print(f"no newstest2009.de under {args.newstest}", file=sys.stderr)
        return 2
    lines = read_lines(path)[: args.limit]
    instances = [Instance(f"newstest2009.{i}", "", line) for i, line in enumerate(lines, start=1)]
    names = list(CATALOG.zellig_groups["all"])
    zelligs = {name: build("zellig", PerformerSpec(name), CATALOG) for name in names}
    # warm-up: load the backend, the noun lexicon and whatever each Zellig loads lazily
    for zellig in zelligs.values():
        zellig.corrupt(Instance("warm-up", "", "Die unklare Lage des Bundesverfassungsgerichts ist nicht wichtig."))
    analyze("Warm-up.")

    baseline = instances[: args.baseline_limit]
    clear_cache(backends=True)
    started = time.perf_counter()
    corrupt_all(zelligs, baseline, naive=True)
    naive_rate = len(baseline) / (time.perf_counter() - started)

    clear_cache(backends=True)
    started = time.perf_counter()
    produced = corrupt_all(zelligs, instances)
    shared_seconds = time.perf_counter() - started
    shared_rate = len(instances) / shared_seconds

    clear_cache(backends=True)
    started = time.perf_counter()
    analyze_many(lines, workers=args.workers)
    analysed = time.perf_counter() - started
    corrupt_all(zelligs, instances)
    pool_seconds = time.perf_counter() - started
    pool_rate = len(instances) / pool_seconds

    total = sum(
        len(read_lines(args.newstest / f"newstest{year}.de"))
        for year in range(2009, 2017)
        if (args.newstest / f"newstest{year}.de").is_file()
    )
    print(f"{len(names)} German Zelligs: {', '.join(names)}")
    print(f"newstest2009: {len(instances)} sentences, {produced} candidates")
    print(f"naive (re-analysis per Zellig, {len(baseline)} sentences): {naive_rate:8.1f} sentences/s")
    print(f"shared analysis, 1 process:            {shared_rate:8.1f} sentences/s  ({shared_rate / naive_rate:.1f}x naive)")
    print(
        f"shared analysis, {args.workers} processes:          {pool_rate:8.1f} sentences/s  "
        f"({pool_rate / naive_rate:.1f}x naive; analysis {analysed:.1f} s of {pool_seconds:.1f} s)"
    )
    print(
        f"newstest2009-2016 ({total} sentences): naive {total / naive_rate / 60:.1f} min, "
        f"shared {total / shared_rate / 60:.1f} min, shared+pool {total / pool_rate / 60:.1f} min"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
