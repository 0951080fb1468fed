"""A user's own minimal pairs: one row per pair, from a file, a DataFrame or dicts.

Every row has three texts, ``source`` (English), ``correct`` and ``incorrect``
(German); every other column is metadata (``john.<column>`` in ``breakdowns:``).
An ``id`` column, when present, names the pairs (ids must be unique); otherwise a
pair is ``<file stem>.<line>``.  Column names can be mapped: ``{"source": "src"}``
or, on the command line, ``--columns source=src,correct=good,incorrect=bad``.

Formats, by the path's suffix:

- ``.tsv``: tab-separated, a header line, no quoting (a ``"`` is a character);
- ``.csv``: comma-separated with a header, RFC 4180 quoting;
- ``.jsonl`` / ``.ndjson``: one JSON object per line;
- ``.parquet``: a Parquet table;
- a directory: a Hugging Face ``datasets`` directory (``save_to_disk``), read with
  ``datasets.load_from_disk`` where that package is installed, otherwise its Arrow
  files with pyarrow (the layout is the same).

A bad file is a :class:`~arena.errors.DataError` naming the file, the line (the row
for Parquet and Arrow, counting from 1) and the column.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import DataError, UsageError

TEXT_COLUMNS = ("source", "correct", "incorrect")
ID_COLUMN = "id"
SUFFIXES = (".tsv", ".csv", ".jsonl", ".ndjson", ".parquet")


@dataclass(frozen=True)
class OwnPair:
    """One minimal pair: its id, the three texts and the row's other columns."""

    id: str
    source: str
    correct: str
    incorrect: str
    meta: dict[str, Any] = field(default_factory=dict)
    line: int = 0


def parse_columns(text: str | Mapping[str, str] | None, *, where: str = "--columns") -> dict[str, str]:
    """``"source=src,correct=good"`` (or a mapping) → ``{"source": "src", "correct": "good"}``;
    keys must be ``source``, ``correct``, ``incorrect`` or ``id``."""
    if text is None or text == "":
        return {}
    if isinstance(text, Mapping):
        mapping = {str(k): str(v) for k, v in text.items()}
    else:
        mapping = {}
        for item in str(text).split(","):
            name, sep, column = item.partition("=")
            if not sep or not name.strip() or not column.strip():
                raise UsageError(f"{item!r} is not NAME=COLUMN", key=where,
                                 hint="e.g. --columns source=src,correct=good,incorrect=bad")
            mapping[name.strip()] = column.strip()
    allowed = (*TEXT_COLUMNS, ID_COLUMN)
    for name in mapping:
        if name not in allowed:
            raise UsageError(f"{name!r} is not one of {', '.join(allowed)}", key=where)
    columns: dict[str, str] = {}
    for name in allowed:  # a column read as two things would score a text against itself
        column = mapping.get(name, name)
        if column in columns:
            raise UsageError(f"{columns[column]} and {name} would both be read from column {column!r}", key=where,
                             hint="map each of source, correct, incorrect (and id) to its own column")
        columns[column] = name
    return mapping


def pair_format(path: Path) -> str:
    """The format of ``path``: ``tsv``, ``csv``, ``jsonl``, ``parquet`` or ``hf-datasets``."""
    if path.is_dir():
        return "hf-datasets"
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise UsageError(f"cannot tell the format of {path.name!r} from its suffix", file=path,
                         hint=f"name it {', '.join('*' + s for s in SUFFIXES)}, or give a datasets directory")
    return {".ndjson": "jsonl"}.get(suffix, suffix[1:])


def read_pairs(path: str | Path, columns: str | Mapping[str, str] | None = None) -> list[OwnPair]:
    """The pairs of a TSV, CSV, JSONL, Parquet file or a Hugging Face datasets directory."""
    path = Path(path)
    if not path.exists():
        raise DataError("no such file or directory", file=path)
    mapping = parse_columns(columns)
    kind = pair_format(path)
    if kind in ("tsv", "csv"):
        rows = _delimited_rows(path, "\t" if kind == "tsv" else ",")
    elif kind == "jsonl":
        rows = _jsonl_rows(path)
    else:
        table = _parquet_table(path) if kind == "parquet" else _datasets_table(path)
        rows = ((index + 1, row) for index, row in enumerate(table))
    return pairs_from_rows(rows, mapping, file=str(path), stem=path.stem if path.is_file() else path.name)


