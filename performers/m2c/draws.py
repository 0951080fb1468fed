"""The records of an M2C template space: draws, options, lookups, generated items and flips.

:class:`Draw` is one point of a template's space (``rank``, free ``features``, ``entries``);
:class:`Option` one combination of free features and what follows from it; :class:`Lookup` a
slot whose value is looked up by features; :class:`Flip` a re-rendering with one feature
flipped.  ``Var`` is a ``(front, dimension)`` pair such as ``("name1", "GENDER")``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from performers.m2c.features import TemplateError
from performers.m2c.syntax import Agreement, Conditional
from performers.m2c.tables import FeatureTable, Lexicon

Var = tuple[str, str]  # (front, dimension)


@dataclass(frozen=True)
class Repetition:
    """How numbered fronts of one root combine (M2C's ``same_keys_cfg``)."""

    order: bool = True
    repeat: bool = False


def index_tuples(lengths: Sequence[int], repeat: bool, order: bool) -> list[tuple[int, ...]]:
    """Position tuples for fronts whose lists have ``lengths`` (position ``j`` < ``lengths[j]``)."""
    if not lengths:
        return [()]
    width, count = max(lengths), len(lengths)
    it: Iterable[tuple[int, ...]]
    if not order and repeat:
        it = itertools.product(range(width), repeat=count)
    elif not order:
        it = itertools.permutations(range(width), count)
    elif not repeat:
        it = itertools.combinations(range(width), count)
    else:
        it = itertools.combinations_with_replacement(range(width), count)
    return [t for t in it if all(i < n for i, n in zip(t, lengths))]


@dataclass
class Lookup:
    """A slot whose value is looked up by features: a placeholder slot (``kind``
    ``placeholder``), a language rule (``rule``) or an inline choice (``choice``)."""

    key: str
    kind: str
    front: str
    dimensions: tuple[str, ...]
    features: Mapping[str, tuple[str, ...]]
    fixed: Mapping[str, str]
    agreements: tuple[Agreement, ...]
    conditionals: tuple[Conditional, ...]
    table: FeatureTable | None = None
    lexicon: Lexicon | None = None
    mentioned: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        dims = set(self.fixed)
        for agreement in self.agreements:
            dims.update(agreement.dimensions)
        dims.update(conditional.dimension for conditional in self.conditionals)
        self.mentioned = frozenset(dims)

    @property
    def entries(self) -> Sequence[Any]:
        """The lexicon entries of a placeholder slot."""
        if self.lexicon is None:
            raise TypeError(f"{{{self.key}}}: a {self.kind} slot has no lexicon")
        return self.lexicon.entries

    @property
    def values(self) -> FeatureTable:
        """The feature table of a rule or choice slot."""
        if self.table is None:
            raise TypeError(f"{{{self.key}}}: a {self.kind} slot has no feature table")
        return self.table


@dataclass
class Option:
    """One combination of free features and what follows from it."""

    free: dict[Var, str]
    attrs: dict[Var, str]  # after placeholder slots recorded their agreeing features
    bundles: dict[str, dict[str, str]]  # placeholder slot key → lookup features
    forms: dict[str, dict[int, str]]  # placeholder slot key → entry → form
    groups: list[tuple[tuple[str, ...], list[tuple[int, ...]]]]  # (fronts, entry tuples)
    count: int = 0
    # rule/choice values, features and bundles per tuple of computed features (e.g. STARTSWITH)
    cache: dict[tuple, tuple[dict[str, str], dict[Var, str], dict[str, dict[str, str]]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Draw:
    """One point of a template's space: ``rank`` in the enumeration, the free
    ``features`` (``{"name1.GENDER": "FEM"}``) and the ``entries`` (front → index into
    the placeholder's value list).  JSON-serialisable via :meth:`to_json`."""

    rank: int
    features: Mapping[str, str]
    entries: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "features": dict(self.features), "entries": dict(self.entries)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Draw:
        if not isinstance(data, Mapping) or not {"features", "entries"} <= set(data):
            raise TemplateError("a draw is a mapping with 'features' and 'entries'")
        return cls(int(data.get("rank", -1)), dict(data["features"]), {k: int(v) for k, v in data["entries"].items()})


@dataclass(frozen=True)
class Item:
    """A generated string and the draw it came from."""

    text: str
    draw: Draw


@dataclass(frozen=True)
class FlipTarget:
    """A feature of one occurrence of a slot that comes from agreement (another
    placeholder, a conditional, an inline choice, or a free feature other slots share)."""

    occurrence: int
    key: str
    kind: str
    front: str
    dimension: str
    source: str


@dataclass(frozen=True)
class Flip:
    """A re-rendering with one feature of one slot occurrence flipped."""

    text: str
    target: FlipTarget
    before: str  # the feature drawn
    after: str  # the feature put instead
    value_before: str
    value_after: str


@dataclass
class Evaluation:
    values: dict[str, str]
    attrs: dict[Var, str]
    bundles: dict[str, dict[str, str]] = field(default_factory=dict)


def parse_var(text: str) -> Var:
    front, _, dimension = text.rpartition(".")
    return front, dimension


def var_text(var: Var) -> str:
    return f"{var[0]}.{var[1]}"

