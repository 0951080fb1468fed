"""Byte identity of a run's transcripts between two revisions of arena.

Plays each config with revision A and with revision B (default: ``main`` and the working
tree), each from its own tree and in its own process, and compares ``rounds.jsonl``,
``judgements.jsonl``, ``onebest.jsonl`` and ``scores.json`` byte for byte.  A revision that
names a commit is checked out with ``git worktree add --detach`` in a temporary folder
(removed at the end); ``WORKTREE`` is this checkout as it is, uncommitted changes included.
Configs under ``experiments/tournament/`` are played by ``arena tournament --executor
in-process`` (the same transcripts as on Ray), a config with a ``transfer:`` block by ``arena
transfer --executor in-process``, every other one by ``arena run``; both run
with ``PYTHONPATH`` set to the tree, from its root, beside a ``shared`` link to the
project's shared folder (``../shared/data`` in the configs).  Prints a table (config, file,
identical / DIFFERENT / missing) and exits 1 on any difference.

    python experiments/bench/byte_identity.py --configs experiments/quickstart.yaml --set max_instances=20
    python experiments/bench/byte_identity.py                   # the default list, full size
    python experiments/bench/byte_identity.py --a HEAD~3 --b HEAD --no-1best
    python experiments/bench/byte_identity.py --a "$(git merge-base main HEAD)"   # a branch against its base

A game whose schedule observes more rounds than a small ``max_instances`` leaves is refused by both
revisions ("run failed"); give it a smaller schedule too (``--set schedule.rounds=30``).
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKTREE = "WORKTREE"
FILES = ("rounds.jsonl", "judgements.jsonl", "onebest.jsonl", "scores.json")
DEFAULT_CONFIGS = (
    "experiments/quickstart.yaml", "experiments/game/*.yaml", "experiments/tournament/smoke.yaml",
    "experiments/cues/*.yaml",
)


def configs(patterns: Sequence[str]) -> list[str]:
    """Config paths relative to the repository root, in the order given (globs sorted)."""
    result: list[str] = []
    for pattern in patterns:
        found = sorted(str(Path(p).relative_to(ROOT)) for p in glob.glob(str(ROOT / pattern)))
        if not found:
            raise SystemExit(f"byte_identity: no config matches {pattern}")
        result += [f for f in found if f not in result]
    return result


@contextlib.contextmanager
def tree(revision: str, folder: Path) -> Iterator[Path]:
    """The root of a tree holding ``revision`` (this checkout for :data:`WORKTREE`)."""
    if revision == WORKTREE:
        yield ROOT
        return
    path = folder / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), revision], check=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False)


def play(root: Path, config: str, out: Path, options: Sequence[str], log: Path) -> tuple[Path | None, float]:
    """Play ``config`` with the arena of ``root``; the run directory (None when it failed) and CPU seconds."""
    if config.startswith("experiments/tournament/"):
        verb = ["tournament", "--executor", "in-process", "--no-plots"]
    elif "transfer" in (yaml.safe_load((root / config).read_text(encoding="utf-8")) or {}):
        verb = ["transfer", "--executor", "in-process", "--no-plots"]  # a game played across models and seeds
    else:
        verb = ["run", "--no-report"]
    command = [sys.executable, "-c", "from arena.cli import main; raise SystemExit(main())", *verb, config,
               "--out", str(out), "--no-progress", *options]
    env = {**os.environ, "PYTHONPATH": str(root), "ARENA_PROGRESS": "0"}
    before = os.times()
    with open(log, "w", encoding="utf-8") as handle:
        code = subprocess.run(command, cwd=root, env=env, stdout=handle, stderr=subprocess.STDOUT).returncode
    after = os.times()
    seconds = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    runs = [Path(p).parent for p in glob.glob(str(out / "*" / "scores.json"))]
    return (runs[0] if code == 0 and len(runs) == 1 else None), seconds


def played(root: Path, side: str, revision: str, config: str, folder: Path, options: Sequence[str]) -> Path | None:
    """The run directory of ``config`` played by the arena of ``root`` (None when it failed)."""
    out = folder / side / "runs" / Path(config).with_suffix("").as_posix().replace("/", "_")
    shutil.rmtree(out, ignore_errors=True)
    log = folder / side / (out.name + ".log")
    started = time.perf_counter()
    run_dir, cpu = play(root, config, out, options, log)
    state = "ok" if run_dir else f"FAILED (log: {log})"
    print(f"  {side} {revision}: {config}: {state}, {time.perf_counter() - started:.0f} s wall, {cpu:.0f} s CPU",
          file=sys.stderr, flush=True)
    return run_dir


def compare(a: Path | None, b: Path | None, name: str) -> str:
    if a is None or b is None:
        return "run failed"
    left, right = a / name, b / name
    if not left.exists() and not right.exists():
        return "absent in both"
    if not left.exists() or not right.exists():
        return "DIFFERENT (missing in " + ("A" if not left.exists() else "B") + ")"
    return "identical" if left.read_bytes() == right.read_bytes() else "DIFFERENT"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="main", help="revision A (default: main)")
    parser.add_argument("--b", default=WORKTREE, help=f"revision B (default: {WORKTREE}, this checkout as it is)")
    parser.add_argument("--configs", nargs="+", default=list(DEFAULT_CONFIGS), help="configs or globs (repo-relative)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VAL", help="passed to every run")
    parser.add_argument("--no-1best", action="store_true", help="passed to every run")
    parser.add_argument("--keep", type=Path, help="keep the runs and logs here instead of a temporary folder")
    args = parser.parse_args(argv)
    options = [item for pair in (("--set", s) for s in args.set) for item in pair] + (["--no-1best"] if args.no_1best else [])
    chosen = configs(args.configs)
    shared = Path(os.environ.get("ARENA_SHARED") or ROOT.parent / "shared").resolve()
    folder = Path(tempfile.mkdtemp(prefix="byte-identity-")) if args.keep is None else args.keep.resolve()
    failed = False
    width = max(len(c) for c in chosen)
    print(f"A = {args.a}, B = {args.b}, options: {' '.join(options) or '(none)'}")
    print(f"{'config':<{width}}  {'file':<16}  result", flush=True)
    try:
        with contextlib.ExitStack() as stack:
            roots = {}
            for side, revision in (("A", args.a), ("B", args.b)):
                (folder / side).mkdir(parents=True, exist_ok=True)
                (folder / side / "shared").unlink(missing_ok=True)
                (folder / side / "shared").symlink_to(shared)  # a worktree's ../shared
                roots[side] = stack.enter_context(tree(revision, folder / side))
            for config in chosen:  # A then B per config, so that each row is printed as soon as it is known
                runs = {side: played(roots[side], side, revision, config, folder, options)
                        for side, revision in (("A", args.a), ("B", args.b))}
                for name in FILES:
                    verdict = compare(runs["A"], runs["B"], name)
                    failed |= verdict.startswith(("DIFFERENT", "run failed"))
                    print(f"{config:<{width}}  {name:<16}  {verdict}", flush=True)
    finally:
        if args.keep is None and not failed:
            shutil.rmtree(folder, ignore_errors=True)
    if failed:
        print(f"runs and logs kept in {folder}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