def pairs_from_records(
    records: Any, columns: str | Mapping[str, str] | None = None, *, name: str = "pairs"
) -> list[OwnPair]:
    """The pairs of a pandas DataFrame or a sequence of mappings (row ``n`` counts from 1)."""
    mapping = parse_columns(columns, where="columns")
    if hasattr(records, "to_dict") and hasattr(records, "columns"):  # a pandas DataFrame
        records = records.to_dict(orient="records")
    if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
        raise UsageError(f"pairs must be a path, a DataFrame or a list of dicts, not {type(records).__name__}")
    return pairs_from_rows(((index + 1, row) for index, row in enumerate(records)), mapping, file=f"<{name}>",
                           stem=name, unit="row")


def load_pairs(pairs: Any, columns: str | Mapping[str, str] | None = None) -> list[OwnPair]:
    """Pairs from a path (see :func:`read_pairs`), a DataFrame, or a list of dicts."""
    if isinstance(pairs, (str, Path)):
        return read_pairs(pairs, columns)
    return pairs_from_records(pairs, columns)


def pairs_from_rows(
    rows: Iterable[tuple[int, Any]], mapping: Mapping[str, str], *, file: str, stem: str, unit: str = "line"
) -> list[OwnPair]:
    """Checked :class:`OwnPair` objects from ``(line, mapping)`` rows."""
    wanted = {name: mapping.get(name, name) for name in (*TEXT_COLUMNS, ID_COLUMN)}
    renamed = {column: name for name, column in wanted.items()}
    pairs: list[OwnPair] = []
    seen: dict[str, int] = {}
    for line, row in rows:
        where = {"file": file, "line": line} if unit == "line" else {"file": file}
        at = "" if unit == "line" else f"row {line}: "
        if not isinstance(row, Mapping):
            raise DataError(f"{at}expected an object with columns, got {type(row).__name__}", **where)
        texts = {}
        for name in TEXT_COLUMNS:
            column = wanted[name]
            if column not in row:
                raise DataError(f"{at}no column {column!r} (columns: {', '.join(map(str, row)) or 'none'})",
                                key=column, hint="map yours with --columns source=COL,correct=COL,incorrect=COL"
                                if column == name else None, **where)
            value = row[column]
            if not isinstance(value, str):
                raise DataError(f"{at}{column!r} is {type(value).__name__} {value!r}, not a text", key=column, **where)
            if not value.strip():
                raise DataError(f"{at}{column!r} is empty", key=column, **where)
            if "\x00" in value:
                raise DataError(f"{at}{column!r} holds a NUL character (U+0000): binary data, not a text",
                                key=column, **where)
            texts[name] = value
        if texts["correct"] == texts["incorrect"]:
            raise DataError(f"{at}'correct' and 'incorrect' are the same text", key=wanted["incorrect"], **where)
        raw_id = row.get(wanted[ID_COLUMN])
        pair_id = f"{stem}.{line}" if raw_id is None or raw_id == "" else str(raw_id)
        if pair_id in seen:
            raise DataError(f"{at}id {pair_id!r} already used on {unit} {seen[pair_id]}", key=wanted[ID_COLUMN],
                            **where)
        seen[pair_id] = line
        meta: dict[str, Any] = {}
        for key, item in row.items():
            column_name: str = key  # a header or JSON key (a DataFrame's column name as given)
            meta_key = renamed.get(column_name, column_name)
            if meta_key not in wanted:
                meta[meta_key] = _plain(item)
        pairs.append(OwnPair(pair_id, texts["source"], texts["correct"], texts["incorrect"], meta, line))
    if not pairs:
        raise DataError("no pairs", file=file)
    return pairs


def _plain(value: Any) -> Any:
    """A metadata value JSON can hold (numpy scalars and NaN from pandas become Python values)."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            value = value.item()
        except (ValueError, TypeError):
            return str(value)
    if isinstance(value, float) and value != value:  # NaN: a missing value
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def _read_text(path: Path) -> str:
    """The file as text (UTF-8, a byte-order mark dropped); bad bytes are a DataError naming the line."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise DataError("is a directory, not a file", file=path) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DataError(f"not UTF-8 ({error.reason} at byte {error.start})", file=path, line=line) from None


