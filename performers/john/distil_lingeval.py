"""``distil-lingeval`` John: a DistilLingEval contrastive test set directory.

The directory holds line-aligned ``src.en``, ``tgt.correct.de`` and
``tgt.incorrect.de`` (Vamvas & Sennrich 2021); its name is ``<error_type>.<human|mt>``.
Each line becomes an instance whose reference is the correct translation and whose
``meta["variants"]`` holds the published incorrect one (played by the ``replay``
Zellig).  Several lines may share a source and reference with different incorrect
variants; they are merged into one instance with several variants, so the arena's
per-instance sampling and bootstrap see the test set's real structure.

Ids are ``<set>.<line>`` of the first line of each (source, reference) group.  The
published sets have a few empty lines (e.g. an empty source in hypercorrect_genitive.human);
they are errors unless ``skip_empty=True``, which skips and counts them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

from arena.errors import ConfigError
from arena.formats.distil_lingeval import FILES, read_distil_lingeval
from arena.records import Instance
from arena.specs.typecheck import MustExist, PositiveInt

logger = logging.getLogger(__name__)


class DistilLingEvalJohn:
    """Yields the test set's (source, correct reference) groups with their variants.

    Params: ``dir`` (the test set directory, named ``<error_type>.<human|mt>``),
    ``phenomenon`` (the label of its variants; default: the error type of the directory
    name), ``limit`` (at most this many instances), ``skip_empty``.
    """

    version = "1"

    def __init__(
        self,
        dir: Annotated[str, MustExist("directory", contains=FILES)],
        phenomenon: str | None = None,
        limit: PositiveInt | None = None,
        skip_empty: bool = False,
    ):
        self.directory = Path(dir)
        name = self.directory.name
        self.error_type, _, kind = name.partition(".")
        self.phenomenon = phenomenon or self.error_type
        self.reference_kind = {"human": "human", "mt": "machine"}.get(kind, "unknown")
        if limit is not None and (not isinstance(limit, int) or limit < 1):
            raise ConfigError(f"limit must be a positive integer, not {limit!r}")
        self.limit = limit
        self.skip_empty = skip_empty

    def instances(self) -> Iterator[Instance]:
        try:
            testset = read_distil_lingeval(self.directory, allow_empty=self.skip_empty)
        except ValueError as error:
            if "empty line" in str(error):
                raise ConfigError(f"{error} (pass skip_empty=true to skip such lines, counted in the log)") from None
            raise
        pairs = testset.pairs
        groups: dict[tuple[str, str], list[int]] = {}
        skipped = 0
        for index, pair in enumerate(pairs):
            if not (pair.source.strip() and pair.correct.strip() and pair.incorrect.strip()):
                skipped += 1
                continue
            groups.setdefault((pair.source, pair.correct), []).append(index)
        if skipped:
            logger.warning("%s: skipped %d lines with an empty side (%s)", self.directory, skipped,
                           ", ".join(testset.empty_lines[:5]))
        name = self.directory.name
        for count, ((source, correct), indices) in enumerate(groups.items()):
            if self.limit is not None and count >= self.limit:
                break
            variants = [
                {"text": pairs[i].incorrect, "phenomenon": self.phenomenon, "meta": {"line": i + 1}}
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
