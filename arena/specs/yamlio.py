"""YAML and JSON loading, bounded, with errors that name the file and line.

One way for every text file arena reads (configs, SPEC files, test sets, corpora):

- **Encoding.** UTF-8; a byte sequence that is not UTF-8 is a :class:`~arena.errors.DataError`
  naming file, line and byte offset.  A UTF-8 byte-order mark at the very start is
  dropped (editors on Windows write one); anywhere else it is text.
- **Line ends.** A line ends at ``\\n``; the ``\\r`` of a ``\\r\\n`` ending is dropped.  A lone
  ``\\r`` is no line end (:mod:`arena.formats.textlines`).
- **Bounds.** YAML files hold at most :data:`MAX_YAML_BYTES` and no aliases (``*name``:
  expanding them is how a few lines become gigabytes, and a recursive one never ends);
  JSON files hold at most :data:`MAX_JSON_BYTES`, nested at most :data:`MAX_DEPTH` deep, a
  JSONL line at most :data:`MAX_JSON_LINE_BYTES`; no JSON string may hold an unpaired
  surrogate (``"\\ud800"`` decodes to one, and no UTF-8 file can write it back).
  Every JSON and JSONL input goes through :func:`load_json`, :func:`loads_json` or
  :func:`iter_jsonl`.
  Each limit is a ``DataError`` naming the file (and line), never a traceback.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.errors import DataError

MAX_YAML_BYTES = 16 * 1024 * 1024
MAX_JSON_BYTES = 1024 * 1024 * 1024
MAX_DEPTH = 200
MAX_JSON_LINE_BYTES = 64 * 1024 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")
BOM = "\ufeff"


def read_text(path: str | Path, limit: int | None = None, what: str = "file") -> str:
    """Read a UTF-8 text file (a leading byte-order mark dropped); a wrong encoding is a
    :class:`DataError` naming the file, line and byte offset, and so is a file larger
    than ``limit`` bytes."""
    path = Path(path)
    try:
        if limit is not None and path.is_file() and path.stat().st_size > limit:
            raise DataError(f"{path}: {path.stat().st_size} bytes; a {what} holds at most {limit} bytes", file=path)
        data = path.read_bytes()
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, expected a file") from None
    return decode(data, path)


def decode(data: bytes, path: str | Path) -> str:
    """UTF-8 bytes of ``path`` as text, a leading byte-order mark dropped."""
    try:
        text = data.decode("utf-8")
        return text[1:] if text.startswith(BOM) else text
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

    text = read_text(path, MAX_YAML_BYTES, "YAML file")
    try:
        data = yaml.load(text, Loader=safe_loader())  # a SafeLoader subclass
    except RecursionError:
        raise DataError(f"{path}: nested more than the parser can follow; flatten the YAML", file=path) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        problem = getattr(error, "problem", None) or str(error)
        raise DataError(f"{where}: malformed YAML: {problem}") from None
    check_yaml_texts(data, path)
    return data


def check_yaml_texts(data: Any, path: str | Path, lines: dict[tuple[str, ...], int] | None = None) -> None:
    """Every non-blank string (key or value) of loaded YAML passes the text policy
    (:func:`arena.text_policy.text_problem`, line breaks allowed: a block scalar holds
    them); a refusal is a :class:`DataError` naming the file, line and key (``lines``: each
    key path's line, default the file's; a line of 0 is a ``--set`` override)."""
    from arena.text_policy import text_problem

    stack: list[tuple[Any, tuple[str, ...]]] = [(data, ())]
    while stack:
        item, keys = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                stack.append((key, keys))
                stack.append((value, (*keys, str(key))))
        elif isinstance(item, list):
            stack.extend((value, (*keys, str(index))) for index, value in enumerate(item))
        elif isinstance(item, str) and item.strip():
            problem = text_problem(item, allow_tab=True, one_line=False)
            if problem is not None:
                dotted = ".".join(keys)
                line = (yaml_key_lines(path) if lines is None else lines).get(keys)
                given = " (given by --set)" if line == 0 else ""
                raise DataError(f"{dotted + ': ' if dotted else ''}the text {item[:40]!r}{given} {problem}",
                                file=path, line=line or None, key=dotted or None)


@functools.cache
def safe_loader() -> type:
    """``yaml.SafeLoader`` that refuses a mapping key given twice, and aliases."""
    import yaml

    class UniqueKeyLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                raise yaml.composer.ComposerError(
                    None, None, f"alias *{event.anchor} refused: arena's YAML takes no aliases (write the value out)",
                    event.start_mark,
                )
            return super().compose_node(parent, index)

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


def load_json(path: str | Path, limit: int = MAX_JSON_BYTES) -> Any:
    """``json.loads`` a file, bounded (:data:`MAX_JSON_BYTES`, :data:`MAX_DEPTH`, no unpaired
    surrogate); every problem is a :class:`DataError` with file (and line)."""
    return loads_json(read_text(path, limit, "JSON file"), path)


def loads_json(text: str | bytes, path: str | Path, line: int | None = None) -> Any:
    """``json.loads`` text read from ``path`` (``line``: the JSONL line it is), nested at most
    :data:`MAX_DEPTH` deep and holding no unpaired surrogate (``"\\ud800"``, which no UTF-8
    file can hold back); each refusal is a :class:`DataError` naming the file and line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        at = error.lineno if line is None else line
        raise DataError(f"malformed JSON: {error.msg} (column {error.colno})", file=path, line=at) from None
    except RecursionError:
        raise DataError(f"JSON nested more than {MAX_DEPTH} levels deep", file=path, line=line) from None
    except UnicodeDecodeError as error:  # bytes given
        raise DataError(f"not valid UTF-8 (byte at offset {error.start})", file=path, line=line) from None
    problem = json_problem(data)
    if problem is not None:
        raise DataError(f"JSON {problem}", file=path, line=line)
    return data


