"""YAML and JSON loading with errors that name the file and line."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from arena.errors import DataError


def read_text(path: str | Path) -> str:
    """Read a UTF-8 text file; a wrong encoding is a ``ValueError`` naming the file,
    line and byte offset."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, expected a file") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DataError(
            f"{path}:{line}: not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start}); "
            "convert the file to UTF-8, e.g. with iconv -f latin1 -t utf-8"
        ) from None


def load_yaml(path: str | Path) -> Any:
    """``yaml.safe_load`` a file, turning syntax errors into ``ValueError`` with file:line.
    A key given twice in one mapping is an error too (plain YAML loaders keep the last
    one silently, so ``beam: 0`` below ``beam: 5`` would quietly win)."""
    import yaml

    text = read_text(path)
    try:
        return yaml.load(text, Loader=_unique_key_loader())  # a SafeLoader subclass
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        problem = getattr(error, "problem", None) or str(error)
        raise DataError(f"{where}: malformed YAML: {problem}") from None


@functools.cache
def _unique_key_loader() -> type:
    """``yaml.SafeLoader`` that refuses a mapping key given twice."""
    import yaml

    class UniqueKeyLoader(yaml.SafeLoader):
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                lines: dict[Any, int] = {}
                for key_node, _ in node.value:
                    if not isinstance(key_node, yaml.ScalarNode) or key_node.value == "<<":
                        continue
                    key = self.construct_object(key_node)
                    if key in lines:
                        raise yaml.constructor.ConstructorError(
                            None, None, f"key {key!r} given twice (first on line {lines[key]})", key_node.start_mark
                        )
                    lines[key] = key_node.start_mark.line + 1
            return super().construct_mapping(node, deep)

    return UniqueKeyLoader


def load_json(path: str | Path) -> Any:
    """``json.loads`` a file, turning syntax errors into ``ValueError`` with file:line."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DataError(f"{path}:{error.lineno}:{error.colno}: malformed JSON: {error.msg}") from None


def yaml_key_lines(path: str | Path) -> dict[tuple[str, ...], int]:
    """Map each mapping key path (tuple of keys / list indices as strings) of a YAML
    file to its 1-based line, so that config errors can point at the line."""
    import yaml

    lines: dict[tuple[str, ...], int] = {}

    def walk(node: Any, prefix: tuple[str, ...]) -> None:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                key = prefix + (str(key_node.value),)
                lines[key] = key_node.start_mark.line + 1
                walk(value_node, key)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                key = prefix + (str(index),)
                lines[key] = item.start_mark.line + 1
                walk(item, key)

    try:
        root = yaml.compose(read_text(path), Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return lines
    if root is not None:
        walk(root, ())
    return lines
