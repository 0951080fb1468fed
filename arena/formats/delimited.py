"""Delimited tables (TSV, CSV), read and written one way: RFC 4180.

Every table arena reads or writes with a header line and one row per record (own pairs,
score tables of ``arena score-pairs``) goes through this module.  TSV is CSV with a tab
as the delimiter, the way pandas (``to_csv(sep="\\t")``), spreadsheets and the ``csv``
module write it:

- a field holding the delimiter, a ``"`` or a line break is written in double quotes,
  a ``"`` inside doubled (``"Er sagte ""ja""."``); such a field may span lines;
- a ``"`` inside an unquoted field is a character (``5" Diskette``);
- an unquoted field that *starts* with ``"`` but does not end its quotes before the
  next delimiter (``"Ja" sagte er``) is ambiguous (pandas would have quoted it) and is a
  :class:`~arena.errors.DataError` naming the file and line, never a silently changed
  text; so is an unterminated quote;
- blank lines between records are skipped; a row with more or fewer fields than the
  header is an error naming the line and the column.

Line formats that are defined as one raw sentence per line (DistilLingEval's files,
newstest) are not tables and are read by :mod:`arena.formats.textlines`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from arena.errors import DataError

DELIMITERS = {"tsv": "\t", "csv": ","}


def _dialect(delimiter: str) -> dict[str, Any]:
    return {"delimiter": delimiter, "quotechar": '"', "doublequote": True, "strict": True,
            "quoting": csv.QUOTE_MINIMAL}


def delimited_rows(text: str, delimiter: str, file: str | Path) -> Iterator[tuple[int, dict[str, str]]]:
    """``(line, row)`` for each record of ``text`` (a header line first); ``line`` is the
    1-based line on which the record starts."""
    reader = csv.reader(io.StringIO(text, newline="\n"), **_dialect(delimiter))  # lines end at \n only
    header: list[str] | None = None
    start = 1
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            raise DataError(f"not valid {'TSV' if delimiter == chr(9) else 'CSV'} (RFC 4180 quoting): {error}",
                            file=file, line=start, hint=_hint(str(error))) from None
        line, start = start, reader.line_num + 1
        if header is None:
            header = _header(fields, file)
            continue
        if not fields or fields == [""]:
            continue  # a blank line
        if len(fields) != len(header):
            column = header[len(fields)] if len(fields) < len(header) else f"field {len(fields)}"
            raise DataError(f"{len(fields)} fields, but the header has {len(header)}", file=file, line=line,
                            key=column, hint="a delimiter or line break inside an unquoted text? quote the field")
        yield line, dict(zip(header, fields))
    if header is None:
        raise DataError("empty file (no header line)", file=file, line=1)


def _hint(error: str) -> str:
    if "new-line" in error:
        return "a carriage return (\\r) inside an unquoted field: quote the field"
    return 'a field that starts with " is quoted whole, its " doubled: """Ja"" sagte er"'


def _header(fields: list[str], file: str | Path) -> list[str]:
    header = [name.strip() for name in fields]
    duplicates = sorted({n for n in header if header.count(n) > 1})
    if duplicates:
        raise DataError(f"column {duplicates[0]!r} appears twice in the header", file=file, line=1,
                        key=duplicates[0])
    return header


def delimited_text(columns: Sequence[str], rows: Sequence[Sequence[str]], delimiter: str) -> str:
    """A header and ``rows`` as RFC 4180 text with ``\\n`` line ends (what
    :func:`delimited_rows` reads back field for field)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", **_dialect(delimiter))
    # the csv module quotes a field holding "\n" but not one holding a lone "\r", which a reader
    # takes as a line end: such a row is written with every field quoted
    quoted = csv.writer(buffer, lineterminator="\n", **{**_dialect(delimiter), "quoting": csv.QUOTE_ALL})
    for row in [columns, *rows]:
        (quoted if any("\r" in field for field in row) else writer).writerow(row)
    return buffer.getvalue()
