"""Where the quickstart's CPU time goes: user + system seconds of the whole process (all threads) per phase.

Runs ``arena run experiments/quickstart.yaml`` in this process with an empty cache
(``ARENA_CACHE_DIR`` in a temporary folder: scores, 1-bests, the CTranslate2 conversion and the
target-lm all computed), wrapping the functions that make up the run, and prints per phase the
calls, the CPU seconds (``getrusage(RUSAGE_SELF)``: every thread of the process, as
``/usr/bin/time`` counts them) and the wall seconds; phases nest (``run`` holds all), so rows
do not add up.  Then the CPU time of each thread still alive at the end, and the load average.
A naive baseline for the same run is ``quickstart_cpu.py`` (the whole process, measured from
outside).  Nothing is imported before the arena does it, so PyTorch and CTranslate2 load their
OpenMP runtimes after the Claudes set the waiting policy, as in a plain run.

    python experiments/bench/quickstart_phases.py
    python experiments/bench/quickstart_phases.py --config experiments/quickstart.yaml --keep /tmp/qs
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# (module, qualified name, label): the run's phases, outermost first
PHASES = (
    ("arena.api", "run", "run (everything after the imports of the CLI)"),
    ("arena.api", "_played", "  play: Claudes built, rounds judged, 1-bests decoded"),
    ("performers.claude.hf_seq2seq", "HFSeq2SeqClaude._setup", "    toy: import PyTorch + Transformers, load model"),
    ("performers.claude.threads", "set_torch_threads", "      of which: import PyTorch"),
    ("performers.claude.seq2seq_engine", "Seq2SeqEngine._choose_engine", "      of which: probe the scoring engines"),
    ("performers.claude.scoring", "ScoringClaude.score", "    toy: score candidates and 1-bests (PyTorch)"),
    ("performers.claude.scoring", "ScoringClaude.translate", "    toy: 1-bests (CTranslate2 beam 5)"),
    ("performers.claude.ct2", "CTranslate2Claude.__init__", "      of which: convert to CTranslate2, load it"),
    ("arena.api", "surface_cues", "  surface cues built (target-lm)"),
    ("performers.claude.target_lm", "load_or_build", "    of which: target-lm read and trained"),
    ("arena.present.report", "write_reports", "  report.md and report.html"),
    ("arena.present.plots", "_pyplot", "    of which: import matplotlib"),
)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def wrap(module: str, qualified: str, totals: dict[str, list[float]], label: str) -> None:
    """Replace ``module.qualified`` by a wrapper that adds its calls' CPU and wall seconds to ``totals``."""
    owner = importlib.import_module(module)
    *path, name = qualified.split(".")
    for part in path:
        owner = getattr(owner, part)
    function = getattr(owner, name)

    @functools.wraps(function)
    def timed(*args, **kwargs):
        cpu, wall = cpu_seconds(), time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            entry = totals.setdefault(label, [0, 0.0, 0.0])
            entry[0] += 1
            entry[1] += cpu_seconds() - cpu
            entry[2] += time.perf_counter() - wall

    setattr(owner, name, timed)


def threads() -> list[tuple[str, float]]:
    """CPU seconds of each thread of this process still alive (Linux ``/proc``)."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = []
    for stat in sorted(Path("/proc/self/task").glob("*/stat")):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found.append((stat.parent.name, (int(fields[11]) + int(fields[12])) / ticks))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="experiments/quickstart.yaml")
    parser.add_argument("--keep", type=Path, help="use this folder for the cache and the run (else a temporary one)")
    args = parser.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    folder = args.keep or Path(tempfile.mkdtemp(prefix="arena-quickstart-phases-"))
    os.environ.update({"ARENA_CACHE_DIR": str(folder / "cache"), "ARENA_PROGRESS": "0"})
    load_before, started, cpu_started = os.getloadavg()[0], time.perf_counter(), cpu_seconds()
    from arena.cli import main as arena

    totals: dict[str, list[float]] = {"import the CLI": [1, cpu_seconds() - cpu_started, time.perf_counter() - started]}
    for module, qualified, label in PHASES:
        wrap(module, qualified, totals, label)
    code = arena(["-q", "run", args.config, "--out", str(folder / "runs")])
    totals["the whole process"] = [1, cpu_seconds(), time.perf_counter() - started]
    print(f"\n{args.config}, empty cache in {folder}; load average {load_before:.1f} → {os.getloadavg()[0]:.1f}")
    print(f"{'phase':58} {'calls':>5} {'CPU s':>7} {'wall s':>7}")
    for label in ["import the CLI", *(label for *_, label in PHASES), "the whole process"]:
        if label in totals:
            calls, cpu, wall = totals[label]
            print(f"{label:58} {calls:5.0f} {cpu:7.2f} {wall:7.2f}")
    print("threads alive at the end (CPU s): " + ", ".join(f"{tid} {cpu:.1f}" for tid, cpu in threads()))
    return code


if __name__ == "__main__":
    sys.exit(main())
