"""Write a table of scored pairs (``arena score-pairs --pairs``): TSV, CSV, JSONL or Parquet.

The format comes from the output's suffix.  List values (per-token pieces and
log-probabilities) are JSON arrays inside TSV and CSV cells, lists in JSONL and Parquet.
TSV and CSV are written with RFC 4180 quoting (:mod:`arena.formats.delimited`), as
pandas writes and :mod:`arena.formats.pairs` reads them: a text holding a tab, a ``"``
or a line break is kept exactly, in quotes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.errors import UsageError
from arena.formats.delimited import DELIMITERS
from arena.formats.delimited import delimited_text as write_delimited

TABLE_SUFFIXES = {".tsv": "tsv", ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}


def table_format(path: Path) -> str:
    """``tsv``, ``csv``, ``jsonl`` or ``parquet`` from ``path``'s suffix."""
    kind = TABLE_SUFFIXES.get(Path(path).suffix.lower())
    if kind is None:
        raise UsageError(f"cannot tell the table format of {Path(path).name!r}", key="--out",
                         hint="end it in .tsv, .csv, .jsonl or .parquet ('-' writes TSV to stdout)")
    return kind


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    return list(dict.fromkeys(key for row in rows for key in row))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def delimited_text(rows: Sequence[Mapping[str, Any]], kind: str) -> str:
    """The rows as TSV or CSV text with a header line."""
    columns = _columns(rows)
    return write_delimited(columns, [[_cell(row.get(c)) for c in columns] for row in rows], DELIMITERS[kind])


def write_table(rows: Sequence[Mapping[str, Any]], out: Path | None, kind: str) -> None:
    """Write ``rows`` to ``out`` (``None``: stdout) as ``kind``, atomically."""
    from arena.formats.textlines import write_text_atomic

    if kind == "parquet":
        import pandas as pd

        assert out is not None
        temporary = out.with_name(f".{out.name}.tmp")
        pd.DataFrame(list(rows)).to_parquet(temporary, index=False)
        temporary.replace(out)
        return
    if kind == "jsonl":
        text = "".join(json.dumps(dict(row), ensure_ascii=False) + "\n" for row in rows)
    else:
        text = delimited_text(rows, kind)
    if out is None:  # a terminal, perhaps: text from data shown visibly (the same JSON)
        from arena.text_policy import json_visible, visible_lines

        sys.stdout.write(json_visible(text) if kind == "jsonl" else visible_lines(text))
    else:
        write_text_atomic(out, text)
