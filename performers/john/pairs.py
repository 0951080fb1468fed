"""``pairs`` John: a user's own minimal pairs from a TSV, CSV, JSONL, Parquet file or a
Hugging Face ``datasets`` directory (:mod:`arena.formats.pairs`).

Each row (``source``, ``correct``, ``incorrect`` and any other columns) becomes one
instance: ``source`` and the ``correct`` reference, with the ``incorrect`` text in
``meta["variants"]`` for the ``replay`` Zellig.  Every other column is metadata of
the instance (``breakdowns: [john.COLUMN]``) and of its variant (``breakdowns:
[COLUMN]``); a ``phenomenon`` column labels the variant (default: the
``phenomenon`` param, else ``own``).  Ids come from an ``id`` column or are
``<file stem>.<line>``.

Example row (TSV): ``The shop is closed.<TAB>Der Laden ist geschlossen.<TAB>Der Laden ist
nicht geschlossen.<TAB>negation`` with the header ``source correct incorrect phenomenon``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any

from arena.sdk import (
    Check,
    Instance,
    MustExist,
    OwnPair,
    PositiveInt,
    column_names,
    meta_naming,
    parse_columns,
    read_pairs,
    take,
)

DEFAULT_PHENOMENON = "own"


def instance_of(pair: OwnPair, origin: str, phenomenon: str) -> Instance:
    """The instance of one pair, its incorrect text as the one variant to replay."""
    label = pair.meta.get("phenomenon")
    label = str(label) if label not in (None, "") else phenomenon
    variant_meta = {"line": pair.line, **{k: v for k, v in pair.meta.items() if k != "phenomenon"}}
    meta = {
        **pair.meta,
        "origin": origin,
        "line": pair.line,
        "variants": [{"text": pair.incorrect, "phenomenon": label, "meta": variant_meta}],
    }
    return Instance(pair.id, pair.source, pair.correct, meta)


def columns_problem(value: Any) -> str | None:
    """Why a ``columns`` value cannot map the file's columns (``None`` when it can)."""
    parse_columns(value, where="columns")  # raises arena's error, which the check reports
    return None


class PairsJohn:
    """Yields one instance per row of a pairs file.

    Params: ``path`` (a ``.tsv``, ``.csv``, ``.jsonl``, ``.parquet`` file or a ``datasets``
    directory), ``columns`` (a mapping such as ``{source: src, correct: good}``, or
    ``"source=src,correct=good"``), ``phenomenon`` (the variants' label where the file
    has no ``phenomenon`` column), ``limit`` (at most this many instances).
    """

    version = "1"

    def __init__(
        self,
        path: Annotated[str, MustExist("path")],
        columns: Annotated[dict[str, str] | str | None, Check(columns_problem)] = None,
        phenomenon: str = DEFAULT_PHENOMENON,
        limit: PositiveInt | None = None,
    ):
        self.path = Path(path)
        self.columns = parse_columns(columns, where="columns")
        self.phenomenon = phenomenon
        self.limit = limit

    @classmethod
    def declared_meta(cls, params: Mapping[str, Any]) -> tuple[frozenset[str] | None, frozenset[str] | None]:
        """The metadata keys of its instances and variants, from the file's columns
        (:class:`arena.roles.MetaDeclaring`); ``None`` for a datasets directory."""
        columns = column_names(params["path"])
        if columns is None:
            return None, None
        key = meta_naming(parse_columns(params.get("columns"), where="columns"))
        meta = {name for name in map(key, columns) if name is not None}
        return (frozenset(meta | {"origin", "line", "variants"}),
                frozenset((meta - {"phenomenon"}) | {"line"}))

    def instances(self) -> Iterator[Instance]:
        pairs = read_pairs(self.path, self.columns)
        origin = self.path.name
        for pair in take(pairs, self.limit):
            yield instance_of(pair, origin, self.phenomenon)
