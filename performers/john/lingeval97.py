"""``lingeval97`` John: a test set in LingEval97's JSON format (Sennrich 2017).

Each sentence ``{source, reference, origin, errors: [{type, contrastive, distance?,
frequency?}]}`` becomes an instance; its ``errors`` become pre-made variants in
``meta["variants"]`` (played by the ``replay`` Zellig), with ``type`` as the
phenomenon label and ``distance``/``frequency`` kept for LingEval97's breakdowns.

Ids are the sentence's ``origin`` (e.g. ``newstest2009.17``) where it is given and
unique, else ``<file stem>.<1-based index>``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from arena.sdk import ExistingFile, Instance, PositiveInt, read_lingeval97, take


class LingEval97John:
    """Yields the test set's sentences with their contrastive variants, in file order.

    Params: ``path`` (the test set's JSON file), ``reference_kind`` (``human`` or
    ``machine``: what the references are), ``types`` (keep only these error types),
    ``limit`` (at most this many sentences).
    """

    version = "1"

    def __init__(
        self,
        path: ExistingFile,
        reference_kind: Literal["human", "machine"] = "human",
        types: list[str] | None = None,
        limit: PositiveInt | None = None,
    ):
        self.path = Path(path)
        self.reference_kind = reference_kind
        self.types = set(types) if types else None
        self.limit = limit

    def instances(self) -> Iterator[Instance]:
        return take(self._selected(), self.limit)

    def _selected(self) -> Iterator[Instance]:
        sentences = read_lingeval97(self.path)
        origins = Counter(s.origin for s in sentences if s.origin)
        for index, sentence in enumerate(sentences, start=1):
            variants = [
                {
                    "text": error.contrastive,
                    "phenomenon": error.type,
                    "meta": {k: v for k, v in (("distance", error.distance), ("frequency", error.frequency)) if v is not None},
                }
                for error in sentence.errors
                if self.types is None or error.type in self.types
            ]
            if self.types is not None and not variants:
                continue
            origin = sentence.origin
            identifier = origin if origin and origins[origin] == 1 else f"{self.path.stem}.{index}"
            meta = {"origin": sentence.origin, "index": index, "reference_kind": self.reference_kind, "variants": variants}
            yield Instance(identifier, sentence.source, sentence.reference, meta)
