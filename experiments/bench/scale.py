"""Throughput and peak memory of a scoring Claude from a thousand to a hundred thousand pairs.

Each size runs in a fresh process (so peak RSS is that run's own): the first ``n``
(source, target) sequences of all DistilLingEval sets (correct and incorrect
variants, in file order, duplicates kept as a user's file has them), then of the
newstest source–reference pairs (for sizes beyond DistilLingEval's 91,770), are scored with
caches off; the process reports wall and CPU time, sequences per CPU-second and its
peak resident set size (``ru_maxrss``).  Scoring hands the model bounded chunks of
requests (:data:`performers.claude.scoring.CHUNK_REQUESTS`), so peak memory should
stay flat beyond one chunk while throughput stays constant.

    python experiments/bench/scale.py --sizes 1000 10000 100000 --threads 1
    python experiments/bench/scale.py --arch opus-mt-en-de --sizes 200 1000 --threads 1
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NEWSTEST = ROOT / ".." / "shared" / "data" / "wmt" / "newstest"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def sequences(n: int) -> tuple[list[str], list[str]]:
    """The first ``n`` (source, target) sequences: every DistilLingEval pair (correct, then
    incorrect), then the newstest source–reference pairs, 2009 onwards (91,770 + ~30,000)."""
    from scoring import DISTIL

    sources, targets = [], []
    for directory in sorted(DISTIL.iterdir()):
        if not (directory / "src.en").is_file():
            continue
        columns = [(directory / f).read_text(encoding="utf-8").split("\n")
                   for f in ("src.en", "tgt.correct.de", "tgt.incorrect.de")]
        for source, correct, incorrect in zip(*columns):
            if source.strip():
                sources += [source, source]
                targets += [correct, incorrect]
    for english in sorted(NEWSTEST.glob("newstest20[0-9][0-9].en")):
        german = english.with_suffix(".de")
        for source, reference in zip(*(f.read_text(encoding="utf-8").split("\n") for f in (english, german))):
            if source.strip() and reference.strip():
                sources.append(source)
                targets.append(reference)
    if len(sources) < n:
        raise SystemExit(f"DistilLingEval and newstest have only {len(sources)} sequences; asked for {n}")
    return sources[:n], targets[:n]


def child(args) -> int:
    from performers.claude.hf_seq2seq import HFSeq2SeqClaude
    from performers.claude.toy_en_de import MODEL_DIR

    if args.arch:
        from real_size import model_dir

        model = str(model_dir(args.arch, args.models_dir))
    else:
        model = str(MODEL_DIR)
    claude = HFSeq2SeqClaude(model, cache=False, progress=False, threads=args.threads or None)
    claude.score(["Hello."], ["Hallo."])
    loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sources, targets = sequences(args.child)
    started, cpu_started = time.perf_counter(), time.process_time()
    scores = claude.score(sources, targets)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(json.dumps({"sequences": len(scores), "distinct": len(set(zip(sources, targets))), "wall": wall,
                      "cpu": cpu, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "rss_after_loading_mib": loaded / 1024}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--threads", type=int, default=0, help="threads (0: the Claude's default)")
    parser.add_argument("--arch", choices=("opus-mt-en-de", "wmt19-en-de"), default=None)
    parser.add_argument("--models-dir", type=Path, default=Path("/tmp/arena-bench-models"))
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)

    print(f"model {args.arch or 'toy-en-de'}, threads {args.threads or 'default'}, "
          f"load average {os.getloadavg()[0]:.1f}")
    header = (f"{'sequences':>9} {'distinct':>8} {'wall s':>8} {'CPU s':>8} {'seq/CPU-s':>10} "
              f"{'RSS loaded MiB':>14} {'peak RSS MiB':>12} {'load avg':>8}")
    print(header)
    print("-" * len(header))
    results = []
    for size in args.sizes:
        load = os.getloadavg()[0]
        command = [sys.executable, __file__, "--child", str(size), "--threads", str(args.threads),
                   "--models-dir", str(args.models_dir)] + (["--arch", args.arch] if args.arch else [])
        child_run = subprocess.run(command, stdout=subprocess.PIPE, text=True)
        if child_run.returncode != 0:
            print(f"{size} sequences: the measuring process failed (exit {child_run.returncode})", file=sys.stderr)
            return 2
        output = child_run.stdout
        result = json.loads(output.strip().splitlines()[-1]) | {"load_average_at_start": load}
        results.append(result)
        print(f"{result['sequences']:9} {result['distinct']:8} {result['wall']:8.1f} {result['cpu']:8.1f} "
              f"{result['sequences'] / result['cpu']:10.1f} {result['rss_after_loading_mib']:14.0f} "
              f"{result['peak_rss_mib']:12.0f} {load:8.1f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"arch": args.arch, "threads": args.threads, "runs": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