def _delimited_rows(path: Path, delimiter: str):
    """``(line, dict)`` rows of a TSV or CSV file with a header line."""
    with io.StringIO(_read_text(path), newline="") as handle:
        options: dict[str, Any] = {"delimiter": delimiter}
        if delimiter == "\t":
            options["quoting"] = csv.QUOTE_NONE
        reader = csv.reader(handle, **options)
        header: list[str] | None = None
        try:
            for fields in reader:
                line = reader.line_num
                if header is None:
                    header = [name.strip() for name in fields]
                    duplicates = sorted({n for n in header if header.count(n) > 1})
                    if duplicates:
                        raise DataError(f"column {duplicates[0]!r} appears twice in the header", file=path, line=1,
                                        key=duplicates[0])
                    continue
                if not fields or fields == [""]:
                    continue  # a blank line
                if len(fields) != len(header):
                    column = header[len(fields)] if len(fields) < len(header) else f"field {len(fields)}"
                    raise DataError(f"{len(fields)} fields, but the header has {len(header)}", file=path, line=line,
                                    key=column, hint="a tab inside a text?" if delimiter == "\t" else None)
                yield line, dict(zip(header, fields))
        except csv.Error as error:
            raise DataError(f"not valid CSV: {error}", file=path, line=reader.line_num) from None
    if header is None:
        raise DataError("empty file (no header line)", file=path, line=1)


def _jsonl_rows(path: Path):
    with io.StringIO(_read_text(path), newline="") as handle:
        for line, text in enumerate(handle, 1):
            if not text.strip():
                continue
            try:
                yield line, json.loads(text)
            except json.JSONDecodeError as error:
                raise DataError(f"not JSON: {error.msg} (column {error.colno})", file=path, line=line) from None


def _parquet_table(path: Path) -> list[dict[str, Any]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path).to_pylist()
    except (pa.ArrowException, OSError) as error:
        raise DataError(f"not a Parquet file: {error}", file=path) from None


def _datasets_table(path: Path) -> list[dict[str, Any]]:
    """A ``datasets.Dataset.save_to_disk`` directory's rows (one split)."""
    try:
        import datasets
    except ImportError:
        datasets = None
    if datasets is not None:
        loaded = datasets.load_from_disk(str(path))
        if isinstance(loaded, datasets.DatasetDict):
            raise UsageError(f"a DatasetDict with splits {', '.join(loaded)}", file=path,
                             hint=f"give one split's directory, e.g. {path / next(iter(loaded))}")
        return loaded.to_list()
    return _arrow_files(path)


def _arrow_files(path: Path) -> list[dict[str, Any]]:
    import pyarrow as pa

    state = path / "state.json"
    if state.is_file():
        try:
            names = [item["filename"] for item in json.loads(state.read_text(encoding="utf-8"))["_data_files"]]
        except (ValueError, KeyError, TypeError) as error:
            raise DataError(f"unreadable datasets state: {error}", file=state) from None
    elif (path / "dataset_dict.json").is_file():
        splits = json.loads((path / "dataset_dict.json").read_text(encoding="utf-8")).get("splits", [])
        raise UsageError(f"a DatasetDict with splits {', '.join(splits)}", file=path,
                         hint="give one split's directory" + (f", e.g. {path / splits[0]}" if splits else ""))
    else:
        names = sorted(p.name for p in path.glob("*.arrow"))
    if not names:
        raise DataError("a directory without Arrow files (not a datasets save_to_disk directory)", file=path)
    rows: list[dict[str, Any]] = []
    for name in names:
        file = path / name
        try:
            with pa.memory_map(str(file)) as source:
                try:
                    table = pa.ipc.open_stream(source).read_all()
                except pa.ArrowInvalid:
                    table = pa.ipc.open_file(source).read_all()
        except (pa.ArrowException, OSError) as error:
            raise DataError(f"not an Arrow file: {error}", file=file) from None
        rows.extend(table.to_pylist())
    return rows
