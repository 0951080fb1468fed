"""What the text policy and the bounded readers cost (issue 36: under 5%).

Two inputs, each read with the policy and bounds on (``after``: what arena does) and off
(``before``: the same readers with :func:`arena.text_policy.text_problem` and the JSON bounds
(:func:`arena.specs.yamlio.json_problem`) replaced by no-ops), in the same run:

- ``arena score-pairs``-style reading of 1,000 own pairs (from the shared DistilLingEval sets),
  written by pandas as TSV, CSV, JSONL and Parquet (:func:`arena.formats.pairs.read_pairs`);
  beside it the CPU time of scoring the same 1,000 pairs with ``toy-en-de`` (what ``arena
  score-pairs`` spends in all), so that the reading's extra cost is also a share of the verb's;
- the quickstart's John (``distil-lingeval`` over ``placeholder_ding.human``, limit 300: its
  ``instances()``), and the whole DistilLingEval directory read by
  :func:`arena.formats.distil_lingeval.read_distil_lingeval`; with ``--quickstart``, also the CPU
  time of ``arena run experiments/quickstart.yaml`` once, as the denominator.

Times are CPU seconds (``time.process_time``), the best of ``--repeat`` runs.

    python experiments/bench/input_policy.py
    python experiments/bench/input_policy.py --repeat 7 --quickstart
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DISTIL = ROOT / ".." / "shared" / "data" / "distil-lingeval"
sys.path.insert(0, str(ROOT))


@contextlib.contextmanager
def policy_off() -> Iterator[None]:
    """The readers without the text policy and the JSON bounds (the ``before``)."""
    import arena.formats.lingeval97 as lingeval97
    import arena.formats.pairs as pairs
    import arena.formats.textlines as textlines
    import arena.specs.yamlio as yamlio
    import performers.john.distil_lingeval as distil_john

    policed = (pairs, textlines, lingeval97, distil_john)  # every module that imports text_problem
    saved = [module.text_problem for module in policed], yamlio.json_problem
    for module in policed:
        module.text_problem = lambda *a, **k: None  # type: ignore[attr-defined]
    yamlio.json_problem = lambda *a, **k: None
    try:
        yield
    finally:
        for module, function in zip(policed, saved[0]):
            module.text_problem = function  # type: ignore[attr-defined]
        yamlio.json_problem = saved[1]


def best(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        function()
        times.append(time.process_time() - started)
    return min(times)


def thousand_pairs(directory: Path) -> dict[str, Path]:
    """1,000 pairs of the shared sets, written by pandas in every format own pairs come in."""
    import pandas as pd

    from arena.formats.distil_lingeval import find_sets, read_distil_lingeval

    rows = []
    for set_dir in find_sets(DISTIL):
        for pair in read_distil_lingeval(set_dir, allow_empty=True).pairs:
            if pair.source.strip() and pair.correct.strip() and pair.incorrect.strip():
                rows.append({"source": pair.source, "correct": pair.correct, "incorrect": pair.incorrect,
                             "phenomenon": set_dir.name})
        if len(rows) >= 1000:
            break
    frame = pd.DataFrame(rows[:1000])
    paths = {kind: directory / f"pairs.{kind}" for kind in ("tsv", "csv", "jsonl", "parquet")}
    frame.to_csv(paths["tsv"], sep="\t", index=False)
    frame.to_csv(paths["csv"], index=False)
    frame.to_json(paths["jsonl"], orient="records", lines=True, force_ascii=False)
    frame.to_parquet(paths["parquet"], index=False)
    return paths


def compare(name: str, function: Callable[[], object], repeat: int, denominator: float | None = None) -> None:
    with policy_off():
        before = best(function, repeat)
    after = best(function, repeat)
    share = f"  extra {100 * (after - before) / denominator:+.2f}% of {denominator:.2f} s" if denominator else ""
    print(f"{name:38s} before {before * 1000:8.1f} ms  after {after * 1000:8.1f} ms  "
          f"ratio {after / before:5.2f}{share}")


def score_cpu(pairs_path: Path) -> float:
    """CPU seconds of scoring the pairs with toy-en-de (reading included), as arena score-pairs does."""
    import arena
    from arena.formats.pairs import read_pairs
    from arena.pairs_api import score_rows, scoring_claude
    from performers.catalog import CATALOG

    claude = scoring_claude("toy-en-de:cache=false,progress=false", CATALOG)
    started = time.process_time()
    score_rows(read_pairs(pairs_path), claude)
    del arena
    return time.process_time() - started


def quickstart_cpu() -> float:
    """CPU seconds (user + sys) of ``arena run experiments/quickstart.yaml`` in a fresh out dir."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(["arena", "-q", "run", "experiments/quickstart.yaml", "--out", out, "--no-report"],
                       cwd=ROOT, check=True, env={**os.environ, "ARENA_PROGRESS": "0"}, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quickstart", action="store_true", help="also run the quickstart once (≈30-60 CPU-s)")
    args = parser.parse_args()
    from arena.formats.distil_lingeval import read_distil_lingeval
    from arena.formats.pairs import read_pairs
    from performers.john.distil_lingeval import DistilLingEvalJohn

    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
          f"CPU seconds, best of {args.repeat}")
    with tempfile.TemporaryDirectory() as folder:
        paths = thousand_pairs(Path(folder))
        scoring = score_cpu(paths["tsv"])
        print(f"score-pairs of 1,000 pairs with toy-en-de (reading included): {scoring:.2f} CPU s")
        for kind, path in paths.items():
            compare(f"read 1,000 pairs ({kind})", lambda p=path: read_pairs(p), args.repeat, scoring)
    quick = quickstart_cpu() if args.quickstart else None
    if quick is not None:
        print(f"arena run experiments/quickstart.yaml: {quick:.2f} CPU s (user + sys)")
    ding = DISTIL / "placeholder_ding.human"
    compare("quickstart John (300 instances)",
            lambda: list(DistilLingEvalJohn(dir=str(ding), limit=300).instances()), args.repeat, quick)
    sets = sorted(p for p in DISTIL.iterdir() if (p / "src.en").is_file())
    lines = sum(len(read_distil_lingeval(s, allow_empty=True)) for s in sets)
    compare(f"all DistilLingEval sets ({lines:,} pairs)",
            lambda: [read_distil_lingeval(s, allow_empty=True) for s in sets], args.repeat)


if __name__ == "__main__":
    main()
