"""CPU time of the surface-cue audit (``arena cues``) of every DistilLingEval set in ../shared/data.

Measured in one process, in this order, with ``time.process_time`` (CPU seconds of this process, so
other load on the machine lengthens the wall time, not these numbers):

- ``read``: reading every set (the baseline the others are set against);
- ``target-lm build``: training the German LM into an empty cache directory (once per corpus; later
  runs load it);
- ``target-lm load``: loading it from that cache;
- one line per cue: its out-of-fold audit of every set (5 folds grouped by instance, seed 0);
- ``audit``: all cues together, as ``arena cues --testset ../shared/data/distil-lingeval`` runs them
  with a warm cache.

It prints each figure and its ratio to ``read``.  Issue 25 asks for the audit of all sets in under a
minute of CPU.

    python experiments/bench/cues.py
    python experiments/bench/cues.py --sets np_agreement.mt placeholder_ding.human
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT / ".." / "shared" / "data" / "distil-lingeval"
sys.path.insert(0, str(ROOT))


def cpu(task):
    started = time.process_time()
    result = task()
    return time.process_time() - started, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="DistilLingEval data directory")
    parser.add_argument("--sets", nargs="*", help="only these set directories (default: all)")
    args = parser.parse_args(argv)
    os.environ.setdefault("ARENA_PROGRESS", "0")

    from arena.stats import cue_items, cues
    from arena.stats.cue_items import CueInput
    from performers.claude import target_lm
    from performers.claude.edit_words import EditWordsClaude
    from performers.claude.kneser_ney import KneserNeyLM
    from performers.claude.length import LengthClaude

    def read() -> CueInput:
        data = cue_items.from_distil_lingeval(args.data)
        if args.sets:
            data.items = [item for item in data.items if item.set in args.sets]
        return data

    rows = []
    seconds, data = cpu(read)
    rows.append(("read", seconds))
    with tempfile.TemporaryDirectory() as cache:
        corpus = target_lm.corpus_path(None)
        rows.append(("target-lm build", cpu(lambda: target_lm.build(corpus, 3, Path(cache) / "lm.npz", False))[0]))
        rows.append(("target-lm load", cpu(lambda: KneserNeyLM.load(Path(cache) / "lm.npz"))[0]))
        os.environ["ARENA_CACHE_DIR"] = cache
        target_lm._LOADED.clear()
        target_lm.load_or_build(corpus, 3, progress=False)  # warm, as a second `arena cues` finds it
        factories = {"length": LengthClaude, "edit-words": EditWordsClaude, "target-lm": target_lm.TargetLMClaude}
        for name, factory in factories.items():
            rows.append((name, cpu(lambda f={name: factory}: cues.audit(data, f))[0]))
        seconds, tables = cpu(lambda: cues.audit(data, factories))
        rows.append(("audit", seconds))
    base = rows[0][1] or 1e-9
    print(f"{len(data.items)} pairs in {len(tables)} sets; CPU seconds of this process")
    for name, seconds in rows:
        print(f"  {name:16} {seconds:7.2f} s   {seconds / base:7.1f} × read")
    print(f"audit of all sets: {rows[-1][1]:.1f} s CPU ({'under' if rows[-1][1] < 60 else 'OVER'} a minute)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
