"""Calibrate the cost planner (``arena tournament CONFIG --plan``) on this machine.

Measures, in CPU seconds of this process (``time.process_time``; wall seconds for a Claude on a GPU):

- per Claude of each ``--config`` (keyed by its signature): building it (``load``, with one small
  warm-up call), then scoring the references of ``--pairs`` of the config's instances
  (``score_per_word``: seconds per target word, +1 for end of sentence) and decoding ``--sources``
  sources with beam search (``decode_per_word``: seconds per source word +1); a Claude that does not
  score: judging pairs (``judge_per_round``);
- the driver: two in-process runs with the ``replay`` Zellig and the ``random`` Claude on
  DistilLingEval (planning, transcripts, cells, ``scores.json`` with the config's bootstrap), one of
  a single cell and one of nine; their CPU less their planning gives seconds per judged round and
  Claude (``per_round``) and per cell (``per_cell``).

The file records the date and the machine (processor, CPUs, GPU, load average).

    python experiments/bench/calibrate.py                               # the shipped tournament configs
    python experiments/bench/calibrate.py --config my.yaml --out calibration.json
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

CONFIGS = ["experiments/tournament/smoke.yaml", "experiments/tournament/distil-lingeval.yaml"]
DISTIL = "../shared/data/distil-lingeval/placeholder_ding.human"


def machine() -> dict:
    gpu = None
    try:
        import torch

        if torch.cuda.is_available():
            gpu = torch.cuda.get_device_name(0)
    except ImportError:
        pass
    processor = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                processor = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"platform": platform.platform(), "processor": processor, "cpus": os.cpu_count(), "gpu": gpu,
            "load": [round(x, 2) for x in os.getloadavg()]}


def on_gpu(spec) -> bool:
    return str(spec.params.get("device", "cpu")).startswith("cuda")


def calibrate_claude(spec, instances, pairs: int, sources: int, beam: int) -> dict:
    from arena.engine.cost import is_scoring, words
    from arena.records import Pair
    from arena.specs.registry import build
    from performers.catalog import CATALOG

    gpu = on_gpu(spec)
    clock = time.perf_counter if gpu else time.process_time
    sample = [i for i in instances if i.source][: max(pairs, sources)]
    started = clock()
    claude = build("claude", spec, CATALOG)
    if is_scoring(spec, CATALOG):
        claude.score([sample[0].source], [sample[0].reference])  # warm-up: counted as loading
        load = clock() - started
        chosen = sample[:pairs]
        started = clock()
        claude.score([i.source for i in chosen], [i.reference for i in chosen])
        score = (clock() - started) / sum(words(i.reference) for i in chosen)
        chosen = sample[:sources]
        started = clock()
        claude.translate([i.source for i in chosen], beam=beam)
        decode = (clock() - started) / sum(words(i.source) for i in chosen)
        return {"unit": "GPU" if gpu else "CPU", "load": load, "score_per_word": score, "decode_per_word": decode}
    load = clock() - started
    chosen = [Pair(i.id, i.source, (i.reference, i.reference + " Ding")) for i in sample[:pairs]]
    started = clock()
    claude.judge(chosen)
    return {"unit": "GPU" if gpu else "CPU", "load": load, "judge_per_round": (clock() - started) / len(chosen)}


def driver_run(folder: Path, limit: int, zelligs: int, seeds: list[int], bootstrap: int) -> tuple[float, int, int]:
    """CPU seconds of one in-process run less its planning, its judged rounds and its cells."""
    from arena.api import play
    from arena.engine.cost import count_work
    from arena.specs.config import experiment_from_dict
    from performers.catalog import CATALOG

    config = {
        "name": f"calibrate-{limit}-{zelligs}",
        "johns": [{"name": "distil-lingeval", "params": {"dir": DISTIL, "limit": limit}}],
        "zelligs": [{"name": "replay", "alias": f"replay{z}"} for z in range(zelligs)],
        "claudes": [{"name": "random"}],
        "seeds": seeds,
        "bootstrap_samples": bootstrap,
        "discrepancy": False,
    }
    experiment = experiment_from_dict(config)
    work = count_work(experiment, CATALOG)
    started = time.process_time()
    play(experiment, folder, "in-process", performers=CATALOG)
    return time.process_time() - started - work.plan_seconds, work.judged, work.cells


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", action="append", default=None, help="experiment(s) whose Claudes to calibrate")
    parser.add_argument("--out", type=Path, default=None, help="calibration file (default: the planner's default)")
    parser.add_argument("--pairs", type=int, default=96, help="pairs scored or judged per Claude (96)")
    parser.add_argument("--sources", type=int, default=24, help="sources decoded per scoring Claude (24)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap samples of the driver runs (1000)")
    args = parser.parse_args(argv)
    os.chdir(REPO)  # configs name data relative to the repository root
    os.environ.setdefault("ARENA_PROGRESS", "0")
    from arena.engine import calibration
    from arena.engine.plan import load_instances
    from arena.record.order import models
    from arena.specs.config import load_experiment
    from performers.catalog import CATALOG

    found = machine()
    claudes: dict[str, dict] = {}
    for config in args.config or CONFIGS:
        experiment = load_experiment(config)
        instances = [i for items in load_instances(experiment, CATALOG).values() for i in items]
        for model in models(experiment):
            key = calibration.claude_key(model.spec, CATALOG)
            if key not in claudes:
                claudes[key] = calibrate_claude(model.spec, instances, args.pairs, args.sources, experiment.beam)
                print(f"{key}: {claudes[key]}")
    with tempfile.TemporaryDirectory(prefix="arena-calibrate-") as folder:
        one, judged_one, cells_one = driver_run(Path(folder), 300, 1, [1], args.bootstrap)
        many, judged_many, cells_many = driver_run(Path(folder), 100, 3, [1, 2, 3], args.bootstrap)
    # one = r*J1 + c*C1, many = r*J2 + c*C2
    determinant = judged_one * cells_many - judged_many * cells_one
    per_round = max(0.0, (one * cells_many - many * cells_one) / determinant)
    per_cell = max(0.0, (many - per_round * judged_many) / cells_many)
    print(f"driver: {one:.2f} CPU-s for {judged_one} rounds in {cells_one} cell, {many:.2f} CPU-s for {judged_many} "
          f"rounds in {cells_many} cells -> {per_round * 1000:.3f} ms a round, {per_cell * 1000:.1f} ms a cell")
    result = calibration.Calibration(
        datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"), found,
        calibration.DriverRates(per_round, per_cell), claudes,
    )
    path = args.out or calibration.default_path()
    calibration.save(result, path)
    print(f"wrote {path} ({found['processor']}, {found['cpus']} CPUs, GPU: {found['gpu']}, load {found['load']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
