"""Character-span edits: apply them, derive them, build variants from them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena.records import Edit, Instance, Variant


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping ``edits`` (offsets into ``text``) and return the result.

    Raises ``ValueError`` when an edit's ``before`` does not match ``text`` at its
    span, or when edits overlap.
    """
    ordered = sorted(edits, key=lambda edit: (edit.start, edit.end))
    pieces: list[str] = []
    cursor = 0
    for edit in ordered:
        if edit.start < cursor:
            raise ValueError(f"overlapping edits at character {edit.start}")
        if not 0 <= edit.start <= edit.end <= len(text):
            raise ValueError(f"edit span {edit.start}:{edit.end} outside a text of {len(text)} characters")
        if text[edit.start : edit.end] != edit.before:
            raise ValueError(
                f"edit {edit.start}:{edit.end} expects {edit.before!r} but the text has "
                f"{text[edit.start:edit.end]!r}"
            )
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.after)
        cursor = edit.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def diff_edits(before: str, after: str) -> tuple[Edit, ...]:
    """The character edits that turn ``before`` into ``after`` (an optimal Levenshtein
    alignment, computed in C++ by :mod:`rapidfuzz`), widened to whole words so that they
    read naturally (``der`` → ``des``, not ``r`` → ``s``).  A pure insertion or deletion
    that could sit at several places (``a b a`` → ``a``) sits where its widened edit is
    smallest (then starts with a space, then is rightmost).  Applying the edits to ``before`` gives ``after``
    exactly.  (Before edits version 2 the alignment was difflib's; docs/exports.md lists
    the differences.)"""
    from rapidfuzz.distance import Levenshtein

    opcodes = [(o.tag, o.src_start, o.src_end, o.dest_start, o.dest_end) for o in Levenshtein.opcodes(before, after)]
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag in ("insert", "delete"):
            opcodes[index] = _best_place(before, after, i1, i2, j1, j2)
    return widened(before, after, opcodes)


def _best_place(before: str, after: str, i1: int, i2: int, j1: int, j2: int) -> tuple[str, int, int, int, int]:
    """A pure deletion (``before[i1:i2]``) or insertion (``after[j1:j2]``) moved along the
    unchanged text around it to where its widened edit is smallest (among those, one that
    starts with a space, then the rightmost)."""
    text, start, end = (before, i1, i2) if i2 > i1 else (after, j1, j2)
    other, at = (after, j1) if i2 > i1 else (before, i1)
    left = 0  # how far it may move left: the characters before it repeat at its end
    while start - left > 0 and at - left > 0 and text[start - left - 1] == text[end - left - 1] \
            and text[start - left - 1] == other[at - left - 1]:
        left += 1
    right = 0
    while end + right < len(text) and at + right < len(other) and text[start + right] == text[end + right] \
            and text[end + right] == other[at + right]:
        right += 1
    best: tuple[tuple[int, bool, int], tuple[str, int, int, int, int]] | None = None
    for shift in range(-left, right + 1):
        tag = "delete" if i2 > i1 else "insert"
        place = (tag, i1 + shift, i2 + shift, j1 + shift, j2 + shift)
        (edit,) = widened(before, after, [place])
        # smallest first; among those, one that starts at a space (" nicht", not "nicht "), then the rightmost
        key = (len(edit.before) + len(edit.after), not text[start + shift].isspace(), -shift)
        if best is None or key < best[0]:
            best = (key, place)
    assert best is not None
    return best[1]


def widened(before: str, after: str, opcodes: Iterable[tuple[str, int, int, int, int]]) -> tuple[Edit, ...]:
    """The edits of an alignment (``(tag, i1, i2, j1, j2)`` opcodes, as difflib and rapidfuzz
    give them), each widened to the word characters around it and merged with its
    neighbours where they then meet."""
    spans: list[list[int]] = []  # [i1, i2, j1, j2]
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        # neighbouring text is an unchanged block, so both sides move in step
        while i1 > 0 and j1 > 0 and before[i1 - 1].isalnum() and before[i1 - 1] == after[j1 - 1]:
            i1, j1 = i1 - 1, j1 - 1
        while i2 < len(before) and j2 < len(after) and before[i2].isalnum() and before[i2] == after[j2]:
            i2, j2 = i2 + 1, j2 + 1
        if spans and i1 <= spans[-1][1]:
            spans[-1][1], spans[-1][3] = max(spans[-1][1], i2), max(spans[-1][3], j2)
        else:
            spans.append([i1, i2, j1, j2])
    return tuple(Edit(i1, i2, before[i1:i2], after[j1:j2]) for i1, i2, j1, j2 in spans)


def shared_affixes(a: Sequence[Any], b: Sequence[Any]) -> tuple[int, int]:
    """How many items ``a`` and ``b`` share at the front and, after those, at the back:
    the edit between two token sequences is ``a[start:len(a) - end]`` → ``b[start:len(b) - end]``."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    return start, end


def make_variant(
    instance: Instance,
    edits: Iterable[Edit],
    phenomenon: str,
    meta: Mapping[str, Any] | None = None,
) -> Variant:
    """Build a :class:`Variant` of ``instance`` from edits of its reference."""
    edits = tuple(sorted(edits, key=lambda edit: edit.start))
    return Variant(instance.id, apply_edits(instance.reference, edits), phenomenon, edits, dict(meta or {}))


def variant_from_text(
    instance: Instance, text: str, phenomenon: str, meta: Mapping[str, Any] | None = None
) -> Variant:
    """Build a :class:`Variant` from a finished corrupted text, deriving its edits."""
    return Variant(instance.id, text, phenomenon, diff_edits(instance.reference, text), dict(meta or {}))
