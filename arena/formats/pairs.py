"""A user's own minimal pairs: one row per pair, from a file, a DataFrame or dicts.

Every row has three texts, ``source`` (English), ``correct`` and ``incorrect``
(German); every other column is metadata (``john.<column>`` in ``breakdowns:``).
An ``id`` column, when present, names the pairs (ids must be unique); otherwise a
pair is ``<file stem>.<line>``.  Column names can be mapped: ``{"source": "src"}``
or, on the command line, ``--columns source=src,correct=good,incorrect=bad``.

A ``phenomenon`` column labels each pair (per-phenomenon tables in ``arena cues``, the
variant's label in a run); map it too: ``--columns phenomenon=category``.

Formats, by the path's suffix:

- ``.tsv`` / ``.csv``: tab- or comma-separated with a header line, RFC 4180 quoting as
  pandas' ``to_csv`` writes it (:mod:`arena.formats.delimited`: a field holding the
  delimiter, a ``"`` or a line break is quoted, its ``"`` doubled; a ``"`` inside an
  unquoted field is a character);
- ``.jsonl`` / ``.ndjson``: one JSON object per line, bounded
  (:func:`arena.specs.yamlio.iter_jsonl`);
- ``.parquet``: a Parquet table;
- a directory: a Hugging Face ``datasets`` directory (``save_to_disk``), read with
  ``datasets.load_from_disk`` where that package is installed, otherwise its Arrow
  files with pyarrow (the layout is the same).

A bad file is a :class:`~arena.errors.DataError` naming the file, the line (the row
for Parquet and Arrow, counting from 1) and the column; so is a text the text policy
refuses (:func:`arena.text_policy.text_problem`: control characters, unpaired surrogates,
bidi overrides, only invisible characters, too long; a line break or tab inside a quoted
field is kept).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import DataError, UsageError
from arena.formats.tables import FORMATS, Rows, format_of
from arena.specs.yamlio import load_json
from arena.text_policy import text_problem

TEXT_COLUMNS = ("source", "correct", "incorrect")
ID_COLUMN = "id"
PHENOMENON_COLUMN = "phenomenon"  # the one metadata column arena gives a meaning to


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
    keys must be ``source``, ``correct``, ``incorrect``, ``id`` or ``phenomenon``."""
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
    allowed = (*TEXT_COLUMNS, ID_COLUMN, PHENOMENON_COLUMN)
    for name in mapping:
        if name not in allowed:
            raise UsageError(f"{name!r} is not one of {', '.join(allowed)}", key=where)
    columns: dict[str, str] = {}
    for name in allowed:  # a column read as two things would score a text against itself
        column = mapping.get(name, name)
        if column in columns:
            raise UsageError(f"{columns[column]} and {name} would both be read from column {column!r}", key=where,
                             hint="map each of source, correct, incorrect (and id, phenomenon) to its own column")
        columns[column] = name
    return mapping


def pair_format(path: Path) -> str:
    """The format of ``path``: ``tsv``, ``csv``, ``jsonl``, ``parquet`` (:mod:`arena.formats.tables`)
    or ``hf-datasets``."""
    if path.is_dir():
        return "hf-datasets"
    return format_of(path, file=path, or_else=", or give a datasets directory")


