"""How often ``arena run`` decodes each line of a run's transcripts (JSON decodes per line, to
JSON values or straight to a record).

Plays the driver benchmark's run (``random`` Claude, ``replay`` Zellig, no model, no 1-best; see
``driver_scale.py``) of ``n`` DistilLingEval pairs with ``arena run --no-report`` in this process,
counting every decode of a line (``json.loads``, pydantic-core's parser, a record class's
pydantic validator) by the file it comes from (a round, a judgement, a 1-best), in
two phases: the whole command (planning and playing read rounds back too), then ``arena score RUN``
alone (the run verified and scored).  With ``--time-score K`` it then runs ``arena score RUN`` K
times more, each in a fresh process, and prints the CPU time (the child's ``rusage``, interpreter
start and imports included) per round of verifying and scoring; with ``--against TREE`` each of those
is paired with ``arena score`` of the same run by the arena of another tree (e.g. a worktree of
``main``), run right after it, and the ratio of the two is printed.  Run it against any revision by
pointing ``PYTHONPATH`` at its tree (it uses the command line only):

    python experiments/bench/decodes.py --n 2000
    PYTHONPATH=/tmp/main-tree python experiments/bench/decodes.py --n 50000 --time-score 3
    python experiments/bench/decodes.py --n 10000 --time-score 4 --against /tmp/main-tree
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from driver_scale import real_pairs, write_set  # noqa: E402

KINDS = {"instance": "rounds.jsonl", "resolved_by": "judgements.jsonl", "translation": "onebest.jsonl"}


class _CountingValidator:
    """A record class's pydantic validator that counts the JSON texts it reads (``arena.codec.loads``)."""

    def __init__(self, validator, name: str, counts: Counter[str]) -> None:
        self.validator, self.name, self.counts = validator, name, counts

    def validate_json(self, text, *args, **kwargs):
        self.counts[self.name] += 1
        return self.validator.validate_json(text, *args, **kwargs)

    def __getattr__(self, attribute):
        return getattr(self.validator, attribute)


@contextlib.contextmanager
def counted() -> Iterator[Counter[str]]:
    """Count every decode of a transcript line by the file it comes from: to JSON values
    (``json.loads``, and pydantic-core's parser as :func:`arena.record.transcripts.loads` calls it)
    and straight to a record (``arena.codec.loads``, a record class's validator)."""
    from arena import codec
    from arena.record import transcripts
    from arena.record.rounds import JudgementRecord, OneBest, Round

    counts: Counter[str] = Counter()
    loads, from_json = json.loads, transcripts.from_json

    def counting(decode):
        def decoded(text, *args, **kwargs):
            record = decode(text, *args, **kwargs)
            name = next((f for key, f in KINDS.items() if isinstance(record, dict) and key in record), "other")
            counts[name] += 1
            return record
        return decoded

    adapters = {cls: codec.adapter(cls) for cls in (Round, JudgementRecord, OneBest)}
    validators = {cls: adapter.validator for cls, adapter in adapters.items()}
    json.loads, transcripts.from_json = counting(loads), counting(from_json)
    for (cls, adapter), name in zip(adapters.items(), KINDS.values()):
        adapter.validator = _CountingValidator(validators[cls], name, counts)
    try:
        yield counts
    finally:
        json.loads, transcripts.from_json = loads, from_json
        for cls, adapter in adapters.items():
            adapter.validator = validators[cls]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="pairs (= rounds) of the run")
    parser.add_argument("--time-score", type=int, default=0, metavar="K", help="time 'arena score RUN' K times")
    parser.add_argument("--against", type=Path, help="with --time-score: also time the arena of this tree, paired")
    args = parser.parse_args(argv)
    from arena.cli import main as arena

    with tempfile.TemporaryDirectory(prefix="arena-decodes-") as folder:
        directory = write_set(Path(folder) / "data", args.n, real_pairs())
        config = Path(folder) / "driver.yaml"
        config.write_text(f"name: decodes\njohns: [{{name: distil-lingeval, params: {{dir: '{directory}'}}}}]\n"
                          "zelligs: [replay]\nclaudes: [random]\nseeds: [1]\ndiscrepancy: false\n", encoding="utf-8")
        out = Path(folder) / "runs"
        with counted() as whole, contextlib.redirect_stdout(io.StringIO()):
            assert arena(["--quiet", "run", str(config), "--out", str(out), "--no-report", "--no-progress"]) == 0
        (run_dir,) = out.iterdir()
        with counted() as scored, contextlib.redirect_stdout(io.StringIO()):
            assert arena(["--quiet", "score", str(run_dir)]) == 0
        print(f"{'file':<17} {'lines':>7} {'arena run: decodes/line':>24} {'arena score: decodes/line':>26}")
        for name in KINDS.values():
            path = run_dir / name
            lines = sum(1 for _ in path.open("rb")) if path.exists() else 0
            if lines:
                print(f"{name:<17} {lines:>7} {whole[name] / lines:>24.2f} {scored[name] / lines:>26.2f}")
        for _ in range(args.time_score):
            cpu = score_cpu(run_dir)
            line = f"arena score: {cpu:.2f} s CPU, {cpu / args.n * 1e6:.1f} us a round"
            if args.against is not None:
                other = score_cpu(run_dir, args.against)
                line += f"; {args.against}: {other:.2f} s CPU, {other / args.n * 1e6:.1f} us a round; ratio {cpu / other:.2f}"
            print(f"{line} (load {' '.join(f'{x:.2f}' for x in os.getloadavg())})", flush=True)
    return 0


def score_cpu(run_dir: Path, tree: Path | None = None) -> float:
    """CPU seconds of ``arena score RUN`` in a fresh process (the child's ``rusage``), with the arena
    of ``tree`` (default: this process's ``PYTHONPATH``)."""
    command = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())", "--quiet",
               "score", str(run_dir)]
    env = {**os.environ, "ARENA_PROGRESS": "0", "OMP_NUM_THREADS": "1"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    child = subprocess.Popen(command, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        raise SystemExit(f"arena score failed on {run_dir}")
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    sys.exit(main())
