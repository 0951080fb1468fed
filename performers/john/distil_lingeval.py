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

import hashlib
import itertools
import logging
from array import array
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any

import numpy as np

from arena.sdk import DISTIL_LINGEVAL_FILES as FILES
from arena.sdk import (
    ConfigError,
    DataError,
    Instance,
    MustExist,
    PositiveInt,
    iter_lines,
    read_distil_lingeval,
    take,
    text_problem,
)

logger = logging.getLogger(__name__)

# the metadata keys of its instances and of their variants (see _instance)
INSTANCE_META = frozenset({"origin", "line", "lines", "reference_kind", "error_type", "variants"})
VARIANT_META = frozenset({"line"})


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
        self.limit = limit
        self.skip_empty = skip_empty

    def instances(self) -> Iterator[Instance]:
        """The groups in order of their first line; streamed (two passes over the files, memory
        of 17 bytes a line) unless the files are irregular, which the in-memory reader names."""
        try:
            index = self._index()
        except _Irregular:
            yield from self._grouped_in_memory()
            return
        yield from self._grouped(index)

    def _index(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pass 1: per line its group (-1: skipped for an empty side), per group its first and
        last line, groups numbered in order of their first line."""
        digests = bytearray()
        kept = array("b")
        empties: dict[str, list[str]] = {name: [] for name in FILES}
        for number, sides in enumerate(_lines(self.directory), start=1):
            empty = [name for name, text in zip(FILES, sides) if not text.strip()]
            if empty and not self.skip_empty:
                raise _Irregular
            if any(text_problem(text, one_line=False) for text in sides if text.strip()):
                raise _Irregular  # the text policy refuses a line: the in-memory reader names file and line
            for name in empty:
                if len(empties[name]) < 5:
                    empties[name].append(f"{name}:{number}")
            kept.append(not empty)
            digests += hashlib.blake2b("\x00".join(sides[:2]).encode("utf-8", "surrogatepass"), digest_size=16).digest()
        mask = np.frombuffer(kept, dtype=np.int8).astype(bool) if len(kept) else np.zeros(0, dtype=bool)
        if not mask.all():
            listed = [entry for name in FILES for entry in empties[name]][:5]
            logger.warning("%s: skipped %d lines with an empty side (%s)", self.directory, int((~mask).sum()),
                           ", ".join(listed))
        lines = np.flatnonzero(mask)
        keys = np.frombuffer(bytes(digests), dtype="V16")[lines] if len(lines) else np.zeros(0, dtype="V16")
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        group = np.full(len(mask), -1, dtype=np.int64)
        group[lines] = rank[inverse.reshape(-1)]
        last = np.zeros(len(order), dtype=np.int64)
        np.maximum.at(last, group[lines], lines)
        return group, lines[first[order]], last

    def _grouped(self, index: tuple[np.ndarray, np.ndarray, np.ndarray]) -> Iterator[Instance]:
        """Pass 2: each group as an instance once its last line is read, in order of first lines."""
        group, first, last = index
        count = len(first) if self.limit is None else min(self.limit, len(first))
        pending: dict[int, list[tuple[int, str, str, str]]] = {}
        emitted = 0
        for line, sides in enumerate(_lines(self.directory)):
            if emitted >= count:
                break
            g = int(group[line])
            if g < 0 or g >= count:
                continue
            pending.setdefault(g, []).append((line, *sides))
            while emitted < count and emitted in pending and pending[emitted][-1][0] == last[emitted]:
                yield self._instance(pending.pop(emitted))
                emitted += 1

    @classmethod
    def declared_meta(cls, params: Mapping[str, Any]) -> tuple[frozenset[str] | None, frozenset[str] | None]:
        """The metadata keys of its instances and variants (:class:`arena.roles.MetaDeclaring`)."""
        return INSTANCE_META, VARIANT_META

    def _instance(self, members: list[tuple[int, str, str, str]]) -> Instance:
        name = self.directory.name
        indices = [line for line, *_ in members]
        _, source, correct, _ = members[0]
        variants = [
            {"text": incorrect, "phenomenon": self.phenomenon, "meta": {"line": line + 1}}
            for line, _, _, incorrect in members
        ]
        meta = {
            "origin": name,
            "line": indices[0] + 1,
            "lines": [i + 1 for i in indices],
            "reference_kind": self.reference_kind,
            "error_type": self.error_type,
            "variants": variants,
        }
        return Instance(f"{name}.{indices[0] + 1}", source, correct, meta)

    def _grouped_in_memory(self) -> Iterator[Instance]:
        """The files read whole (:func:`read_distil_lingeval`), which names what is wrong with them."""
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
        for indices in take(groups.values(), self.limit):
            yield self._instance([(i, pairs[i].source, pairs[i].correct, pairs[i].incorrect) for i in indices])


class _Irregular(Exception):
    """The files cannot be streamed as they are (missing, not UTF-8, empty lines, uneven lengths, a
    line the text policy refuses)."""


def _lines(directory: Path) -> Iterator[tuple[str, str, str]]:
    """(source, correct, incorrect) of each line, streamed by the rules of :mod:`arena.formats.textlines`."""
    try:
        handles = [open(directory / name, "rb") for name in FILES]
    except OSError:
        raise _Irregular from None
    try:
        streams = [iter_lines(handle, str(directory / name)) for handle, name in zip(handles, FILES)]
        for sides in itertools.zip_longest(*streams):
            if None in sides:
                raise _Irregular
            yield sides  # type: ignore[misc]
    except DataError:
        raise _Irregular from None
    finally:
        for handle in handles:
            handle.close()
