"""Line-aligned text files (one sentence per line), read and written strictly.

Files are UTF-8.  A line ends at ``\\n`` (a ``\\r\\n`` ending is accepted and the
``\\r`` dropped; a lone ``\\r`` is no line end); a final line without a newline still
counts; a byte-order mark at the start of the file is dropped.  Files and streams
(:func:`iter_lines`, stdin) are read by these rules alike, and a line that is not
UTF-8 is an error naming the file and line (:mod:`arena.specs.yamlio`).  Texts written to such
files must not contain any character that a reader might take as a line break:
Python's ``str.splitlines`` — which DistilLingEval's evaluation script uses — also
breaks at vertical tab, form feed, the file/group/record separators, NEL and the
Unicode line and paragraph separators, so a text holding one of those would shift
every later line for that reader.  :func:`check_line_text` refuses them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from arena.errors import DataError
from arena.specs.yamlio import BOM, read_text
from arena.text_policy import LINE_BREAK, text_problem


def split_lines(text: str) -> list[str]:
    """Split file content into lines at ``\\n`` (dropping the ``\\r`` of ``\\r\\n``)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def iter_lines(handle: Iterable[bytes], name: str) -> Iterator[str]:
    """The lines of a binary stream (a file opened ``rb``, ``sys.stdin.buffer``) by the
    rules of this module, one at a time; ``name`` is what errors call the stream."""
    for number, raw in enumerate(handle, start=1):
        if raw.endswith(b"\n"):
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DataError(f"not valid UTF-8 (byte 0x{raw[error.start]:02x} at column {error.start + 1}); convert "
                            "the input to UTF-8, e.g. with iconv -f latin1 -t utf-8", file=name, line=number) from None
        yield line[1:] if number == 1 and line.startswith(BOM) else line


def read_lines(path: str | Path, allow_empty: bool = False) -> list[str]:
    """The lines of a UTF-8 text file.

    A wrong encoding is a ``ValueError`` naming file and line (:func:`arena.specs.yamlio.read_text`);
    so is an empty (or whitespace-only) line unless ``allow_empty``, and a line the text policy
    refuses (:func:`arena.text_policy.text_problem`: control characters, unpaired surrogates,
    bidi overrides, only invisible characters, too long; WMT's cp1252 C1 mojibake is accepted).
    """
    lines = split_lines(read_text(path))
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            if not allow_empty:
                raise DataError(f"{path}:{number}: empty line; every line must hold one sentence")
            continue
        problem = text_problem(line, allow_tab=True, one_line=False)  # the line is split already
        if problem is not None:
            raise DataError(f"the line {problem}", file=path, line=number)
    return lines


def empty_lines(lines: Sequence[str]) -> list[int]:
    """1-based numbers of the empty (or whitespace-only) lines."""
    return [number for number, line in enumerate(lines, start=1) if not line.strip()]


def has_line_break(text: str) -> bool:
    """Whether ``text`` holds a character that ``str.splitlines`` breaks at."""
    return LINE_BREAK.search(text) is not None


def check_line_text(text: object, where: str, allow_empty: bool = False) -> str:
    """Return ``text`` if it can be written as one line; else raise ``ValueError``
    (``TypeError`` for a non-string) naming ``where``."""
    if not isinstance(text, str):
        raise TypeError(f"{where}: expected a string, got {type(text).__name__}")
    match = LINE_BREAK.search(text)
    if match:
        raise DataError(
            f"{where}: text contains a line break (U+{ord(match.group()):04X}) and cannot be written as one line"
        )
    if not allow_empty and not text.strip():
        raise DataError(f"{where}: empty text cannot be written as a line")
    return text


def write_lines(path: str | Path, lines: Iterable[str]) -> None:
    """Write lines (each already checked) as UTF-8 with ``\\n`` endings, atomically."""
    write_text_atomic(Path(path), "".join(f"{line}\n" for line in lines))


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and a rename."""
    from arena.record.transcripts import atomic_write_text

    atomic_write_text(Path(path), text)
