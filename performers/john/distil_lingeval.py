"""``distil-lingeval`` John: a DistilLingEval contrastive test set directory.

The directory holds line-aligned ``src.en``, ``tgt.correct.de`` and
``tgt.incorrect.de`` (Vamvas & Sennrich 2021); its name is ``<error_type>.<human|mt>``.
Each line becomes an instance whose reference is the correct translation and whose
``meta["variants"]`` holds the published incorrect one (played by the ``replay``
Zellig).  Several lines may share a source and reference with different incorrect
variants; they are merged into one instance with several variants, so the arena's
per-instance sampling and bootstrap see the test set's real structure.

Ids are ``<set>.<line>`` of the first line of each (source, reference) group.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from arena.formats.textlines import read_lines
from arena.records import Instance

FILES = ("src.en", "tgt.correct.de", "tgt.incorrect.de")


def read_testset(directory: str | Path) -> tuple[list[str], list[str], list[str]]:
    """The three aligned columns of a DistilLingEval directory (errors name file and line)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise ValueError(f"{directory}: not a directory (expected {', '.join(FILES)} inside)")
    columns = [read_lines(directory / name) for name in FILES]
    counts = {name: len(column) for name, column in zip(FILES, columns)}
    if len(set(counts.values())) != 1:
        detail = ", ".join(f"{name}: {count}" for name, count in counts.items())
        raise ValueError(f"{directory}: the files are not line-aligned ({detail} lines)")
    return columns[0], columns[1], columns[2]


class DistilLingEvalJohn:
    """Yields the test set's (source, correct reference) groups with their variants."""

    version = "1"

    def __init__(self, dir: str, phenomenon: str | None = None, limit: int | None = None):
        self.directory = Path(dir)
        name = self.directory.name
        self.error_type, _, kind = name.partition(".")
        self.phenomenon = phenomenon or self.error_type
        self.reference_kind = {"human": "human", "mt": "machine"}.get(kind, "unknown")
        if limit is not None and (not isinstance(limit, int) or limit < 1):
            raise ValueError(f"limit must be a positive integer, not {limit!r}")
        self.limit = limit

    def instances(self) -> Iterator[Instance]:
        sources, corrects, incorrects = read_testset(self.directory)
        groups: dict[tuple[str, str], list[int]] = {}
        for index, key in enumerate(zip(sources, corrects)):
            groups.setdefault(key, []).append(index)
        name = self.directory.name
        for count, ((source, correct), indices) in enumerate(groups.items()):
            if self.limit is not None and count >= self.limit:
                break
            variants = [
                {"text": incorrects[i], "phenomenon": self.phenomenon, "meta": {"line": i + 1}}
                for i in indices
            ]
            meta = {
                "origin": name,
                "line": indices[0] + 1,
                "lines": [i + 1 for i in indices],
                "reference_kind": self.reference_kind,
                "error_type": self.error_type,
                "variants": variants,
            }
            yield Instance(f"{name}.{indices[0] + 1}", source, correct, meta)
