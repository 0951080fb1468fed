"""Memory of ``arena corrupt`` on many distinct lines: bounded caches against the
tournament-sized caches it used before (measured in the same run).

Distinct German lines (``parallel-toy/train.de`` then ``newstest*.de``, duplicates left
out; repeated with a line number prefix when ``--lines`` asks for more) stream through
``arena corrupt --zellig ZELLIG`` in a fresh process per setting:

- ``before``: the caches sized as before streaming verbs bounded them (100,000 analyses
  and tagged sentences, 500,000 words per HanTa memo), set with
  :func:`performers.german.analysis.limit_caches` before the verb runs;
- ``bounded``: ``arena corrupt`` as shipped (a few blocks of analyses, 20,000 words).

For each it prints the peak RSS, the RSS above that of the same process on 20 lines (the
libraries and models), the time per line and the CPU seconds, and with ``--every N`` the
curve as it goes (lines, peak RSS, CPU s); with both settings, the ratios.  Each process
starts with an empty analysis store (a fresh ``ARENA_CACHE_DIR``), so every line is
analysed cold.  The issue's target: 200,000 distinct lines stay under 400 MB.

    python experiments/bench/corrupt_memory.py --lines 200000 --settings bounded --every 10000
    python experiments/bench/corrupt_memory.py --lines 5000 --zellig placeholder-ding

Measured (2026-11-25, 2-core machine shared with other jobs; placeholder-ding):

- 8,000 lines: before 387 MB peak (44 above the libraries' 343), bounded 354 MB (11 above);
  ratios 0.92 peak, 0.26 above the libraries.
- 30,000 lines: before 529 MB peak (186 above 343), bounded 364 MB (22 above 342); ratios 0.69
  peak, 0.12 above the libraries.  Before, ~6 KB stayed per distinct line up to the 100,000
  analyses kept (~0.95 GB projected at 200,000 lines, the issue's 980 MB); bounded, the
  analyses stop at 1,024 and each word cache at 20,000 entries.
- 200,000 lines, bounded only (``nice -n 5``, load average 7-11 falling to 2): peak RSS 380 MB,
  35 MB above the 20-line run's 344 MB; target met.  CPU 1,380 s (6.9 ms a line; 21.6 ms a
  line of wall time under that load).  The curve (lines: peak RSS, CPU):

      10k: 361 MB, 67 s     60k: 369 MB, 371 s    110k: 371 MB, 657 s    160k: 380 MB, 1089 s
      20k: 365 MB, 125 s    70k: 370 MB, 436 s    120k: 374 MB, 712 s    170k: 380 MB, 1162 s
      30k: 368 MB, 182 s    80k: 370 MB, 497 s    130k: 380 MB, 832 s    180k: 380 MB, 1240 s
      40k: 369 MB, 244 s    90k: 370 MB, 554 s    140k: 380 MB, 933 s    190k: 380 MB, 1308 s
      50k: 369 MB, 306 s   100k: 370 MB, 604 s    150k: 380 MB, 1013 s   200k: 380 MB, 1380 s

  Flat but for one step at 120-130k lines, where ``parallel-toy/train.de`` (124,880 lines)
  gives way to the longer newstest sentences (bigger analyses in the same 1,024 kept).  Besides
  the analyses and HanTa's word memos, the compound splits, verb paradigms and Zipf
  frequencies (ours and wordfreq's own, 100,000 words each before) follow the streaming
  bound of 20,000 words.  ``before`` was not run at 200,000 lines (1-3 hours more here); its
  setting still raises those word caches to 500,000 with the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / ".." / "shared" / "data"

CHILD = """
import json, resource, sys, time
from arena.cli import main
if sys.argv[1] == "before":
    from performers.german.analysis import limit_caches
    import arena.cli.corrupt as corrupt
    corrupt.bound_caches = lambda batch: limit_caches(texts=100_000, words=500_000)
every = int(sys.argv[4])

def usage():
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_maxrss / 1024, own.ru_utime + own.ru_stime

