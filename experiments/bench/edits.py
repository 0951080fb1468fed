"""The edit between two candidates: rapidfuzz's C++ alignment against difflib's, on every
DistilLingEval pair.

``arena.edits.diff_edits`` turns a pair (correct → incorrect) into character edits: an
alignment's opcodes, widened to whole words (:func:`arena.edits.widened`).  Edits version 1
took the opcodes from ``difflib.SequenceMatcher`` (pure Python); version 2 takes them from
``rapidfuzz.distance.Levenshtein.opcodes`` (C++).  This script feeds every pair of
``../shared/data/distil-lingeval`` through both, interleaved, and reports

- CPU microseconds per pair for each (``time.process_time``, best of ``--repeats``) and the ratio;
- how many pairs get identical edits, and, where they differ, whether the new edits change
  fewer characters (``before`` + ``after`` lengths summed), as many, or more, and in fewer,
  as many or more spans; each difference is written to ``--out`` (TSV) when given.

    python experiments/bench/edits.py
    python experiments/bench/edits.py --out /tmp/edit-differences.tsv --show 10
"""

from __future__ import annotations

import argparse
import collections
import difflib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
DISTIL = ROOT / ".." / "shared" / "data" / "distil-lingeval"
FILES = ("tgt.correct.de", "tgt.incorrect.de")


def pairs() -> list[tuple[str, str, str]]:
    """(set, correct, incorrect) of every DistilLingEval set, in file order."""
    found = []
    for directory in sorted(DISTIL.iterdir()):
        if all((directory / name).is_file() for name in FILES):
            columns = [(directory / name).read_text(encoding="utf-8").split("\n") for name in FILES]
            found += [(directory.name, a, b) for a, b in zip(*columns) if a or b]
    return found


def difflib_edits(before: str, after: str):
    """Edits version 1: difflib's opcodes, widened as today."""
    from arena.edits import widened

    return widened(before, after, difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes())


def size(edits) -> int:
    return sum(len(edit.before) + len(edit.after) for edit in edits)


def timed(function, items, repeats: int) -> tuple[float, list]:
    best, results = float("inf"), []
    for _ in range(repeats):
        started = time.process_time()
        results = [function(a, b) for _, a, b in items]
        best = min(best, time.process_time() - started)
    return best, results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write every difference as TSV")
    parser.add_argument("--show", type=int, default=5, help="print this many differences per category")
    args = parser.parse_args()

    from arena.edits import apply_edits, diff_edits

    items = pairs()
    print(f"{len(items)} DistilLingEval pairs, load average {os.getloadavg()[0]:.1f}")
    old_cpu, old = timed(difflib_edits, items, args.repeats)
    new_cpu, new = timed(diff_edits, items, args.repeats)
    per = 1e6 / len(items)
    print(f"difflib   {old_cpu * per:8.1f} µs CPU per pair")
    print(f"rapidfuzz {new_cpu * per:8.1f} µs CPU per pair   ({old_cpu / new_cpu:.1f}× less CPU)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")

    categories: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    rows = ["set\tcategory\tcorrect\tincorrect\tdifflib\trapidfuzz"]
    for (name, a, b), x, y in zip(items, old, new):
        assert apply_edits(a, y) == b, (a, b, y)  # the new edits are exact
        if x == y:
            categories["identical"] += 1
            continue
        chars = "fewer" if size(y) < size(x) else "more" if size(y) > size(x) else "as many"
        spans = "fewer" if len(y) < len(x) else "more" if len(y) > len(x) else "as many"
        category = f"{chars} characters, {spans} spans"
        categories[category] += 1
        shown = lambda edits: " ; ".join(f"{e.before!r}→{e.after!r}" for e in edits)  # noqa: E731
        rows.append(f"{name}\t{category}\t{a}\t{b}\t{shown(x)}\t{shown(y)}")
        examples[category].append(f"  {a}\n  {b}\n    difflib:   {shown(x)}\n    rapidfuzz: {shown(y)}")
    for category, count in categories.most_common():
        print(f"{count:7d} {100 * count / len(items):6.2f}%  {category}")
    for category, shown in examples.items():
        print(f"\n{category}:")
        print("\n".join(shown[: args.show]))
    if args.out:
        args.out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
