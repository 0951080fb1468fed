"""What S net of cues and the equivalence tests (issue 34) add to ``arena run`` and to
``arena false-positives``, in CPU seconds of this process (``time.process_time``: other load on
the machine lengthens the wall time, not these numbers).

1. ``arena run`` of a config (default ``experiments/quickstart.yaml``) in this process, with every
   registered metric: its CPU time is the run's cost with the new work included.
2. On that run directory, the pieces the new work adds, each timed with the metric registered and
   again with it unregistered (the naive baseline: scoring as before issue 34):
   ``scores.json`` (streamed scoring, which now fits the length cue out of fold on the run's pairs),
   the leaderboards, and the report's *S net of cues* table.
3. ``arena false-positives`` on the run (its rows, with the cue columns), and the verdicts of its
   rows decided again with the three-outcome test (one-sided test + two one-sided tests + the n that
   would decide) against the one-sided test alone (the naive baseline), repeated ``--repeat`` times.

It prints each figure and the share the new work adds.  Issue 34 asks for under 10% on both verbs.

    python experiments/bench/net_of_cues.py
    python experiments/bench/net_of_cues.py --set max_instances=100
    python experiments/bench/net_of_cues.py --fp-run runs/false-positives-toy-99bb533856
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def cpu(task):
    started = time.process_time()
    result = task()
    return time.process_time() - started, result


def pieces(run_dir: Path) -> dict[str, float]:
    """CPU seconds of scoring, leaderboards and the report's S net of cues table on ``run_dir``."""
    from arena.present import cues as present
    from arena.stats import cue_items, cues, leaderboards, streamed
    from arena.stats.run import RunData
    from performers.catalog import NOT_COMPARED_WITH_CUES
    from performers.claude.edit_words import EditWordsClaude
    from performers.claude.length import LengthClaude

    times = {"scores.json": cpu(lambda: streamed.score_run(run_dir))[0]}
    run = RunData.open(run_dir)
    times["leaderboards"] = cpu(lambda: leaderboards.build(run))[0]
    data = cue_items.from_run(run, NOT_COMPARED_WITH_CUES)
    tables = cues.audit(data, {"length": LengthClaude, "edit-words": EditWordsClaude}) if data.items else []
    times["report: S net of cues table"] = cpu(lambda: present.net_rows(tables, data.claudes))[0]
    return times


def run_part(config: str, overrides: list[str], out: Path) -> tuple[float, Path]:
    from arena.cli import main

    argv = ["run", config, "--out", str(out), "--no-progress"] + [x for o in overrides for x in ("--set", o)]
    seconds, status = cpu(lambda: main(argv))
    if status != 0:
        raise SystemExit(f"arena run exited {status}")
    (run_dir,) = out.iterdir()
    return seconds, run_dir


def false_positive_part(run_dir: Path, repeat: int) -> tuple[float, float, float]:
    """CPU of the report's rows, of deciding their verdicts ``repeat`` times with three outcomes, and
    with the one-sided test alone."""
    from arena.cli.fp_inputs import calibrations, cue_verdicts
    from arena.stats import false_positives, outcome_tests
    from arena.stats.aggregate import greater_p_value

    build, report = cpu(lambda: false_positives.build(run_dir, None, 0.05, calibrations(run_dir, None),
                                                      cue_verdicts(run_dir)))
    tested = [(r.contrastive_error, r.generative) for r in report.rows
              if r.generative is not None and r.contrastive_error.rate is not None]

    def three() -> None:
        for _ in range(repeat):
            for error, generative in tested:
                false_positives.decide(error, generative.rate, false_positives.generative_variance(generative),
                                       generative.n, 0.05, outcome_tests.MARGIN)

    def one_sided() -> None:
        for _ in range(repeat):
            for error, generative in tested:
                greater_p_value(error.rate, error.variance, generative.rate,
                                false_positives.generative_variance(generative))

    return build, cpu(three)[0] / repeat, cpu(one_sided)[0] / repeat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default=str(ROOT / "experiments" / "quickstart.yaml"))
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--repeat", type=int, default=1000, help="repetitions of the verdicts (default 1000)")
    parser.add_argument("--fp-run", type=Path, help="time arena false-positives on this run directory instead "
                        "(e.g. one of experiments/false_positives/toy.yaml: more rows)")
    args = parser.parse_args(argv)
    os.environ.setdefault("ARENA_PROGRESS", "0")
    os.chdir(ROOT)

    from arena.stats import registry

    with tempfile.TemporaryDirectory() as scratch:
        run_cpu, run_dir = run_part(args.config, args.overrides, Path(scratch))
        with_metric = pieces(run_dir)
        metric = next(m for m in registry.metrics() if m.name == "s_net_of_cues")
        registry.unregister(metric.name)
        try:
            without = pieces(run_dir)
        finally:
            registry.register(metric)
        without["report: S net of cues table"] = 0.0  # the table did not exist
        fp_build, fp_three, fp_one = false_positive_part(args.fp_run or run_dir, args.repeat)

    print(f"load average {os.getloadavg()[0]:.2f} (1 min) at the end")
    print(f"arena run {args.config} {' '.join(args.overrides)}: {run_cpu:.2f} s CPU (new work included)")
    added = 0.0
    for name in with_metric:
        delta = with_metric[name] - without[name]
        added += delta
        print(f"  {name:30s} with {with_metric[name]:.3f} s, naive {without[name]:.3f} s, added {delta:+.3f} s")
    print(f"  added by S net of cues: {added:+.3f} s = {100 * added / (run_cpu - added):+.1f}% of the naive run "
          f"({run_cpu - added:.2f} s)")
    print(f"arena false-positives {args.fp_run or 'on that run'} (rows with cue columns): {fp_build:.3f} s CPU")
    print(f"  verdicts of its rows: three outcomes {1000 * fp_three:.3f} ms, one-sided only (naive) "
          f"{1000 * fp_one:.3f} ms, added {1000 * (fp_three - fp_one):+.3f} ms = "
          f"{100 * (fp_three - fp_one) / (fp_build - (fp_three - fp_one)):+.2f}% of the naive report")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
