"""How close the cost planner's estimate comes to the measured cost of the shipped tournaments.

For each config, two fresh processes, each with an empty German analysis store:

1. ``arena tournament CONFIG --plan --json --calibration FILE``: the estimate (CPU seconds on this
   machine, from the calibration ``experiments/bench/calibrate.py`` wrote);
2. the same tournament played in process (``arena.engine.run``, no reports), its CPU seconds
   (``time.process_time`` around the run; one process, so CPU seconds do not depend on the load of a
   shared machine the way wall seconds do) and wall seconds.

It prints estimate, measured, and estimate/measured per config.

    python experiments/bench/calibrate.py --out /tmp/calibration.json
    python experiments/bench/planner_accuracy.py --calibration /tmp/calibration.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CONFIGS = ["experiments/tournament/smoke.yaml", "experiments/tournament/distil-lingeval.yaml"]

_PLAY = """
import json, sys, time
from pathlib import Path
from arena.api import play
from arena.specs.config import load_experiment
from performers.catalog import CATALOG
experiment = load_experiment(sys.argv[1])
cpu, wall = time.process_time(), time.perf_counter()
result = play(experiment, Path(sys.argv[2]), "in-process", performers=CATALOG)
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "work": result.work}))
"""


def fresh_env(folder: Path, name: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "ARENA_PROGRESS": "0", "OMP_NUM_THREADS": "1",
            "ARENA_ANALYSIS_CACHE": str(folder / f"{name}.sqlite")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", action="append", default=None)
    parser.add_argument("--calibration", type=Path, default=None, help="calibration file (default: the planner's)")
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="arena-planner-") as tmp:
        folder = Path(tmp)
        for number, config in enumerate(args.config or CONFIGS):
            command = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())",
                       "tournament", config, "--plan", "--json", "--no-progress"]
            if args.calibration:
                command += ["--calibration", str(args.calibration)]
            planned = subprocess.run(command, cwd=REPO, env=fresh_env(folder, f"plan{number}"), capture_output=True,
                                     text=True, check=True)
            plan = json.loads(planned.stdout)
            if "estimate" not in plan or plan["estimate"]["uncalibrated"]:
                print(f"{config}: no complete estimate (calibrate its Claudes first)", file=sys.stderr)
                return 2
            played = subprocess.run([sys.executable, "-c", _PLAY, config, str(folder / f"runs{number}")], cwd=REPO,
                                    env=fresh_env(folder, f"run{number}"), capture_output=True, text=True, check=True)
            measured = json.loads(played.stdout.strip().splitlines()[-1])
            rows.append((config, plan["estimate"]["total_seconds"], measured["cpu"], measured["wall"]))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'config':<45} {'estimate CPU-s':>15} {'measured CPU-s':>15} {'wall s':>8} {'estimate/measured':>18}")
    for config, estimate, cpu, wall in rows:
        print(f"{config:<45} {estimate:>15.1f} {cpu:>15.1f} {wall:>8.1f} {estimate / cpu:>18.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
