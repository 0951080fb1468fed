"""Benchmark: one tournament in process vs on a local Ray, and what deduplication saves.

Plays the same tournament twice in one run — in process (one job after another, the
baseline) and on a local Ray started here (Claude actors, Zellig tasks) — and prints

- the wall time of each and their ratio (with and without Ray's start-up),
- whether the transcripts are byte-identical (rounds, judgements, 1-bests),
- per scoring Claude model, the scoring requests of all cells before deduplication
  (what scoring each cell on its own would send: two candidates per round) and after
  (each distinct (source, candidate) pair once per model), and the distinct sources
  decoded once for the 1-best.

Usage (from the repository root)::

    python experiments/bench/tournament.py                       # experiments/tournament/distil-lingeval.yaml
    python experiments/bench/tournament.py --limit 20 --num-cpus 2
    python experiments/bench/tournament.py --config my.yaml --set seeds=[1,2,3]

Run directories go to a temporary directory (``--out`` to keep them).  Models that
keep a persistent score cache should have it switched off in the config (the shipped
config does), or the second run would be served from the first run's cache.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from arena.api import play  # noqa: E402
from arena.record import transcripts  # noqa: E402
from arena.specs.config import load_experiment  # noqa: E402
from performers.catalog import CATALOG  # noqa: E402

FILES = (transcripts.ROUNDS, transcripts.JUDGEMENTS, transcripts.ONEBEST)


def read(run_dir: Path, name: str) -> bytes | None:
    path = run_dir / name
    return path.read_bytes() if path.exists() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=str(REPO / "experiments/tournament/distil-lingeval.yaml"))
    parser.add_argument("--limit", type=int, default=None, help="instances per John (sets johns.N.params.limit)")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray (default: all)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", default=None, help="keep the run directories here (default: a temporary directory)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("ARENA_PROGRESS", "0")
    os.chdir(REPO)  # configs name data relative to the repository root

    overrides = list(args.overrides)
    if args.limit is not None:
        raw = load_experiment(args.config)
        overrides += [f"johns.{i}.params.limit={args.limit}" for i in range(len(raw.johns))]
    experiment = load_experiment(args.config, overrides)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="arena-bench-tournament-"))
    shape = " × ".join(
        f"{len(items)} {role}" for role, items in
        (("Johns", experiment.johns), ("Zelligs", experiment.zelligs), ("Claudes", experiment.claudes),
         ("seeds", experiment.seeds))
    )
    print(f"tournament {experiment.name}: {shape} = "
          f"{len(experiment.johns) * len(experiment.zelligs) * len(experiment.claudes) * len(experiment.seeds)} cells")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")

    started = time.perf_counter()
    local = play(experiment, out / "in-process", "in-process", performers=CATALOG)
    local_seconds = time.perf_counter() - started
    print(f"in process:  {local_seconds:8.1f} s")

    from arena.engine.ray_backend import RayBackend

    started = time.perf_counter()
    backend = RayBackend(CATALOG, experiment.ray, num_cpus=args.num_cpus)
    startup = time.perf_counter() - started
    try:
        on_ray = play(experiment, out / "ray", backend, performers=CATALOG)
    finally:
        backend.close()
    ray_seconds = time.perf_counter() - started
    cpus = args.num_cpus or experiment.ray.num_cpus or os.cpu_count()
    print(f"local Ray:   {ray_seconds:8.1f} s  ({cpus} CPUs; Ray start-up {startup:.1f} s)")
    print(f"ratio in process / Ray: {local_seconds / ray_seconds:.2f}×  "
          f"({local_seconds / (ray_seconds - startup):.2f}× without Ray's start-up)")

    same = {name: read(local.run_dir, name) == read(on_ray.run_dir, name) for name in FILES}
    rounds = sum(1 for _ in transcripts.read_jsonl(local.run_dir / transcripts.ROUNDS))
    print(f"transcripts byte-identical ({rounds} rounds): "
          + ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in same.items()))

    print("deduplicated scoring per model (requests of all cells → distinct pairs sent):")
    for model, work in local.work.items():
        if "requests" not in work:
            continue
        requests, unique = work["requests"], work["unique"]
        ratio = requests / unique if unique else float("nan")
        line = f"  {model}: {requests} → {unique} ({ratio:.2f}× fewer, {1 - unique / requests:.0%} saved)"
        if "one_best_sources" in work:
            line += f"; 1-best: {work['one_best_sources']} distinct sources decoded once"
        print(line)
    if on_ray.work != local.work:
        print(f"  (Ray session counted differently: {on_ray.work})")
    print(f"run directories: {out}")
    return 0 if all(same.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
