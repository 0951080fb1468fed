"""The quickstart's CPU time on the core install, with each 1-best decoder.

Runs ``arena run experiments/quickstart.yaml`` in a fresh process per decoder, each with an
empty cache (``ARENA_CACHE_DIR``: scores, 1-bests and the CTranslate2 conversion all computed)
and a fresh ``--out``, and reports the child's user + system CPU seconds (``rusage``, as
``/usr/bin/time`` counts them), its wall time, the load average before and after, the ratio
against ``generate`` (Transformers' beam search, the core install's decoder before CTranslate2
became a core dependency), the toy Claude's discrepancy and its signature.  ``auto`` is what
the README's first command runs.

    python experiments/bench/quickstart_cpu.py                       # auto, then generate
    python experiments/bench/quickstart_cpu.py --decoders auto
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.stats.results import Scores, read_scores

ROOT = Path(__file__).resolve().parents[2]


def run(decoder: str, folder: Path) -> dict:
    env = {**os.environ, "ARENA_CACHE_DIR": str(folder / "cache"), "ARENA_PROGRESS": "0"}
    # what the ``arena`` script runs
    command = [sys.executable, "-c", "from arena.cli import main; raise SystemExit(main())", "run", "experiments/quickstart.yaml", "--out", str(folder / "runs")]
    if decoder != "auto":
        command += ["--set", f"claudes.0.params.decoder={decoder}"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_before, started = os.getloadavg()[0], time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{decoder}: exit {done.returncode}\n{done.stderr[-3000:]}")
    (run_dir,) = (folder / "runs").iterdir()
    scores = read_scores(run_dir)
    return {
        "decoder": decoder,
        "cpu_seconds": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "wall_seconds": wall,
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "discrepancy": discrepancy(scores),
        "signature": scores.signature,
    }


def discrepancy(scores: Scores) -> float | None:
    """The toy Claude's distributional discrepancy over the run (that of the first cell in
    ``scores.json`` whose Claude names ``toy``)."""
    found = (cell.summary.value("discrepancy") for cell in scores.cells if "toy" in cell.claude)
    return next((value for value in found if value is not None), None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decoders", nargs="+", default=["auto", "generate"], choices=("auto", "ctranslate2", "generate"))
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args()
    results = []
    for decoder in args.decoders:
        with tempfile.TemporaryDirectory(prefix=f"arena-quickstart-{decoder}-") as folder:
            results.append(run(decoder, Path(folder)))
        r = results[-1]
        print(f"{decoder:10} CPU {r['cpu_seconds']:6.1f} s  wall {r['wall_seconds']:6.1f} s  load {r['load_before']:.1f}"
              f"→{r['load_after']:.1f}  discrepancy {r['discrepancy']}", flush=True)
        print(f"           {r['signature']}", flush=True)
    baseline = next((r for r in results if r["decoder"] == "generate"), None)
    if baseline:
        for r in results:
            print(f"{r['decoder']:10} CPU × generate: {r['cpu_seconds'] / baseline['cpu_seconds']:.2f}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