def iter_jsonl(path: str | Path, max_line: int = MAX_JSON_LINE_BYTES) -> Iterator[tuple[int, Any]]:
    """``(line, value)`` for each non-blank line of a JSONL file, each line decoded by
    :func:`loads_json` and at most ``max_line`` bytes long; a byte-order mark at the start
    is dropped."""
    path = Path(path)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise DataError("file not found", file=path) from None
    except IsADirectoryError:
        raise DataError("is a directory, expected a file", file=path) from None
    with handle:
        for number in itertools.count(1):
            raw = handle.readline(max_line + 1)
            if not raw:
                return
            if len(raw) > max_line and not raw.endswith(b"\n"):
                raise DataError(f"a line longer than {max_line:,} bytes; a JSONL line holds one record",
                                file=path, line=number)
            if number == 1 and raw.startswith(BOM.encode()):
                raw = raw[len(BOM.encode()):]
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise DataError(f"not valid UTF-8 (byte 0x{raw[error.start]:02x} at column {error.start + 1}); "
                                "convert the file to UTF-8", file=path, line=number) from None
            if text.strip():
                yield number, loads_json(text, path, number)


def json_problem(data: Any, stop: int = MAX_DEPTH) -> str | None:
    """Why decoded JSON cannot be taken: nested more than ``stop`` deep, or a key or string
    holding an unpaired surrogate (``None`` when it can)."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _SURROGATE.search(item):
                return f"string {item[:40]!r} holds an unpaired surrogate, which UTF-8 cannot encode"
        elif isinstance(item, (list, dict)):
            if depth > stop:
                return f"nested more than {stop} levels deep"
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)
    return None


def json_depth(data: Any, stop: int = MAX_DEPTH) -> int:
    """How deep lists and objects nest in ``data`` (iteratively; stops past ``stop``)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if deepest > stop:
                return deepest
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


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
        root = yaml.compose(read_text(path, MAX_YAML_BYTES, "YAML file"), Loader=safe_loader())
    except (yaml.YAMLError, DataError, RecursionError):
        return lines
    if root is not None:
        walk(root, ())
    return lines
