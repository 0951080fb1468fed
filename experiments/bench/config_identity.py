"""Every experiment config loads to the same experiment under two arena trees.

For each YAML under ``experiments/`` (and ``docs/``) this prints, per tree, the config hash
(:func:`arena.engine.manifest.config_hash` over ``dump(experiment)``), the run directory name,
and the dumped experiment's digest (a transfer config as ``arena transfer`` expands it), or
that the loader refuses it with the one-line error (a file that is no experiment config: a
cluster recipe, a script's own YAML); then whether the two trees agree on every file (a refusal
agrees with a refusal; the two messages are shown when their words differ)::

    python experiments/bench/config_identity.py /work/main .

Each tree runs in its own interpreter (``PYTHONPATH=TREE``), from this tree's directory so that
relative paths in the configs read the same files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = r"""
import hashlib, json, sys
from arena.codec import dump
from arena.engine.manifest import config_hash, run_dir_for
from arena.specs.config import load_experiment
from arena.specs.transfer import is_transfer, load_transfer
from performers.catalog import CATALOG
out = {}
for path in sys.argv[1:]:
    try:
        experiment = load_transfer(path, CATALOG)[0] if is_transfer(path) else load_experiment(path)
    except ValueError as error:
        out[path] = {"error": str(error)}
        continue
    text = json.dumps(dump(experiment), sort_keys=True, ensure_ascii=False)
    out[path] = {"hash": config_hash(experiment), "run_dir": run_dir_for(experiment, "OUT").name,
                 "dump": hashlib.sha256(text.encode()).hexdigest()[:16]}
print(json.dumps(out))
"""


def probe(tree: Path, configs: list[str]) -> dict[str, dict[str, str]]:
    env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
    done = subprocess.run([sys.executable, "-c", PROBE, *configs], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    configs = sorted(str(p) for folder in ("experiments", "docs") for p in Path(folder).rglob("*.yaml"))
    before, after = (probe(Path(tree), configs) for tree in argv)
    same = 0
    for path in configs:
        a, b = before[path], after[path]
        agree = a == b or ("error" in a and "error" in b)
        same += agree
        shown = b.get("run_dir") or "refused: " + b["error"][:90]
        print(f"{'same' if agree else 'DIFFERENT':9} {path}: {shown}")
        if a != b:
            print(f"          before: {a}\n          after:  {b}")
    print(f"{same}/{len(configs)} configs identical ({sum('run_dir' in before[p] for p in configs)} load)")
    return 0 if same == len(configs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
