"""CPU time per scored pair alone and with two more copies on the same cores.

On shared machines (several Ray actors per node, other users' jobs) a scorer whose
OpenMP workers spin while they wait for a taken core burns CPU without progress.
This benchmark runs one scorer process pinned to ``--cpus`` (``os.sched_setaffinity``,
as ``taskset -c`` does), then ``--copies`` identical processes at once on the same
CPUs, and reports each run's CPU time (user + system, all threads) per scored pair
and the ratio shared/alone, for two settings of the environment:

- ``passive``: the Claudes' defaults (:mod:`performers.claude.threads`: threads from
  the CPUs the process may use, ``OMP_WAIT_POLICY=PASSIVE``);
- ``spin``: ``OMP_WAIT_POLICY=ACTIVE`` (OpenMP workers spin while they wait), the
  behaviour the defaults replace, with the same thread count.

Every process scores the same DistilLingEval sequences (caches off) after a
warm-up; model loading is not timed.  The machine's load average is printed with
each run: other processes on the same cores count as "sharing" too.

    python experiments/bench/sharing.py                          # toy-en-de, 300 pairs
    python experiments/bench/sharing.py --claude toy-en-de-ct2 --settings passive
    python experiments/bench/sharing.py --cpus 0 --copies 3 --threads 1
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SETTINGS = {"passive": {"OMP_WAIT_POLICY": "PASSIVE"}, "spin": {"OMP_WAIT_POLICY": "ACTIVE"}}
CLAUDES = ("toy-en-de", "toy-en-de-ct2")


def child(args) -> int:
    """One scoring process: load, warm up, score, print a JSON line."""
    from scoring import DEFAULT_SETS, read_sample

    triples = read_sample(list(DEFAULT_SETS), args.pairs)
    sources = [s for s, _, _ in triples] * 2
    targets = [c for _, c, _ in triples] + [i for _, _, i in triples]
    threads = args.threads or None
    if args.claude == "toy-en-de":
        from performers.claude.toy_en_de import ToyEnDeClaude

        claude = ToyEnDeClaude(cache=False, progress=False, threads=threads)
    else:
        from performers.claude.toy_en_de_ct2 import ToyEnDeCT2Claude

        claude = ToyEnDeCT2Claude(compute_type="float32", cache=False, progress=False, threads=threads)
    claude.score(sources[:16], targets[:16])
    before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    claude.score(sources, targets)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"sequences": len(sources), "wall": wall, "user": after.ru_utime - before.ru_utime,
                      "system": after.ru_stime - before.ru_stime}))
    return 0


def run_copies(args, setting: str, copies: int) -> list[dict]:
    env = {**os.environ, **SETTINGS[setting]}
    env.pop("OMP_NUM_THREADS", None)  # threads come from the affinity (or --threads)
    command = [sys.executable, __file__, "--child", "--claude", args.claude, "--pairs", str(args.pairs),
               "--threads", str(args.threads)]
    cpus = {int(c) for c in args.cpus.split(",")}
    processes = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True,
                                  preexec_fn=lambda: os.sched_setaffinity(0, cpus)) for _ in range(copies)]
    results = []
    for process in processes:
        output, _ = process.communicate()
        if process.returncode:
            raise SystemExit(f"a scoring process failed (exit {process.returncode})")
        results.append(json.loads(output.strip().splitlines()[-1]))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claude", choices=CLAUDES, default="toy-en-de")
    parser.add_argument("--pairs", type=int, default=300, help="contrastive pairs (2 sequences each)")
    parser.add_argument("--cpus", default=",".join(str(c) for c in sorted(os.sched_getaffinity(0))),
                        help="CPUs every process is pinned to (default: all this process may use)")
    parser.add_argument("--copies", type=int, default=3, help="processes at once in the shared run")
    parser.add_argument("--threads", type=int, default=0, help="threads per process (0: the Claude's default)")
    parser.add_argument("--settings", nargs="+", choices=tuple(SETTINGS), default=list(SETTINGS))
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)

    print(f"{args.claude}, {args.pairs} pairs ({2 * args.pairs} sequences) per process, pinned to CPUs {args.cpus}, "
          f"threads {args.threads or 'default'}; {os.cpu_count()} CPUs in the machine")
    header = (f"{'setting':8} {'copies':>6} {'CPU ms/seq':>11} {'of which sys':>12} {'wall s':>7} "
              f"{'× alone (CPU/seq)':>18} {'load avg':>9}")
    print(header)
    print("-" * len(header))
    report = {"claude": args.claude, "pairs": args.pairs, "cpus": args.cpus, "threads": args.threads, "runs": []}
    for setting in args.settings:
        alone = None
        for copies in (1, args.copies):
            load = os.getloadavg()[0]
            results = run_copies(args, setting, copies)
            per_sequence = statistics.mean((r["user"] + r["system"]) / r["sequences"] for r in results)
            system = statistics.mean(r["system"] / (r["user"] + r["system"]) for r in results)
            wall = statistics.mean(r["wall"] for r in results)
            alone = alone or per_sequence
            print(f"{setting:8} {copies:6} {1000 * per_sequence:11.2f} {100 * system:11.0f}% {wall:7.1f} "
                  f"{per_sequence / alone:18.2f} {load:9.1f}")
            report["runs"].append({"setting": setting, "copies": copies, "cpu_seconds_per_sequence": per_sequence,
                                   "system_share": system, "wall_seconds": wall, "load_average_at_start": load,
                                   "ratio_to_alone": per_sequence / alone, "processes": results})
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
