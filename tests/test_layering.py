"""The import layering of arena/ and performers/ (DESIGN.md "Layout"; issue 23).

Every module of ``arena/`` and ``performers/`` is parsed with :mod:`ast`; every import
statement counts, function-local and ``TYPE_CHECKING`` ones included (a function-local
import is a dependency taken later, not a weaker one).  From them the module import
graph is built, and the test fails on

- any cycle (reported as the modules of each strongly connected component, with one
  import that closes a loop and its line);
- any import of :mod:`performers` or :mod:`arena.cli` from ``arena/`` below the top
  layer (the top layer is ``arena.cli`` and ``arena.api``: only they hand the catalog
  to the framework);
- any import of :mod:`arena.cli` or :mod:`arena.api` from ``performers/``;
- any import of :mod:`arena.cli` from :mod:`arena.api` (``arena run`` calls the API).

``from package import name`` depends on ``package.name`` when that is a module, else
on the package's ``__init__``.  Importing ``a.b.c`` is taken as a dependency on
``a.b.c`` only (not on the ``__init__`` of ``a`` and ``a.b``), as import-linter does:
a package's ``__init__`` re-exporting its modules is not a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("arena", "performers")
TOP_LAYER = ("arena.cli", "arena.api")


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} (line {self.line})"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` file under the given packages."""
    return {
        module_name(path, root): path
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }


def _resolve_relative(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _nearest(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` if it is a module of ours, else its nearest enclosing module of ours."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> Iterator[Edge]:
    """Every import of ``module`` (anywhere in the file) that names one of ``modules``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (
                _resolve_relative(module, is_package, node.level, node.module) if node.level else node.module or ""
            )
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.append(full if full in modules else base)
        for target in dict.fromkeys(targets):
            found = _nearest(target, modules)
            if found is not None and found != module:
                yield Edge(module, found, node.lineno)


def import_graph(root: Path = REPO, packages: tuple[str, ...] = PACKAGES) -> dict[str, list[Edge]]:
    modules = find_modules(root, packages)
    return {name: list(imports_of(name, path, modules)) for name, path in modules.items()}


def cycles(graph: dict[str, list[Edge]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            targets = sorted({e.target for e in graph.get(node, [])})
            if position < len(targets):
                work.append((node, position + 1))
                target = targets[position]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def describe(component: list[str], graph: dict[str, list[Edge]]) -> str:
    members = set(component)
    inside = list(dict.fromkeys(str(e) for m in component for e in graph[m] if e.target in members))
    return "cycle among " + ", ".join(component) + ":\n    " + "\n    ".join(inside)


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def layer_violations(graph: dict[str, list[Edge]]) -> list[Edge]:
    """Imports that reach up: ``performers`` or the CLI from ``arena`` below the top
    layer; the CLI or the API from ``performers``."""
    bad = []
    for module, edges in graph.items():
        if module == "arena":  # the package's lazy re-export of arena.api
            forbidden: tuple[str, ...] = ("performers", "arena.cli")
        elif module == "arena.api":  # the CLI calls the API, not the other way round
            forbidden = ("arena.cli",)
        elif _within(module, TOP_LAYER):
            continue
        elif _within(module, ("arena",)):
            forbidden = ("performers", "arena.cli", "arena.api")
        else:
            forbidden = TOP_LAYER
        bad.extend(e for e in edges if _within(e.target, forbidden))
    return bad


# -- the checker on small made-up trees: what must fire and what must not ------------------

def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


CASES = [
    ("no imports", {"arena/__init__.py": "", "arena/a.py": "x = 1\n"}, [], []),
    ("one-way imports", {"arena/__init__.py": "", "arena/a.py": "import arena.b\n", "arena/b.py": ""}, [], []),
    ("a package re-exporting its module is no cycle",
     {"arena/__init__.py": "", "arena/p/__init__.py": "from arena.p.m import f\n",
      "arena/p/m.py": "from arena.p import other\n", "arena/p/other.py": ""}, [], []),
    ("module-level cycle",
     {"arena/__init__.py": "", "arena/a.py": "from arena import b\n", "arena/b.py": "from arena.a import x\n"},
     [["arena.a", "arena.b"]], []),
    ("function-local import closes a cycle",
     {"arena/__init__.py": "", "arena/a.py": "import arena.b\n",
      "arena/b.py": "def f():\n    from arena import a\n    return a\n"},
     [["arena.a", "arena.b"]], []),
    ("relative imports resolve",
     {"arena/__init__.py": "", "arena/p/__init__.py": "", "arena/p/a.py": "from . import b\n",
      "arena/p/b.py": "from ..p.a import y\n"},
     [["arena.p.a", "arena.p.b"]], []),
    ("a three-module cycle through a package __init__",
     {"arena/__init__.py": "", "arena/p/__init__.py": "from arena.p.a import f\n",
      "arena/p/a.py": "def f():\n    import arena.q\n", "arena/q.py": "from arena.p import f\n"},
     [["arena.p", "arena.p.a", "arena.q"]], []),
    ("the framework imports performers",
     {"arena/__init__.py": "", "arena/a.py": "def f():\n    from performers.catalog import CATALOG\n",
      "performers/__init__.py": "", "performers/catalog.py": ""}, [], ["arena.a -> performers.catalog (line 2)"]),
    ("the framework imports the CLI",
     {"arena/__init__.py": "", "arena/a.py": "from arena.cli import catalog\n", "arena/cli/__init__.py": ""},
     [], ["arena.a -> arena.cli (line 1)"]),
    ("the top layer may import performers",
     {"arena/__init__.py": "", "arena/api.py": "import performers.catalog\n", "arena/cli/__init__.py": "",
      "arena/cli/run.py": "from arena import api\nfrom performers.catalog import CATALOG\n",
      "performers/__init__.py": "", "performers/catalog.py": ""}, [], []),
    ("the API imports the CLI",
     {"arena/__init__.py": "", "arena/api.py": "def f():\n    from arena.cli import catalog\n",
      "arena/cli/__init__.py": ""}, [], ["arena.api -> arena.cli (line 2)"]),
    ("performers import the CLI",
     {"arena/__init__.py": "", "arena/cli/__init__.py": "", "performers/__init__.py": "",
      "performers/x.py": "import arena.cli\n"}, [], ["performers.x -> arena.cli (line 1)"]),
    ("imports of other packages are not ours",
     {"arena/__init__.py": "", "arena/a.py": "import json\nfrom collections import abc\n"}, [], []),
]


@pytest.mark.parametrize(("files", "expected_cycles", "expected_violations"),
                         [pytest.param(f, c, v, id=name) for name, f, c, v in CASES])
def test_checker_finds_cycles_and_upward_imports(tmp_path, files, expected_cycles, expected_violations):
    graph = import_graph(_tree(tmp_path, files))
    assert cycles(graph) == expected_cycles
    assert [str(e) for e in layer_violations(graph)] == expected_violations


# -- the real tree ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def graph() -> dict[str, list[Edge]]:
    return import_graph()


def test_the_graph_covers_both_packages(graph):
    assert "arena.engine.core" in graph and "performers.catalog" in graph
    assert any(e.target == "arena.record.store" for e in graph["arena.engine.core"])


def test_no_import_cycles(graph):
    found = cycles(graph)
    assert not found, "\n".join(describe(c, graph) for c in found)


def test_nothing_below_the_top_layer_imports_performers_or_the_cli(graph):
    bad = layer_violations(graph)
    assert not bad, "\n".join(map(str, bad))
