"""What loading an experiment config costs, in CPU time, under two arena trees.

Each tree runs in its own interpreter (``PYTHONPATH=TREE``) several times, alternating, and
reports (the least CPU time of its repeats):

- ``cold``: importing :mod:`arena.specs.config` and loading the config once (what a CLI
  command pays: pydantic builds its validators on first use);
- ``load``: one more :func:`~arena.specs.config.load_experiment` of the file (YAML read
  twice: values and key lines, then validated);
- ``bind``: one :func:`~arena.specs.config.experiment_from_dict` of the mapping already read
  (the validation alone).

::

    python experiments/bench/config_load.py /work/main . [CONFIG]

The first tree is the baseline; the ratios are second / first (below 1: faster).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = r"""
import json, sys, time
config = sys.argv[1]
start = time.process_time()
from arena.specs.config import experiment_from_dict, load_experiment
load_experiment(config)
cold = time.process_time() - start
from arena.specs.yamlio import load_yaml, yaml_key_lines
data, lines = load_yaml(config), yaml_key_lines(config)

def each(call, n):
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(n):
            call()
        best = min(best, (time.process_time() - start) / n)
    return best

load = each(lambda: load_experiment(config), 50)
bind = each(lambda: experiment_from_dict(data, config, lines), 500)
print(json.dumps({"cold": cold, "load": load, "bind": bind}))
"""


def probe(tree: Path, config: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
    done = subprocess.run([sys.executable, "-c", PROBE, config], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__)
        return 2
    config = argv[2] if len(argv) == 3 else "experiments/quickstart.yaml"
    trees = [Path(argv[0]), Path(argv[1])]
    runs: list[list[dict[str, float]]] = [[], []]
    for _ in range(5):  # alternating, so that a busy moment falls on both
        for index, tree in enumerate(trees):
            runs[index].append(probe(tree, config))
    best = [{key: min(run[key] for run in tree_runs) for key in tree_runs[0]} for tree_runs in runs]
    print(f"{config}: CPU time per step, least of 5 interpreters each ({os.getloadavg()[0]:.2f} load)")
    for key in ("cold", "load", "bind"):
        before, after = best[0][key], best[1][key]
        print(f"  {key:5} {trees[0]}: {before * 1e3:8.3f} ms   {trees[1]}: {after * 1e3:8.3f} ms   ratio {after / before:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
