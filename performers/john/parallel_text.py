"""``parallel-text`` John: line-aligned source and reference files.

Ids are ``<origin>.<line>`` with 1-based line numbers (``newstest2009.17``), as
LingEval97's ``origin`` field; ``origin`` defaults to the source file's stem.  Files must
be UTF-8 with the same number of lines and no empty line (``skip_empty=True`` skips
empty pairs instead, and counts them in the log).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from arena.sdk import DataError, ExistingFile, Instance, PositiveInt, read_lines, take

logger = logging.getLogger(__name__)


def read_aligned(source: str | Path, reference: str | Path, allow_empty: bool = False) -> tuple[list[str], list[str]]:
    """Read two line-aligned files; a different line count is an error naming both."""
    sources = read_lines(source, allow_empty=allow_empty)
    references = read_lines(reference, allow_empty=allow_empty)
    if len(sources) != len(references):
        raise DataError(
            f"{source} has {len(sources)} lines but {reference} has {len(references)}; "
            "the files must be line-aligned"
        )
    return sources, references


class ParallelTextJohn:
    """Yields one :class:`Instance` per line pair, in file order.

    Params: ``source`` (the source file), ``reference`` (the line-aligned reference
    file), ``origin``, ``reference_kind`` (``human`` or ``machine``), ``skip_empty``,
    ``limit`` (at most this many instances), ``meta`` (metadata added to every
    instance)."""

    version = "1"

    def __init__(
        self,
        source: ExistingFile,
        reference: ExistingFile,
        origin: str | None = None,
        reference_kind: Literal["human", "machine"] = "human",
        skip_empty: bool = False,
        limit: PositiveInt | None = None,
        meta: dict[str, Any] | None = None,
    ):
        self.source = Path(source)
        self.reference = Path(reference)
        self.origin = origin or self.source.stem
        self.reference_kind = reference_kind
        self.skip_empty = skip_empty
        self.limit = limit
        self.meta = dict(meta or {})

    def instances(self) -> Iterator[Instance]:
        sources, references = read_aligned(self.source, self.reference, allow_empty=self.skip_empty)
        skipped = []

        def both_sides() -> Iterator[tuple[int, str, str]]:
            for number, (source, reference) in enumerate(zip(sources, references), start=1):
                if source.strip() and reference.strip():
                    yield number, source.strip(), reference.strip()
                else:
                    skipped.append(number)

        for number, source, reference in take(both_sides(), self.limit):
            meta = {"origin": self.origin, "line": number, "reference_kind": self.reference_kind, **self.meta}
            yield Instance(f"{self.origin}.{number}", source, reference, meta)
        if skipped:
            logger.warning("%s: skipped %d line pairs with an empty side", self.source, len(skipped))
