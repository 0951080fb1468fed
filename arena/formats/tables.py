"""The table formats arena reads and writes, one row per record: TSV, CSV, JSONL, Parquet.

One table, :data:`FORMATS`, says for each format its file suffixes, how its rows are read
(own pairs, :mod:`arena.formats.pairs`) and how rows are written (the score tables of
``arena score-pairs``, the tidy tables of ``arena export``):

- ``tsv`` / ``csv``: a header line and RFC 4180 quoting (:mod:`arena.formats.delimited`), as
  pandas' ``to_csv`` writes and reads them; list and mapping values are JSON inside a cell,
  an empty cell is a missing value;
- ``jsonl`` (``.jsonl``, ``.ndjson``): one JSON object per line, non-ASCII kept, read bounded
  (:func:`arena.specs.yamlio.iter_jsonl`);
- ``parquet``: a Parquet table (pyarrow; pandas for writing).

A writer takes rows (mappings) or a pandas DataFrame (its column types are kept in Parquet;
a missing value, NaN, is an empty cell or ``null``), and writes the file atomically; ``None``
as the output writes TSV or JSONL to standard output, with text from data made visible.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import DataError, UsageError
from arena.formats.delimited import DELIMITERS, delimited_rows, delimited_text
from arena.specs.yamlio import MAX_JSON_BYTES, iter_jsonl

Rows = Iterable[tuple[int, Any]]  # (line or row number counting from 1, the row's mapping)


@dataclass(frozen=True)
class TableFormat:
    """A format's suffixes, its reader (``path`` → numbered rows) and its writer (rows or a
    DataFrame → ``path``, or standard output for ``None``)."""

    suffixes: tuple[str, ...]
    read: Callable[[Path], Rows]
    write: Callable[[Any, Path | None], None]


def format_of(path: str | Path, *, key: str | None = None, file: str | Path | None = None, or_else: str = "") -> str:
    """The name of ``path``'s format by its suffix (a :class:`UsageError` naming the suffixes
    when it has none of them; ``or_else`` ends its hint)."""
    suffix = Path(path).suffix.lower()
    found = next((name for name, table in FORMATS.items() if suffix in table.suffixes), None)
    if found is None:
        suffixes = ", ".join("*" + s for table in FORMATS.values() for s in table.suffixes)
        raise UsageError(f"cannot tell the table format of {Path(path).name!r} from its suffix", key=key, file=file,
                         hint=f"name it {suffixes}{or_else}")
    return found


def read_text(path: Path) -> str:
    """The file as text (UTF-8, a byte-order mark dropped); bad bytes are a DataError naming the line."""
    try:
        if path.stat().st_size > MAX_JSON_BYTES:
            raise DataError(f"{path.stat().st_size:,} bytes; a table holds at most {MAX_JSON_BYTES:,}", file=path)
        data = path.read_bytes()
    except IsADirectoryError:
        raise DataError("is a directory, not a file", file=path) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DataError(f"not UTF-8 ({error.reason} at byte {error.start})", file=path, line=line) from None


def records(table: Any) -> list[Mapping[str, Any]]:
    """Rows as mappings of Python values: a DataFrame's rows with NaN as ``None``."""
    if hasattr(table, "to_dict") and hasattr(table, "columns"):
        plain = table.astype(object).where(table.notna(), None)
        return plain.to_dict(orient="records")
    return list(table)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def delimited(table: Any, kind: str) -> str:
    """Rows (or a DataFrame) as TSV or CSV text with a header line."""
    rows = records(table)
    columns = list(table.columns) if hasattr(table, "columns") else list(dict.fromkeys(k for row in rows for k in row))
    return delimited_text(columns, [[_cell(row.get(c)) for c in columns] for row in rows], DELIMITERS[kind])


def _write_text(text: str, out: Path | None, visible: Callable[[str], str]) -> None:
    from arena.formats.textlines import write_text_atomic

    if out is None:  # a terminal, perhaps: text from data shown visibly
        sys.stdout.write(visible(text))
    else:
        write_text_atomic(out, text)


def _delimited_format(kind: str) -> TableFormat:
    def read(path: Path) -> Rows:
        return delimited_rows(read_text(path), DELIMITERS[kind], path)

    def write(table: Any, out: Path | None) -> None:
        from arena.text_policy import visible_lines

        _write_text(delimited(table, kind), out, visible_lines)

    return TableFormat((f".{kind}",), read, write)


def _write_jsonl(table: Any, out: Path | None) -> None:
    from arena.text_policy import json_visible

    text = "".join(json.dumps(dict(row), ensure_ascii=False) + "\n" for row in records(table))
    _write_text(text, out, json_visible)


def _read_parquet(path: Path) -> Rows:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(path).to_pylist()
    except (pa.ArrowException, OSError) as error:
        raise DataError(f"not a Parquet file: {error}", file=path) from None
    return ((index + 1, row) for index, row in enumerate(rows))


def _write_parquet(table: Any, out: Path | None) -> None:
    import pandas as pd

    if out is None:
        raise UsageError("Parquet cannot be written to standard output", key="--out", hint="give a file name")
    frame = table if isinstance(table, pd.DataFrame) else pd.DataFrame(list(table))
    temporary = out.with_name(f".{out.name}.partial")
    frame.to_parquet(temporary, index=False)
    temporary.replace(out)


FORMATS: Mapping[str, TableFormat] = {
    "tsv": _delimited_format("tsv"),
    "csv": _delimited_format("csv"),
    "jsonl": TableFormat((".jsonl", ".ndjson"), iter_jsonl, _write_jsonl),
    "parquet": TableFormat((".parquet",), _read_parquet, _write_parquet),
}


def read_rows(path: Path, kind: str | None = None) -> Rows:
    """The numbered rows of a table file (its format by suffix unless ``kind`` is given)."""
    return FORMATS[kind or format_of(path, file=path)].read(path)


def write_rows(table: Any, out: Path | None, kind: str | None = None) -> None:
    """Write rows (or a DataFrame) to ``out`` in ``kind`` (by ``out``'s suffix when not given;
    ``None``: TSV on standard output)."""
    if kind is None:
        kind = "tsv" if out is None else format_of(out, key="--out")
    FORMATS[kind].write(table, out)

