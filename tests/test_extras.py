"""The core install runs the quickstart without the extras' packages (ray, flask, sacrebleu), and what needs one of them says which extra installs it (arena/extras.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.errors import EnvError
from arena.extras import require

REPO = Path(__file__).resolve().parents[1]
BLOCKER = '''
import sys
BLOCKED = {"ray", "flask", "sacrebleu"}
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, _Block())
'''


def without_extras(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "block").mkdir(exist_ok=True)
    (tmp_path / "block" / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "block"), str(REPO)]),
           "HF_HUB_OFFLINE": "1", "ARENA_PROGRESS": "0", "ARENA_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-c", "from arena.cli import main; raise SystemExit(main())", *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


def test_quickstart_runs_on_the_core_install(tmp_path, data_dir):
    done = without_extras(tmp_path, "-q", "run", "experiments/quickstart.yaml", "--limit", "2", "--no-report",
                          "--out", str(tmp_path / "runs"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "john:ding-human=distil-lingeval" in done.stdout
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert (run_dir / "onebest.jsonl").read_text(encoding="utf-8").strip()  # 1-bests by CTranslate2, a core dependency


@pytest.mark.parametrize("args", [
    ("serve", "experiments/quickstart.yaml"),
    ("repair", "--john", "mt.yaml", "--zellig", "np-agreement", "--patch", "repairs.jsonl", "--serve"),
])
def test_serve_names_its_extra(tmp_path, data_dir, args):
    done = without_extras(tmp_path, *args)
    assert done.returncode == 2 and "pip install 'arena-minimal-pairs[people]'" in done.stderr


@pytest.mark.parametrize("module,extra", [("no_such_module_h7", "ray")])
def test_require_names_the_extra(module, extra):
    with pytest.raises(EnvError, match=r"\[ray\]"):
        require(module, extra, "a test")
    assert require("json", "ray", "a test").dumps([]) == "[]"  # must not fire: installed
