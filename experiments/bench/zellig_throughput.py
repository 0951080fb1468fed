"""All German Zelligs over the newstest references, cold and warm, with the on-disk German analysis.

Every German Zellig of the catalog (the ``all`` group) corrupts every reference of newstest2009-2016
(``--years``), in ``--workers`` fresh processes that share one analysis store
(:mod:`performers.german.analysis_store`):

- ``cold``: the store is empty, so every sentence is tokenised, tagged and analysed once (by whichever
  worker meets it first) and written to the store;
- ``warm``: new processes (empty memory), the same store: analyses and morphemes are read back.

Both phases include starting the processes and building the Zelligs.  It prints sentences, candidates,
wall seconds and sentences per second for each phase, and warm as a share of cold (measured in the
same run).  Candidates must be equal in both phases (the store changes no result).

    python experiments/bench/zellig_throughput.py                  # 22k sentences, 2 workers
    python experiments/bench/zellig_throughput.py --limit 2000 --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NEWSTEST = ROOT / ".." / "shared" / "data" / "wmt" / "newstest"
sys.path.insert(0, str(ROOT))


def read_lines(path: Path) -> list[str]:
    """Lines split at newlines only (``str.splitlines`` would also split at U+2028 and U+0085)."""
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


_ZELLIGS: dict = {}


def _init_worker() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from arena.specs.registry import build
    from arena.specs.spec import PerformerSpec
    from performers.catalog import CATALOG

    for name in CATALOG.zellig_groups["all"]:
        _ZELLIGS[name] = build("zellig", PerformerSpec(name), CATALOG)


def _corrupt_chunk(chunk: list[tuple[str, str]]) -> tuple[int, float]:
    from arena.records import Instance

    started = time.process_time()
    produced = 0
    for key, reference in chunk:
        instance = Instance(key, "", reference)
        for zellig in _ZELLIGS.values():
            produced += len(zellig.corrupt(instance))
    return produced, time.process_time() - started


def phase(sentences: list[tuple[str, str]], workers: int, chunk: int) -> tuple[float, float, int]:
    """Wall seconds, the workers' CPU seconds in the Zelligs, and candidates of one pass of every Zellig
    over ``sentences`` in fresh processes."""
    started = time.perf_counter()
    chunks = [sentences[i : i + chunk] for i in range(0, len(sentences), chunk)]
    with multiprocessing.get_context("spawn").Pool(workers, initializer=_init_worker) as pool:
        results = list(pool.imap_unordered(_corrupt_chunk, chunks))
    return time.perf_counter() - started, sum(r[1] for r in results), sum(r[0] for r in results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--newstest", type=Path, default=NEWSTEST, help="folder with newstestYYYY.de files")
    parser.add_argument("--years", default="2009-2016", help="first-last year (2009-2016)")
    parser.add_argument("--limit", type=int, help="only the first N sentences over all years")
    parser.add_argument("--workers", type=int, default=2, help="processes (2)")
    parser.add_argument("--chunk", type=int, default=200, help="sentences per task (200)")
    args = parser.parse_args(argv)

    first, last = (int(year) for year in args.years.split("-"))
    sentences = []
    for year in range(first, last + 1):
        path = args.newstest / f"newstest{year}.de"
        if not path.is_file():
            print(f"no {path}", file=sys.stderr)
            return 2
        sentences += [(f"newstest{year}.{i}", line) for i, line in enumerate(read_lines(path), start=1)]
    sentences = sentences[: args.limit]
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="arena-analysis-bench-") as folder:
        os.environ["ARENA_ANALYSIS_CACHE"] = str(Path(folder) / "german-analysis.sqlite")
        cold, cold_cpu, produced_cold = phase(sentences, args.workers, args.chunk)
        size = sum(path.stat().st_size for path in Path(folder).iterdir())
        warm, warm_cpu, produced_warm = phase(sentences, args.workers, args.chunk)
    load_after = os.getloadavg()
    if produced_cold != produced_warm:
        print(f"candidates differ: cold {produced_cold}, warm {produced_warm}", file=sys.stderr)
        return 1
    n = len(sentences)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after {load_after[0]:.2f}")
    print(f"{n} sentences of newstest{args.years}, 16 German Zelligs, {args.workers} worker processes, "
          f"{produced_cold} candidates")
    print(f"cold (empty store): {cold:7.1f} s wall  {n / cold:7.1f} sentences/s  {cold_cpu:7.1f} CPU-s in Zelligs "
          f"({cold_cpu / n * 1000:.2f} ms a sentence)")
    print(f"warm (same store):  {warm:7.1f} s wall  {n / warm:7.1f} sentences/s  {warm_cpu:7.1f} CPU-s in Zelligs "
          f"({warm_cpu / n * 1000:.2f} ms a sentence)")
    print(f"warm/cold: wall {warm / cold:.2f}, CPU {warm_cpu / cold_cpu:.2f}")
    print(f"store: {size / 2**20:.1f} MiB ({size / n:.0f} bytes a sentence)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