class Counting:  # one jsonl output line per input line: report peak RSS and CPU every `every` lines
    lines = 0
    def write(self, text):
        before = self.lines
        self.lines += text.count("\\n")
        if every and self.lines // every > before // every:
            rss, cpu = usage()
            print(json.dumps({"lines": self.lines, "max_rss_mb": rss, "cpu_s": cpu}), file=sys.stderr, flush=True)
        return len(text)
    def flush(self):
        pass

started = time.perf_counter()
sys.stdout = Counting()
status = main(["corrupt", "--zellig", sys.argv[2], "--input", sys.argv[3], "--no-progress"])
seconds = time.perf_counter() - started
rss, cpu = usage()
print(json.dumps({"status": status, "seconds": seconds, "lines": sys.stdout.lines, "max_rss_mb": rss,
                  "cpu_s": cpu}), file=sys.stderr)
"""


def distinct_lines(count: int) -> list[str]:
    files = [DATA / "parallel-toy" / "train.de", *sorted((DATA / "wmt" / "newstest").glob("newstest*.de"))]
    seen: dict[str, None] = {}
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                seen.setdefault(line, None)
            if len(seen) >= count:
                return list(seen)
    lines = list(seen)
    return [lines[i % len(lines)] if i < len(lines) else f"{i}: {lines[i % len(lines)]}" for i in range(count)]


def measure(setting: str, zellig: str, path: Path, every: int = 0) -> dict:
    """One fresh process (and a fresh, empty analysis store: every line is analysed cold);
    with ``every``, the curve (lines, peak RSS, CPU s) is printed as it goes."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=str(ROOT), ARENA_PROGRESS="0", OMP_NUM_THREADS="1",
                   ARENA_CACHE_DIR=cache, ARENA_ANALYSIS_CACHE="")
        child = subprocess.Popen([sys.executable, "-c", CHILD, setting, zellig, str(path), str(every)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert child.stderr is not None
        tail: list[str] = []
        for line in child.stderr:
            tail = [*tail[-50:], line]
            if line.startswith('{"lines"'):
                point = json.loads(line)
                print(f"  {setting:8} {point['lines']:>7} lines: peak RSS {point['max_rss_mb']:.0f} MB, "
                      f"CPU {point['cpu_s']:.0f} s", flush=True)
        if child.wait() != 0:
            raise SystemExit(f"{setting}: failed:\n{''.join(tail)[-2000:]}")
    return json.loads(tail[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--zellig", default="placeholder-ding")
    parser.add_argument("--settings", nargs="+", choices=("before", "bounded"), default=["before", "bounded"],
                        help="which settings to measure (both: the ratios)")
    parser.add_argument("--every", type=int, default=10_000, help="print the curve every N lines (0: only the end)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        small, big = Path(scratch) / "small.de", Path(scratch) / "big.de"
        lines = distinct_lines(args.lines)
        small.write_text("".join(f"{line}\n" for line in lines[:20]), encoding="utf-8")
        big.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        results = {}
        for setting in args.settings:
            base = measure(setting, args.zellig, small)["max_rss_mb"]
            result = measure(setting, args.zellig, big, args.every)
            result["above_libraries_mb"] = result["max_rss_mb"] - base
            results[setting] = result
            print(f"{setting:8} {args.lines} lines: peak RSS {result['max_rss_mb']:.0f} MB "
                  f"({result['above_libraries_mb']:.0f} MB above the 20-line run's {base:.0f} MB), "
                  f"{1000 * result['seconds'] / args.lines:.2f} ms/line, CPU {result['cpu_s']:.0f} s", flush=True)
    if "bounded" in results:
        print(f"target: under 400 MB peak -> {'met' if results['bounded']['max_rss_mb'] < 400 else 'NOT met'} "
              f"at {args.lines} lines")
    if len(results) < 2:
        return
    before, bounded = results["before"], results["bounded"]
    print(f"bounded / before: peak RSS {bounded['max_rss_mb'] / before['max_rss_mb']:.2f}, "
          f"RSS above libraries {bounded['above_libraries_mb'] / max(before['above_libraries_mb'], 1e-9):.2f}, "
          f"time per line {bounded['seconds'] / before['seconds']:.2f}")


if __name__ == "__main__":
    main()
