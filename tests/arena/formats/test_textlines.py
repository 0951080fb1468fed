"""Line-aligned text files: splitting, empty lines, texts that cannot be one line."""

from __future__ import annotations

import os

import pytest

from arena.formats.textlines import check_line_text, iter_lines, read_lines, split_lines, write_lines
from arena.text_policy import LINE_BREAKS


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("a", ["a"]),
        ("a\n", ["a"]),
        ("a\nb", ["a", "b"]),
        ("a\r\nb\r\n", ["a", "b"]),
        ("a\n\nb\n", ["a", "", "b"]),
        ("a\n\n", ["a", ""]),
        ("a\u2028b\n", ["a\u2028b"]),  # only \n ends a line
    ],
)
def test_split_lines(text, lines):
    assert split_lines(text) == lines


def test_read_lines_refuses_empty_lines_unless_allowed(tmp_path):
    path = tmp_path / "f.de"
    path.write_text("eins\n\t\ndrei\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"f.de:2: empty line"):
        read_lines(path)
    assert read_lines(path, allow_empty=True) == ["eins", "\t", "drei"]


def test_line_breaks_are_exactly_those_of_splitlines():
    assert {chr(c) for c in range(0x110000) if len(f"a{chr(c)}b".splitlines()) == 2} == set(LINE_BREAKS)


@pytest.mark.parametrize("char", list(LINE_BREAKS))
def test_every_splitlines_break_is_refused(char):
    assert len(f"a{char}b".splitlines()) == 2  # the list is exactly what str.splitlines breaks at
    with pytest.raises(ValueError, match=rf"pair 3: text contains a line break \(U\+{ord(char):04X}\)"):
        check_line_text(f"a{char}b", "pair 3")


@pytest.mark.parametrize(("text", "allow_empty", "ok"), [("Haus", False, True), ("", False, False), (" ", False, False),
                                                         ("", True, True)])
def test_check_line_text_empty(text, allow_empty, ok):
    if ok:
        assert check_line_text(text, "x", allow_empty=allow_empty) == text
    else:
        with pytest.raises(ValueError, match="x: empty text"):
            check_line_text(text, "x", allow_empty=allow_empty)


def test_non_string_is_a_type_error():
    with pytest.raises(TypeError, match="x: expected a string, got int"):
        check_line_text(3, "x")


def test_write_lines_is_readable_and_not_private(tmp_path):
    path = tmp_path / "sub" / "f.en"
    write_lines(path, ["one", "two"])
    assert path.read_bytes() == b"one\ntwo\n"
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # as open() would make it, not mkstemp's 0o600
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".partial")]


@pytest.mark.parametrize("data, lines", [
    (b"a\nb\n", ["a", "b"]),
    (b"a\r\nb", ["a", "b"]),                       # CRLF, no final newline
    (b"a\rb\n", ["a\rb"]),                         # a lone CR is no line end
    (b"\xef\xbb\xbfDer Hund.\n", ["Der Hund."]),   # a leading BOM is dropped
    (b"a\n\xef\xbb\xbfb\n", ["a", "\ufeffb"]),     # ... only at the start of the stream
    (b"a\x0bb\xc2\x85c\n", ["a\x0bb\x85c"]),       # nor vertical tab or NEL
    (b"", []),
    (b"\n\n", ["", ""]),
])
def test_iter_lines(data, lines):
    import io

    assert list(iter_lines(io.BytesIO(data), "x")) == lines


@pytest.mark.parametrize("data, line, column", [
    (b"gr\xfc\xdf\n", 1, 3),                       # latin-1
    (b"ok\nok\n\xff\n", 3, 1),
    (b"ok\nabc\xe4", 2, 4),                        # cut in the middle of a character
])
def test_iter_lines_refuses_bytes_that_are_not_utf8_naming_the_line(data, line, column):
    import io

    from arena.errors import DataError

    with pytest.raises(DataError) as error:
        list(iter_lines(io.BytesIO(data), "input.de"))
    assert error.value.file == "input.de" and error.value.line == line and f"column {column}" in str(error.value)
