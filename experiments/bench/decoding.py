"""1-best decoding speed: CTranslate2, the project's own incremental beam search and Transformers'
``generate``, same model and sources.

The ``hf-seq2seq`` Claude decodes its beam-5 1-best translations with CTranslate2
whenever the model converts (``decoder=auto``) and with ``generate`` otherwise; this
benchmark times both on the same DistilLingEval sources (distinct, caches off, the
length cap of :func:`performers.claude.scoring.length_cap`), interleaved over
``--repeats``, and reports sentences per second, the ratio in wall and CPU time,
how many 1-bests are identical to ``generate``'s, and the mean model score (this Claude's
length-normalised log-probability) of each decoder's 1-bests.  ``incremental`` is the
``ensemble`` Claude's fairseq-style beam search (Transformers' decoder with its key/value
cache, the search in Python) over one member: the project's own engine, in the core install.

    python experiments/bench/decoding.py                       # toy-en-de, 100 sources
    python experiments/bench/decoding.py --sources 300 --threads 1
    python experiments/bench/decoding.py --arch opus-mt-en-de --sources 20 --threads 1
"""

from __future__ import annotations

import argparse
import json
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
    parser.add_argument("--sources", type=int, default=100, help="distinct sources to translate (default 100)")
    parser.add_argument("--set", default="placeholder_ding.human", help="DistilLingEval set the sources come from")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="threads (0: the Claude's default)")
    parser.add_argument("--arch", choices=("opus-mt-en-de", "wmt19-en-de"), default=None,
                        help="a randomly initialised model of this real architecture instead of toy-en-de")
    parser.add_argument("--models-dir", type=Path, default=Path("/tmp/arena-bench-models"))
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args()

    from scoring import DISTIL

    from performers.claude.hf_seq2seq import HFSeq2SeqClaude
    from performers.claude.toy_en_de import MODEL_DIR

    if args.arch:
        from real_size import model_dir

        model = str(model_dir(args.arch, args.models_dir))
    else:
        model = str(MODEL_DIR)
    lines = (DISTIL / args.set / "src.en").read_text(encoding="utf-8").split("\n")
    sources = list(dict.fromkeys(line for line in lines if line.strip()))[: args.sources]
    threads = args.threads or None
    from performers.claude.ensemble import EnsembleClaude

    claudes = {name: HFSeq2SeqClaude(model, cache=False, progress=False, threads=threads, decoder=name)
               for name in ("generate", "ctranslate2")}
    claudes["incremental"] = EnsembleClaude([model], cache=False, progress=False, threads=threads)
    print(f"{len(sources)} sources of {args.set}, beam {args.beam}, model {model}, threads "
          f"{claudes['generate'].backend.threads}, load average {os.getloadavg()[0]:.1f}")
    for claude in claudes.values():
        claude.translate(sources[:4], beam=args.beam)  # warm-up (and the conversion, which is cached)
    wall: dict[str, list[float]] = {name: [] for name in claudes}
    cpu: dict[str, list[float]] = {name: [] for name in claudes}
    outputs = {}
    for _ in range(args.repeats):
        for name, claude in claudes.items():
            started, cpu_started = time.perf_counter(), time.process_time()
            outputs[name] = claude.translate(sources, beam=args.beam)
            wall[name].append(time.perf_counter() - started)
            cpu[name].append(time.process_time() - cpu_started)
    scorer = claudes["generate"]
    scores = {name: [s.mean for s in scorer.score(sources, texts)] for name, texts in outputs.items()}
    identical = {name: sum(a == b for a, b in zip(outputs["generate"], outputs[name])) for name in claudes}
    better = {name: sum(a > b + 1e-6 for a, b in zip(scores[name], scores["generate"])) for name in claudes}
    worse = {name: sum(a < b - 1e-6 for a, b in zip(scores[name], scores["generate"])) for name in claudes}
    header = f"{'decoder':12} {'sent/s':>8} {'CPU s':>7} {'× generate (wall)':>18} {'× generate (CPU)':>17} {'mean score':>11} {'= generate':>10} {'better':>7} {'worse':>6}"
    print(header)
    print("-" * len(header))
    report = {"sources": len(sources), "beam": args.beam, "model": model, "arch": args.arch,
              "threads": scorer.backend.threads, "load_average": os.getloadavg()[0], "identical": identical,
              "better": better, "worse": worse, "decoders": {}}
    for name in claudes:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        wall_ratio = statistics.median(g / t for g, t in zip(wall["generate"], wall[name]))
        cpu_ratio = statistics.median(g / t for g, t in zip(cpu["generate"], cpu[name]))
        mean = statistics.mean(scores[name])
        print(f"{name:12} {len(sources) / w:8.2f} {c:7.1f} {wall_ratio:18.2f} {cpu_ratio:17.2f} {mean:11.4f} {identical[name]:10d} {better[name]:7d} {worse[name]:6d}")
        report["decoders"][name] = {"wall_seconds": wall[name], "cpu_seconds": cpu[name], "ratio_wall": wall_ratio,
                                    "ratio_cpu": cpu_ratio, "mean_score": mean}
    print(f"'= generate': 1-bests identical to generate's (of {len(sources)}); 'better'/'worse': the model "
          "scores the decoder's 1-best above/below generate's")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