def read_pairs(path: str | Path, columns: str | Mapping[str, str] | None = None) -> list[OwnPair]:
    """The pairs of a TSV, CSV, JSONL, Parquet file or a Hugging Face datasets directory."""
    path = Path(path)
    if not path.exists():
        raise DataError("no such file or directory", file=path)
    mapping = parse_columns(columns)
    kind = pair_format(path)
    rows: Rows = (enumerate(_datasets_table(path), 1) if kind == "hf-datasets" else FORMATS[kind].read(path))
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
    mapped = [wanted[name] for name in (*TEXT_COLUMNS, ID_COLUMN) if name in mapping or name in TEXT_COLUMNS]
    if PHENOMENON_COLUMN in mapping:
        mapped.append(mapping[PHENOMENON_COLUMN])
    meta_key = meta_naming(mapping)
    pairs: list[OwnPair] = []
    seen: dict[str, int] = {}
    for line, row in rows:
        where = {"file": file, "line": line} if unit == "line" else {"file": file}
        at = "" if unit == "line" else f"row {line}: "
        if not isinstance(row, Mapping):
            raise DataError(f"{at}expected an object with columns, got {type(row).__name__}", **where)
        for column in mapped:
            if column not in row:
                raise DataError(f"{at}no column {column!r} (columns: {', '.join(map(str, row)) or 'none'})",
                                key=column, hint="map yours with --columns source=COL,correct=COL,incorrect=COL"
                                if column not in mapping.values() else None, **where)
        texts = {name: _text(row[wanted[name]], wanted[name], at, where) for name in TEXT_COLUMNS}
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
            name = meta_key(key)  # a header or JSON key (a DataFrame's column name as given)
            if name is not None:
                meta[name] = _plain(item)
        pairs.append(OwnPair(pair_id, texts["source"], texts["correct"], texts["incorrect"], meta, line))
    if not pairs:
        raise DataError("no pairs: the file has a header but no rows" if unit == "line" else "no pairs", file=file)
    return pairs


def meta_naming(mapping: Mapping[str, str]) -> Any:
    """``column -> metadata key`` (``None``: the column is a text or the id, not metadata) under a
    ``--columns`` mapping: a column mapped to ``phenomenon`` is the ``phenomenon`` key (and a
    column named ``phenomenon`` then is not)."""
    wanted = {name: mapping.get(name, name) for name in (*TEXT_COLUMNS, ID_COLUMN)}
    renamed = {column: name for name, column in wanted.items()}
    dropped: set[str] = set()
    if PHENOMENON_COLUMN in mapping:
        renamed[mapping[PHENOMENON_COLUMN]] = PHENOMENON_COLUMN
        dropped.add(PHENOMENON_COLUMN)

    def key(column: Any) -> str | None:
        name = renamed.get(column, column)
        return None if name in wanted or column in dropped else name

    return key


def column_names(path: str | Path) -> set[str] | None:
    """The columns of a pairs file without reading its pairs (every row's keys, for JSONL);
    ``None`` for a datasets directory."""
    path = Path(path)
    kind = pair_format(path)
    if kind in ("tsv", "csv"):
        first = next(iter(FORMATS[kind].read(path)), None)
        return set(first[1]) if first is not None else set()
    if kind == "jsonl":
        return {str(key) for _, row in FORMATS[kind].read(path) if isinstance(row, Mapping) for key in row}
    if kind == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            return set(pq.read_schema(path).names)
        except (pa.ArrowException, OSError) as error:
            raise DataError(f"not a Parquet file: {error}", file=path) from None
    return None


def _text(value: Any, column: str, at: str, where: Mapping[str, Any]) -> str:
    """A text column's value, checked by the text policy (a tab or line break is kept: a quoted
    field and a JSON string can hold one)."""
    if not isinstance(value, str):
        raise DataError(f"{at}{column!r} is {type(value).__name__} {value!r}, not a text", key=column, **where)
    if not value.strip():
        raise DataError(f"{at}{column!r} is empty", key=column, **where)
    problem = text_problem(value, allow_tab=True, one_line=False)
    if problem is not None:
        raise DataError(f"{at}{column!r} {problem}", key=column, **where)
    return value


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
            names = [item["filename"] for item in load_json(state)["_data_files"]]
        except (ValueError, KeyError, TypeError) as error:
            raise DataError(f"unreadable datasets state: {error}", file=state) from None
    elif (path / "dataset_dict.json").is_file():
        described = load_json(path / "dataset_dict.json")
        splits = [str(s) for s in described.get("splits", [])] if isinstance(described, dict) else []
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
