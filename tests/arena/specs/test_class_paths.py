"""SPECs naming performers outside the catalog: module:Class, mymodule:Class, path/to/file.py:Class;
failures say what was tried."""

from __future__ import annotations

import pytest

from arena.errors import ConfigError
from arena.specs.registry import Catalog, resolve
from arena.specs.spec import parse_spec

CLAUDE = '''
class MyClaude:
    version = "1"

    def __init__(self, bias: int = 0):
        self.bias = bias

    def judge(self, pairs):
        return []
'''


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "lab").mkdir()
    (tmp_path / "lab" / "claudes.py").write_text(CLAUDE, encoding="utf-8")
    (tmp_path / "mine.py").write_text(CLAUDE, encoding="utf-8")
    (tmp_path / "broken.py").write_text("def x(:\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("text,name,params", [
    ("lab/claudes.py:MyClaude", "lab/claudes.py:MyClaude", {}),
    ("lab/claudes.py:MyClaude:bias=2", "lab/claudes.py:MyClaude", {"bias": 2}),
    ("lab.claudes:MyClaude", "lab.claudes:MyClaude", {}),       # no PYTHONPATH=. needed
    ("mine:MyClaude", "mine:MyClaude", {}),                     # an undotted module
    ("toy-en-de:cache=false", "toy-en-de", {"cache": False}),   # must not fire: a catalog name with params
])
def test_specs_parse_and_resolve(workdir, text, name, params):
    spec = parse_spec(text)
    assert (spec.name, dict(spec.params)) == (name, params)
    if name != "toy-en-de":
        assert resolve("claude", spec.name, Catalog()).__name__ == "MyClaude"


@pytest.mark.parametrize("name,words", [
    ("lab/nope.py:MyClaude", "tried file lab/nope.py (not found"),
    ("nolab.claudes:MyClaude", "tried import nolab.claudes"),
    ("lab/claudes.py:MyClaud", "did you mean MyClaude"),
    ("broken.py:X", "invalid Python"),
])
def test_failures_say_what_was_tried(workdir, name, words):
    with pytest.raises(ConfigError, match=words.replace("(", r"\(")):
        resolve("claude", name, Catalog())
