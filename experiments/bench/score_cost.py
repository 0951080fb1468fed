"""What deriving ``scores.json`` costs, between two revisions of arena (pydantic at the seams, issue 37).

``arena score RUN`` verifies a finished run, derives its scores and writes ``scores.json``, the
step every ``arena run`` ends with; it is where the typed results are serialised (and, for the
console, read back).  This script times that verb with revision A (the baseline, default
``main``) and revision B (default: this checkout as it is) on copies of the same run directory,
alternating A and B ``--repeat`` times, each in a fresh process, and prints the median wall and
CPU seconds of each side with the ratio B / A, and what importing pydantic costs in the verb's
process (``-X importtime``, cumulative microseconds of ``pydantic``; 0 when the verb does not
import it).  The run is the quickstart unless ``--run`` names one::

    python experiments/bench/score_cost.py --a "$(git merge-base main HEAD)" --set max_instances=20
    python experiments/bench/score_cost.py --run runs/quickstart-100a898585 --repeat 9
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from byte_identity import ROOT, WORKTREE, tree  # noqa: E402

SCORE = "from arena.cli import main; raise SystemExit(main())"


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(root), "ARENA_PROGRESS": "0"}


def score(root: Path, run_dir: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``arena score RUN`` with the arena of ``root``."""
    before, started = os.times(), time.perf_counter()
    subprocess.run([sys.executable, "-c", SCORE, "score", str(run_dir)], cwd=root, env=_env(root),
                   stdout=subprocess.DEVNULL, check=True)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return time.perf_counter() - started, cpu


def pydantic_import(root: Path, run_dir: Path) -> int:
    """Cumulative microseconds ``import pydantic`` takes in the verb's process (0: not imported)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", SCORE, "score", str(run_dir)], cwd=root,
                          env=_env(root), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    found = re.search(r"^import time:\s+\d+ \|\s+(\d+) \|\s+pydantic$", done.stderr, re.MULTILINE)
    return int(found.group(1)) if found else 0


def quickstart(root: Path, folder: Path, options: Sequence[str]) -> Path:
    out = folder / "runs"
    subprocess.run([sys.executable, "-c", SCORE, "run", "experiments/quickstart.yaml", "--out", str(out),
                    "--no-report", "--no-progress", *options], cwd=root, env=_env(root), check=True,
                   stdout=subprocess.DEVNULL)
    (run_dir,) = out.iterdir()
    return run_dir


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="main", help="revision A, the baseline (default: main)")
    parser.add_argument("--b", default=WORKTREE, help=f"revision B (default: {WORKTREE})")
    parser.add_argument("--run", type=Path, help="a finished run directory (default: play the quickstart with B)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VAL", help="passed to the quickstart")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="score-cost-"))
    try:
        with contextlib.ExitStack() as stack:
            roots = {"A": stack.enter_context(tree(args.a, folder / "a")),
                     "B": stack.enter_context(tree(args.b, folder / "b"))}
            for root in roots.values():  # the trees read the shared data as ../shared
                link = root.parent / "shared"
                if root != ROOT and not link.exists():
                    link.symlink_to(Path(os.environ.get("ARENA_SHARED") or ROOT.parent / "shared").resolve())
            options = [item for pair in (("--set", s) for s in args.set) for item in pair]
            source = args.run.resolve() if args.run else quickstart(roots["B"], folder, options)
            copies = {side: folder / f"run-{side}" for side in roots}
            for copy in copies.values():
                shutil.copytree(source, copy)
            times: dict[str, list[tuple[float, float]]] = {side: [] for side in roots}
            for _ in range(args.repeat):
                for side, root in roots.items():
                    times[side].append(score(root, copies[side]))
            same = (copies["A"] / "scores.json").read_bytes() == (copies["B"] / "scores.json").read_bytes()
            print(f"arena score on {source.name} ({args.repeat} runs each, alternating; scores.json "
                  f"{'identical' if same else 'DIFFERENT'}); load average {os.getloadavg()[0]:.1f}")
            print(f"{'side':<6}{'revision':<44}{'wall s':>9}{'CPU s':>9}{'pydantic import µs':>20}")
            medians = {}
            for side, root in roots.items():
                wall = statistics.median(t[0] for t in times[side])
                cpu = statistics.median(t[1] for t in times[side])
                medians[side] = (wall, cpu)
                revision = args.a if side == "A" else args.b
                print(f"{side:<6}{revision:<44}{wall:>9.2f}{cpu:>9.2f}{pydantic_import(root, copies[side]):>20}")
            print(f"B / A: wall {medians['B'][0] / medians['A'][0]:.3f}, CPU {medians['B'][1] / medians['A'][1]:.3f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
