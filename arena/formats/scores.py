"""Score files: one number per line, as external scorers write them.

Both reference tools read a plain list of floats and trust its length; a file with
too few or too many lines silently misaligns every score after the first gap (or
crashes on an empty line).  :func:`parse_scores` checks the count up front and
names the file and line of anything that is not a number.
"""

from __future__ import annotations

import sys
from pathlib import Path

from arena.errors import DataError
from arena.formats.textlines import split_lines
from arena.specs.yamlio import read_text

STDIN = "-"


def decode_utf8(data: bytes, name: str) -> str:
    """Decode UTF-8; a wrong encoding is a ``ValueError`` naming ``name`` and the line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DataError(
            f"{name}:{line}: not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None


def read_score_text(source: str | Path) -> tuple[str, str]:
    """The text of a scores file and the name to use in messages; ``"-"`` reads stdin."""
    if str(source) == STDIN:
        return decode_utf8(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    return read_text(source), str(source)


def parse_score(line: str, where: str) -> float:
    """One score; ``ValueError`` naming ``where`` for an empty line or a non-number."""
    text = line.strip()
    if not text:
        raise DataError(f"{where}: empty line; expected a score")
    if "_" in text:  # float() would accept "1_000"; no scorer writes that
        raise DataError(f"{where}: not a number: {line!r}")
    try:
        return float(text)
    except ValueError:
        raise DataError(f"{where}: not a number: {line!r}") from None


def parse_scores(text: str, name: str, expected: int, layout: str) -> list[float]:
    """Parse a scores file that must hold exactly ``expected`` numbers.

    ``layout`` says what the lines must be (for the count error), e.g. ``"one per
    reference and contrastive translation, in json_to_plaintext.py order"``.
    """
    lines = split_lines(text)
    if len(lines) != expected:
        problem = "too few" if len(lines) < expected else "too many"
        detail = ""
        if len(lines) > expected and not any(line.strip() for line in lines[expected:]):
            detail = f"; lines {expected + 1}-{len(lines)} are empty"
        raise DataError(f"{name}: {problem} scores: {len(lines)} lines, expected {expected} ({layout}){detail}")
    return [parse_score(line, f"{name}:{number}") for number, line in enumerate(lines, start=1)]


def read_scores(source: str | Path, expected: int, layout: str) -> list[float]:
    """Read and parse a scores file (``"-"`` for stdin); see :func:`parse_scores`."""
    text, name = read_score_text(source)
    return parse_scores(text, name, expected, layout)

