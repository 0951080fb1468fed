"""The driver alone, from ten thousand to a million rounds: time per round, peak memory, transcripts.

``arena run`` with the ``random`` Claude and the ``replay`` Zellig (no model, no 1-best) over a
DistilLingEval-layout directory of ``n`` distinct pairs: the real DistilLingEval pairs of
``../shared/data/distil-lingeval`` in file order, cycled, each made distinct by a numbered suffix
(`` [17]``) on source, correct and incorrect side.  Each size runs in a fresh process; it reports
wall and CPU seconds (the child's ``rusage``), CPU microseconds per round, its peak resident set
size (``ru_maxrss``), and the size of ``rounds.jsonl`` + ``judgements.jsonl``.  The ratio column
is CPU per round against the smallest size of the same run (1.00 = linear).

``--against REV`` also runs another commit's arena (checked out with ``git worktree add
--detach`` in a temporary folder) on the same pairs, ``--pairs`` times per size, the two trees
taking turns in the order (REV, this), (this, REV), …; each row names its tree, and a last table
gives per size the median of this tree's CPU over REV's, pair by pair (a machine-independent
figure: absolute CPU moves by ±10% from run to run and by more from machine to machine).

    python experiments/bench/driver_scale.py --sizes 10000 20000 50000 100000 200000 1000000
    python experiments/bench/driver_scale.py --sizes 20000 --keep /tmp/runs
    python experiments/bench/driver_scale.py --sizes 200000 --against 3834c03 --pairs 2
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from byte_identity import tree

ROOT = Path(__file__).resolve().parents[2]
DISTIL = ROOT / ".." / "shared" / "data" / "distil-lingeval"
FILES = ("src.en", "tgt.correct.de", "tgt.incorrect.de")


def read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def real_pairs() -> list[tuple[str, str, str]]:
    pairs = []
    for directory in sorted(DISTIL.iterdir()):
        if all((directory / name).is_file() for name in FILES):
            pairs += zip(*(read_lines(directory / name) for name in FILES))
    return [p for p in pairs if all(p) and p[1] != p[2]]


def write_set(folder: Path, n: int, pairs: list[tuple[str, str, str]]) -> Path:
    """A DistilLingEval directory of ``n`` distinct pairs (``placeholder_ding.human`` layout)."""
    directory = folder / "placeholder_ding.human"
    directory.mkdir(parents=True)
    handles = [(directory / name).open("w", encoding="utf-8") for name in FILES]
    try:
        for i in range(n):
            for handle, text in zip(handles, pairs[i % len(pairs)]):
                handle.write(f"{text} [{i}]\n")
    finally:
        for handle in handles:
            handle.close()
    return directory


def run_once(folder: Path, n: int, pairs: list[tuple[str, str, str]], root: Path = ROOT) -> dict:
    """One ``arena run`` of ``n`` rounds by the arena of the tree at ``root``, in a fresh process."""
    directory = write_set(folder / "data", n, pairs)
    config = folder / "driver.yaml"
    config.write_text(
        f"name: driver-{n}\n"
        f"johns: [{{name: distil-lingeval, params: {{dir: '{directory}'}}}}]\n"
        "zelligs: [replay]\nclaudes: [random]\nseeds: [1]\ndiscrepancy: false\n",
        encoding="utf-8",
    )
    command = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())", "--quiet",
               "run", str(config), "--out", str(folder / "runs"), "--no-report", "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(root), "ARENA_PROGRESS": "0", "OMP_NUM_THREADS": "1"}
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"arena run failed for n={n}: {child.stderr.read()[-2000:]}")
    run_dir = next((folder / "runs").iterdir())
    size = sum((run_dir / name).stat().st_size for name in ("rounds.jsonl", "judgements.jsonl"))
    return {"n": n, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss * 1024, "size": size}


def measured(n: int, pairs: list[tuple[str, str, str]], root: Path, keep: Path | None) -> dict:
    folder = Path(tempfile.mkdtemp(prefix=f"arena-driver-{n}-"))
    try:
        return run_once(folder, n, pairs, root)
    finally:
        if keep:
            shutil.copytree(folder, keep / folder.name)
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 50_000, 100_000, 200_000])
    parser.add_argument("--keep", type=Path, default=None, help="keep data and runs here")
    parser.add_argument("--against", metavar="REV", help="also run this commit's arena on the same pairs, taking turns")
    parser.add_argument("--pairs", type=int, default=1, help="runs of each tree per size with --against (default 1)")
    args = parser.parse_args(argv)
    if args.pairs < 1 or (args.pairs > 1 and not args.against):
        parser.error("--pairs takes a count of at least 1, and more than 1 only with --against")
    pairs = real_pairs()
    print(f"{len(pairs)} real DistilLingEval pairs, cycled with a numbered suffix; "
          f"load average before {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'tree':>10} {'rounds':>9} {'wall s':>8} {'CPU s':>8} {'CPU us/round':>13} {'vs first':>9} "
          f"{'peak RSS MB':>12} {'transcripts MB':>15}")
    ratios: dict[int, list[float]] = {}
    with contextlib.ExitStack() as stack:
        trees = [("this", ROOT)]
        if args.against:
            other = stack.enter_context(tree(args.against, Path(stack.enter_context(tempfile.TemporaryDirectory()))))
            trees = [(args.against, other), ("this", ROOT)]
        first: dict[str, float] = {}
        for n in sorted(args.sizes):
            for turn in range(args.pairs if args.against else 1):
                cpu: dict[str, float] = {}
                for name, root in trees if turn % 2 == 0 else trees[::-1]:
                    row = measured(n, pairs, root, args.keep)
                    per_round = cpu[name] = row["cpu"] / n * 1e6
                    first.setdefault(name, per_round)
                    print(f"{name:>10} {n:>9} {row['wall']:>8.1f} {row['cpu']:>8.1f} {per_round:>13.1f} "
                          f"{per_round / first[name]:>9.2f} {row['rss'] / 1e6:>12.0f} {row['size'] / 1e6:>15.1f}",
                          flush=True)
                if args.against:
                    ratios.setdefault(n, []).append(cpu["this"] / cpu[args.against])
    print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if ratios:
        print(f"\nCPU a round, this tree / {args.against} (median over pairs; each pair's ratio)")
        for n, values in ratios.items():
            print(f"{n:>9} {median(values):>6.3f}  ({', '.join(f'{v:.3f}' for v in values)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
