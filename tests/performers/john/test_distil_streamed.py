"""The DistilLingEval John streams its directory (two passes, no line kept) and yields exactly
the instances of the in-memory reader; irregular files are named by the in-memory reader."""

from __future__ import annotations

import pytest

from arena.errors import ArenaError
from performers.john.distil_lingeval import DistilLingEvalJohn
from tests.conftest import require_shared

FILES = ("src.en", "tgt.correct.de", "tgt.incorrect.de")


def write(directory, rows, raw: dict[str, bytes] | None = None):
    directory.mkdir(parents=True)
    for position, name in enumerate(FILES):
        text = "".join(f"{row[position]}\n" for row in rows).encode("utf-8")
        directory.joinpath(name).write_bytes((raw or {}).get(name, text))
    return directory


def both(john: DistilLingEvalJohn):
    return list(john.instances()), list(john._grouped_in_memory())


@pytest.mark.parametrize("name", ["placeholder_ding.human", "hypercorrect_genitive.human", "np_agreement.mt",
                                  "clause_omission.mt"])
@pytest.mark.parametrize("limit", [None, 7])
def test_the_shared_sets_stream_to_the_same_instances(distil_dir, name, limit):
    directory = require_shared(distil_dir / name)
    streamed, in_memory = both(DistilLingEvalJohn(str(directory), limit=limit, skip_empty=True))
    assert streamed == in_memory and streamed


ROWS = [("a", "A", "x1"), ("b", "B", "y1"), ("a", "A", "x2"), ("c", "C", "z1"), ("b", "B", "y2"), ("a", "A", "x3")]


@pytest.mark.parametrize("rows, limit", [
    (ROWS, None),  # groups whose lines are far apart: each yielded once its last line is in, in first-line order
    (ROWS, 1),
    (ROWS, 2),
    ([("a", "A", "x"), ("a", "B", "y"), ("b", "A", "z")], None),  # same source or same reference: not a group
    ([("a", " ", "x"), ("b", "B", "y")], None),  # an empty side, skipped
])
def test_small_sets_stream_to_the_same_instances(tmp_path, rows, limit):
    streamed, in_memory = both(DistilLingEvalJohn(str(write(tmp_path / "t.human", rows)), limit=limit, skip_empty=True))
    assert streamed == in_memory


@pytest.mark.parametrize("raw", [
    {"src.en": b"a\nb\n"},  # one file shorter
    {"tgt.correct.de": b"A\n\xff\nC\n"},  # not UTF-8
    {"tgt.incorrect.de": b"x\n\ny\n"},  # an empty line without skip_empty
])
def test_irregular_files_are_named_by_the_in_memory_reader(tmp_path, raw):
    directory = write(tmp_path / "t.human", [("a", "A", "x"), ("b", "B", "y"), ("c", "C", "z")], raw)
    john = DistilLingEvalJohn(str(directory))
    with pytest.raises(ArenaError) as streamed:
        list(john.instances())
    with pytest.raises(ArenaError) as in_memory:
        list(john._grouped_in_memory())
    assert str(streamed.value) == str(in_memory.value)
