"""Own pairs vs the DistilLingEval layout: ``arena.score_pairs`` over a TSV against
``arena score-pairs --format distil-lingeval`` on the same pairs, in one process and run.

The first ``--pairs`` lines (default 1,000) of a DistilLingEval set are written both as a
TSV (``source, correct, incorrect``) and as the three-file layout; then, per repeat and
interleaved (layout, TSV, TSV+tokens, layout, …), each path scores them end to end from its
files with the toy model: model built, file read, scored (cache off), result written or
returned.  Reported: the median wall and CPU seconds of each path and the median of the
per-repeat ratios to the layout path (the issue asks for ``score_pairs`` within 10%).
``--tokens`` also times ``score_pairs(..., tokens=True)``.

    OMP_NUM_THREADS=1 python experiments/bench/own_pairs.py --repeats 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SET = REPO.parent / "shared" / "data" / "distil-lingeval" / "placeholder_ding.human"


def write_inputs(testset: Path, count: int, work: Path) -> tuple[Path, Path]:
    """The first ``count`` pairs as a TSV and as a DistilLingEval directory."""
    files = ("src.en", "tgt.correct.de", "tgt.incorrect.de")
    columns = [(testset / name).read_text(encoding="utf-8").split("\n")[:count] for name in files]
    layout = work / "sample.human"
    layout.mkdir()
    for name, lines in zip(files, columns):
        (layout / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    tsv = work / "sample.tsv"
    tsv.write_text("source\tcorrect\tincorrect\n" + "".join("\t".join(row) + "\n" for row in zip(*columns)),
                   encoding="utf-8")
    return tsv, layout


def timed(function) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    function()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--testset", type=Path, default=DEFAULT_SET)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--tokens", action="store_true", help="also time score_pairs(tokens=True)")
    args = parser.parse_args()
    os.environ.setdefault("ARENA_PROGRESS", "0")
    import arena
    from arena.cli import main as cli

    work = Path(tempfile.mkdtemp(prefix="bench-own-pairs-"))
    tsv, layout = write_inputs(args.testset, args.pairs, work)
    claude = "toy-en-de:cache=false,progress=false"
    methods = {
        "layout (score-pairs --format distil-lingeval)": lambda: cli(
            ["-q", "score-pairs", "--claude", claude, "--format", "distil-lingeval", "--testset", str(layout),
             "--out", str(work / "layout.scores")]),
        "TSV (arena.score_pairs)": lambda: arena.score_pairs(tsv, claude=claude),
    }
    if args.tokens:
        methods["TSV (arena.score_pairs, tokens=True)"] = lambda: arena.score_pairs(tsv, claude=claude, tokens=True)
    for method in methods.values():  # warm-up: imports, the model's first load, the heap
        method()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in methods}
    for _ in range(args.repeats):
        for name, method in methods.items():
            times[name].append(timed(method))
    baseline = next(iter(methods))
    print(f"{args.pairs} pairs of {args.testset.name}, {args.repeats} repeats, OMP_NUM_THREADS="
          f"{os.environ.get('OMP_NUM_THREADS', 'unset')}, load {os.getloadavg()[0]:.2f}")
    print(f"{'method':48} {'wall s':>8} {'cpu s':>8} {'wall/layout':>12} {'cpu/layout':>11}")
    for name, values in times.items():
        wall_ratio = statistics.median(w / b[0] for (w, _), b in zip(values, times[baseline]))
        cpu_ratio = statistics.median(c / b[1] for (_, c), b in zip(values, times[baseline]))
        print(f"{name:48} {statistics.median(w for w, _ in values):8.2f} {statistics.median(c for _, c in values):8.2f} "
              f"{wall_ratio:12.3f} {cpu_ratio:11.3f}")


if __name__ == "__main__":
    main()
