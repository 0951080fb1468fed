"""The driver alone, from ten thousand to a million rounds: time per round, peak memory, transcripts.

``arena run`` with the ``random`` Claude and the ``replay`` Zellig (no model, no 1-best) over a
DistilLingEval-layout directory of ``n`` distinct pairs: the real DistilLingEval pairs of
``../shared/data/distil-lingeval`` in file order, cycled, each made distinct by a numbered suffix
(`` [17]``) on source, correct and incorrect side.  Each size runs in a fresh process; it reports
wall and CPU seconds (the child's ``rusage``), CPU microseconds per round, its peak resident set
size (``ru_maxrss``), and the size of ``rounds.jsonl`` + ``judgements.jsonl``.  The ratio column
is CPU per round against the smallest size of the same run (1.00 = linear).

    python experiments/bench/driver_scale.py --sizes 10000 20000 50000 100000 200000 1000000
    python experiments/bench/driver_scale.py --sizes 20000 --keep /tmp/runs
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def run_once(folder: Path, n: int, pairs: list[tuple[str, str, str]]) -> dict:
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
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARENA_PROGRESS": "0", "OMP_NUM_THREADS": "1"}
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"arena run failed for n={n}: {child.stderr.read()[-2000:]}")
    run_dir = next((folder / "runs").iterdir())
    size = sum((run_dir / name).stat().st_size for name in ("rounds.jsonl", "judgements.jsonl"))
    return {"n": n, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss * 1024, "size": size}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 50_000, 100_000, 200_000])
    parser.add_argument("--keep", type=Path, default=None, help="keep data and runs here")
    args = parser.parse_args(argv)
    pairs = real_pairs()
    print(f"{len(pairs)} real DistilLingEval pairs, cycled with a numbered suffix; "
          f"load average before {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'rounds':>9} {'wall s':>8} {'CPU s':>8} {'CPU us/round':>13} {'vs first':>9} {'peak RSS MB':>12} "
          f"{'transcripts MB':>15}")
    first = None
    for n in sorted(args.sizes):
        folder = Path(tempfile.mkdtemp(prefix=f"arena-driver-{n}-"))
        try:
            row = run_once(folder, n, pairs)
        finally:
            if args.keep:
                shutil.copytree(folder, args.keep / folder.name)
            shutil.rmtree(folder, ignore_errors=True)
        per_round = row["cpu"] / n * 1e6
        first = first or per_round
        print(f"{n:>9} {row['wall']:>8.1f} {row['cpu']:>8.1f} {per_round:>13.1f} {per_round / first:>9.2f} "
              f"{row['rss'] / 1e6:>12.0f} {row['size'] / 1e6:>15.1f}", flush=True)
    print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
