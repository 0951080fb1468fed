"""The transcripts' line reader and digests: a damaged line named by file and line (never decoded in
another encoding), blank lines skipped, and the 64-bit digest the same bytes however its parts come."""

from __future__ import annotations

import hashlib

import pytest

from arena.errors import DataError
from arena.record.scan import iter_lines, key_hash


@pytest.mark.parametrize("line, problem", [
    (b'{"b": "Gr\xf6\xdfe"}\n', "not valid UTF-8"),  # latin-1
    ('{"b": 1}\n'.encode("utf-16"), "not valid UTF-8"),  # another encoding is not guessed
    (b'{"b": \n', "malformed JSON line"),
    (b'[1, 2]\n', "holds a JSON object, not list"),
    (b'{"b": 1}', "the last line is cut off"),
], ids=["latin-1", "utf-16", "malformed", "not-an-object", "cut"])
def test_a_damaged_line_is_named_by_file_and_line(tmp_path, line, problem):
    path = tmp_path / "rounds.jsonl"
    path.write_bytes(b'{"a": "\xc3\xbc"}\n  \n' + line)
    with pytest.raises(DataError, match=problem) as raised:
        list(iter_lines(path))
    assert raised.value.file is not None and str(path) in str(raised.value.file) and raised.value.line == 3


def test_lines_come_with_their_numbers_and_byte_offsets_blank_lines_skipped(tmp_path):
    path = tmp_path / "rounds.jsonl"
    path.write_bytes(b'{"a": "\xc3\xbc"}\n\n \t\n{"b": [1, 2.5, null]}\r\n')
    assert list(iter_lines(path)) == [(1, {"a": "ü"}, 0), (4, {"b": [1, 2.5, None]}, 16)]
    assert list(iter_lines(tmp_path / "missing.jsonl")) == []


def _hashed_in_turn(*parts):
    digest = hashlib.blake2b(digest_size=8)
    for part in parts:
        digest.update((part if isinstance(part, str) else "\x01" + repr(part)).encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return int.from_bytes(digest.digest(), "little")


@pytest.mark.parametrize("parts", [("",), ("1|john|replay|id.1|0",), ("\ud800",), ("\ud800", "\udc00"), ("a", "b"),
                                   ("ab",), (1,), (None, "x"), ((1, 2),), ("ü", 3.5), ()])
def test_key_hash_is_each_part_and_a_nul_hashed_in_turn(parts):
    assert key_hash(*parts) == _hashed_in_turn(*parts)


def test_key_hash_parts_are_nul_separated_strings():
    assert len({key_hash("a", "b"), key_hash("ab"), key_hash("a\x00b"), key_hash("b", "a"), key_hash("1"),
                key_hash(1)}) == 5  # "a", "b" is "a\0b": the parts are NUL-separated strings
