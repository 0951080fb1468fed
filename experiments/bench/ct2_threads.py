"""How CTranslate2 should use several CPU threads: batches side by side, or threads inside a batch.

The ``ctranslate2`` Claude (and ``hf-seq2seq``'s CTranslate2 decoder) runs ``threads`` batches side
by side with one thread each (``inter_threads``), submitting its batches asynchronously.  This
benchmark times its beam search (the Claude's own batches, length caps and generation settings)
with the translator swapped for each way of spending the threads, in one process, and prints wall
and CPU time, the ratio to ``intra_threads`` (the way it was before: one batch at a time, threads
inside it) and whether the 1-bests are identical.  ``OMP_WAIT_POLICY`` is the Claudes' (passive,
:mod:`performers.claude.threads`) unless ``--spin`` sets it active before CTranslate2 loads.

    python experiments/bench/ct2_threads.py                      # the quickstart's 256 sources, 2 threads
    python experiments/bench/ct2_threads.py --sources 100 --threads 2 --repeats 3
    python experiments/bench/ct2_threads.py --spin               # with spinning OpenMP workers
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", type=int, default=256, help="distinct sources to translate (default 256)")
    parser.add_argument("--set", default="placeholder_ding.human", help="DistilLingEval set the sources come from")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--spin", action="store_true", help="OMP_WAIT_POLICY=ACTIVE (spinning workers)")
    args = parser.parse_args()
    if args.spin:
        os.environ["OMP_WAIT_POLICY"] = "ACTIVE"
    from performers.claude.threads import prepare

    prepare()  # the Claudes' waiting policy, before CTranslate2 loads its OpenMP runtime
    import ctranslate2
    from scoring import DISTIL

    from performers.claude.toy_en_de_ct2 import ToyEnDeCT2Claude

    lines = (DISTIL / args.set / "src.en").read_text(encoding="utf-8").split("\n")
    sources = list(dict.fromkeys(line for line in lines if line.strip()))[: args.sources]
    claude = ToyEnDeCT2Claude(compute_type="float32", cache=False, progress=False, threads=args.threads)
    settings = {
        f"intra_threads={args.threads} (before)": {"intra_threads": args.threads, "inter_threads": 1},
        "one thread": {"intra_threads": 1, "inter_threads": 1},
        f"inter_threads={args.threads} (now)": {"intra_threads": 1, "inter_threads": args.threads},
    }
    translators = {name: ctranslate2.Translator(str(claude.model_dir), device="cpu", compute_type="float32", **kw)
                   for name, kw in settings.items()}
    print(f"{len(sources)} sources of {args.set}, beam {args.beam}, toy model float32, OMP_WAIT_POLICY="
          f"{os.environ.get('OMP_WAIT_POLICY')}, load average {os.getloadavg()[0]:.1f}")
    wall: dict[str, list[float]] = {name: [] for name in settings}
    cpu: dict[str, list[float]] = {name: [] for name in settings}
    outputs = {}
    for _ in range(args.repeats):
        for name, translator in translators.items():
            claude.translator = translator
            list(claude.beam_search(sources[:4], args.beam, None))  # warm-up
            started, cpu_started = time.perf_counter(), time.process_time()
            texts = dict(pair for batch in claude.beam_search(sources, args.beam, None) for pair in batch)
            wall[name].append(time.perf_counter() - started)
            cpu[name].append(time.process_time() - cpu_started)
            outputs[name] = [texts[i] for i in range(len(sources))]
    before = next(iter(settings))
    print(f"{'setting':28} {'wall s':>7} {'CPU s':>7} {'× before (wall)':>16} {'× before (CPU)':>15} {'identical':>10}")
    for name in settings:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        same = sum(a == b for a, b in zip(outputs[name], outputs[before]))
        print(f"{name:28} {w:7.1f} {c:7.1f} {statistics.median(wall[before]) / w:16.2f} "
              f"{statistics.median(cpu[before]) / c:15.2f} {same:>5}/{len(sources)}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
