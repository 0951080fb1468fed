"""Does the device a model Claude runs on change its numbers, and does its signature say so?

Builds the ``toy-en-de`` Claude (or ``--claude``) once per device with the same params, scores the
correct and the corrupted candidate of ``--n`` DistilLingEval pairs (``score``: the sum of
log-probabilities and the token count), decodes the 1-bests of their distinct sources
(``translate``, beam 5) with ``decoder=generate`` (the decoder that runs on every device; caches
off unless ``--cache``), and
prints per device its signature as a run records it (``+decoder.`` included), the resolved device,
the CPU and wall seconds, and against the first device: the largest difference of a
log-probability, how many pairs the Claude decides the other way (contrastive, by the Claude's own
convention), and how many 1-bests differ.  ``auto`` resolves to ``cuda`` where a GPU is visible.

    python experiments/bench/device_numbers.py --pairs ../shared/data/distil-lingeval/placeholder_ding.human
    python experiments/bench/device_numbers.py --pairs DIR --n 300 --devices cpu cuda auto --out numbers.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def read_pairs(directory: Path, n: int) -> list[tuple[str, str, str]]:
    files = [directory / name for name in ("src.en", "tgt.correct.de", "tgt.incorrect.de")]
    columns = [path.read_text(encoding="utf-8").splitlines() for path in files]
    return [row for row in zip(*columns) if all(row) and row[1] != row[2]][:n]


def measure(claude_name: str, device: str, pairs: list[tuple[str, str, str]], beam: int, cache: bool) -> dict:
    from arena.specs.registry import build, signature
    from arena.specs.spec import PerformerSpec
    from performers.catalog import CATALOG

    spec = PerformerSpec(claude_name, {"device": device, "decoder": "generate", "cache": cache})
    started, cpu = time.perf_counter(), time.process_time()
    claude = build("claude", spec, CATALOG)
    sources = [s for s, _, _ in pairs]
    correct = claude.score(sources, [c for _, c, _ in pairs])
    corrupted = claude.score(sources, [i for _, _, i in pairs])
    distinct = list(dict.fromkeys(sources))
    one_bests = claude.translate(distinct, beam=beam)
    import torch

    from performers.claude.engine_settings import resolve_device

    mean = getattr(claude, "convention", "mean") == "mean"
    value = (lambda s: s.logprob / s.tokens) if mean else (lambda s: s.logprob)
    return {
        "device": device, "resolved": resolve_device(device), "signature": signature("claude", spec, CATALOG, beam),
        "cuda": torch.cuda.is_available(), "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu,
        "correct": [s.logprob for s in correct], "corrupted": [s.logprob for s in corrupted],
        "decisions": [value(a) > value(b) for a, b in zip(correct, corrupted)], "one_bests": one_bests,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=Path, required=True, help="a DistilLingEval directory (src.en, tgt.*.de)")
    parser.add_argument("--n", type=int, default=300, help="pairs to score (default 300)")
    parser.add_argument("--claude", default="toy-en-de")
    parser.add_argument("--devices", nargs="+", default=["cpu", "cuda", "auto"])
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--cache", action="store_true",
                        help="with the score cache ($ARENA_CACHE_DIR): each device should compute its own scores")
    parser.add_argument("--out", type=Path, help="write every number as JSON here")
    args = parser.parse_args(argv)
    pairs = read_pairs(args.pairs, args.n)
    rows = [measure(args.claude, device, pairs, args.beam, args.cache) for device in args.devices]
    first = rows[0]
    print(f"{len(pairs)} pairs, {len(first['one_bests'])} distinct sources, {args.claude}, decoder=generate, "
          f"beam {args.beam}")
    print(f"{'device':<7} {'resolved':<9} {'CPU s':>7} {'wall s':>7} {'max |dlogprob|':>15} {'decisions flipped':>18} "
          f"{'1-bests differ':>15}  signature")
    for row in rows:
        delta = max(abs(a - b) for key in ("correct", "corrupted") for a, b in zip(row[key], first[key]))
        flipped = sum(a != b for a, b in zip(row["decisions"], first["decisions"]))
        differ = sum(a != b for a, b in zip(row["one_bests"], first["one_bests"]))
        print(f"{row['device']:<7} {row['resolved']:<9} {row['cpu_seconds']:>7.1f} {row['seconds']:>7.1f} "
              f"{delta:>15.3g} {flipped:>18} {differ:>15}  {row['signature']}")
    if args.out:
        args.out.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
