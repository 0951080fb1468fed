"""The size limits of arena/ and performers/: a module at most 400 lines, a function at
most 80 (the house rules; ruff's C901 holds the complexity at 15).

A module that is a data table (a lexicon, a table of forms) may be longer when it says
so in its opening: the words "data table" within its first 300 characters, e.g. a first
line ``# data table: German strong verbs and their ablaut series``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("arena", "performers")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
MARKER = "data table"


def oversized(name: str, source: str) -> list[str]:
    """What in one module's source is over the limits, as ``name (n lines)`` /
    ``name:function (n lines)``."""
    found = []
    lines = source.count("\n")
    if lines > MAX_MODULE_LINES and MARKER not in source[:300].lower():
        found.append(f"{name} ({lines} lines)")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{name}:{node.name} ({length} lines)")
    return found


def _function(lines: int) -> str:
    return "def f():\n" + "    x = 1\n" * (lines - 1)


CASES = [
    ("a short module", "x = 1\n", []),
    ("400 lines", "x = 1\n" * 400, []),
    ("401 lines", "x = 1\n" * 401, ["m (401 lines)"]),
    ("401 lines of a data table", "# data table: forms\n" + "x = 1\n" * 400, []),
    ("the marker too late", "x = 1\n" * 60 + "# data table\n" + "x = 1\n" * 340, ["m (401 lines)"]),
    ("a function of 80 lines", _function(80), []),
    ("a function of 81 lines", _function(81), ["m:f (81 lines)"]),
    ("a data table's long function", "# data table\n" + _function(81), ["m:f (81 lines)"]),
    ("a long method", "class C:\n    " + _function(81).replace("\n", "\n    "), ["m:f (81 lines)"]),
]


@pytest.mark.parametrize(("source", "expected"), [pytest.param(s, e, id=n) for n, s, e in CASES])
def test_the_limits(source, expected):
    assert oversized("m", source) == expected


def test_arena_and_performers_keep_the_limits():
    found = [
        problem
        for package in PACKAGES
        for path in sorted((REPO / package).rglob("*.py"))
        for problem in oversized(str(path.relative_to(REPO)), path.read_text(encoding="utf-8"))
    ]
    assert not found, "over the size limits (module 400 lines, function 80): " + "; ".join(found)
