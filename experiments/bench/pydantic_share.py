"""What pydantic costs the quickstart: its share of the run's CPU time, measured by profiling.

Runs ``arena run experiments/quickstart.yaml`` in a fresh process under :mod:`cProfile` with a
CPU clock (``time.process_time``), an empty cache (``ARENA_CACHE_DIR``: scores, 1-bests and the
CTranslate2 conversion all computed) and a fresh ``--out``, then sums the self time of every
function that belongs to pydantic: Python code of the ``pydantic`` and ``pydantic_core``
packages (their import included) and pydantic-core's compiled validators and serialisers (the
config's and the performers' parameters checked, the records, the manifest and ``scores.json``
written and read by :mod:`arena.codec`).  It prints that time, the profiled total, the share
(the quickstart's target: under 3%), the five largest pydantic entries, and the load average
before and after.  Profiling slows small functions more than large ones, so the share is an
upper bound rather than an exact figure; the run's transcripts are the same as without it.

    python experiments/bench/pydantic_share.py
    python experiments/bench/pydantic_share.py --config experiments/cues/balance-length.yaml
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import cProfile, json, pstats, sys, time
from arena.cli import main
profile = cProfile.Profile(time.process_time)
profile.enable()
try:
    code = main(["run", sys.argv[1], "--out", sys.argv[2]])
finally:
    profile.disable()
stats = pstats.Stats(profile)
total = stats.total_tt
rows = []
for (file, line, name), (calls, _, own, cumulative, _) in stats.stats.items():
    mine = "pydantic" in file or "pydantic_core" in name or "pydantic" in name
    if mine:
        rows.append((own, f"{file.rsplit('site-packages/', 1)[-1]}:{line} {name}", calls))
rows.sort(reverse=True)
print(json.dumps({"code": code, "total": total, "pydantic": sum(r[0] for r in rows), "top": rows[:5]}))
"""


def measure(config: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="arena-pydantic-") as folder:
        env = {**os.environ, "ARENA_CACHE_DIR": str(Path(folder) / "cache"), "ARENA_PROGRESS": "0",
               "PYTHONPATH": str(ROOT)}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CHILD, config, str(Path(folder) / "runs")], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"pydantic_share: the run failed:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall"] = wall
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="experiments/quickstart.yaml")
    args = parser.parse_args()
    before = os.getloadavg()[0]
    result = measure(args.config)
    after = os.getloadavg()[0]
    share = result["pydantic"] / result["total"] if result["total"] else 0.0
    print(f"{args.config}: profiled CPU {result['total']:.2f} s (wall {result['wall']:.1f} s), "
          f"in pydantic {result['pydantic']:.3f} s = {100 * share:.2f}%   load {before:.1f} -> {after:.1f}")
    for own, where, calls in result["top"]:
        print(f"  {own:8.3f} s  {calls:>8}  {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
