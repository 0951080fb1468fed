"""Feature tables: bundles → strings, with M2C's completion of missing dimensions.

A :class:`FeatureTable` maps feature bundles to values.  Keys need not name every
dimension the table uses: ``{"PL.DEF.ACC": "die"}`` in a table over NUMBER, GENDER,
CASE and DEFINITENESS stands for the same value under every gender.  A lookup with a
complete bundle is exact; a lookup that leaves dimensions open (``{ART.DEF}``) is a
*partial* match, fine when every matching key has the same value (English ``the``)
and an error when they differ.

Three things are feature tables: each entry of a placeholder's lexicon (one word's
forms, e.g. ``{"SG.MASC": "Lehrer", "SG.FEM": "Lehrerin", …}``), a language rule
(German articles) and a compiled inline choice (``{ist:name1.SG|sind:name1.PL}``).

A :class:`Lexicon` is the value list of one placeholder root: plain strings, or
entries that are feature tables over the dimensions used anywhere in the list.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from performers.m2c.features import Dimensions, TemplateError


class AmbiguousLookup(TemplateError):
    """A partial bundle matches keys with different values."""


class FeatureTable:
    """Bundles → values over ``dimensions`` (the dimensions the keys use, in the
    language's order).  Missing dimensions of a key are completed with every feature
    of that dimension; where two keys cover the same complete bundle the more specific
    key (more features) wins, and two equally specific keys with different values are
    an error."""

    def __init__(
        self,
        items: Sequence[tuple[frozenset[str], str]],
        language: Dimensions,
        dimensions: Iterable[str] | None = None,
        where: str = "",
    ):
        self.where = where
        self.items = tuple(items)
        used = {language.dimension_of(feature) for bundle, _ in self.items for feature in bundle}
        self.dimensions: tuple[str, ...] = language.order(dimensions if dimensions is not None else used)
        self._dims = set(self.dimensions)
        self._language = language
        self.complete: dict[frozenset[str], str] = {}
        specificity: dict[frozenset[str], int] = {}
        raw: dict[frozenset[str], str] = {}
        for bundle, value in self.items:
            if not isinstance(value, str):
                raise TemplateError(f"{where}: value for {language.key(bundle)!r} must be a string, not {type(value).__name__}")
            if bundle in raw and raw[bundle] != value:
                raise TemplateError(f"{where}: bundle {language.key(bundle)!r} given twice with different values")
            raw[bundle] = value
            present = {language.dimension_of(feature) for feature in bundle}
            missing = [name for name in self.dimensions if name not in present]
            for completion in itertools.product(*(language[name].features for name in missing)):
                full = bundle | frozenset(completion)
                rank = len(bundle)
                if full in self.complete and self.complete[full] != value:
                    if specificity[full] == rank:
                        raise TemplateError(
                            f"{where}: {language.key(full)!r} is covered by two equally specific keys with different "
                            f"values ({self.complete[full]!r} and {value!r}); write the complete bundle"
                        )
                    if specificity[full] > rank:
                        continue
                self.complete[full] = value
                specificity[full] = rank
        self._raw = raw
        present = set().union(*self.complete) if self.complete else set()
        # the features a free variable over this table ranges over: those of the completed keys
        self.features: dict[str, tuple[str, ...]] = {
            name: tuple(f for f in language[name].features if f in present) for name in self.dimensions
        }

    def restrict(self, bundle: Mapping[str, str]) -> dict[str, str]:
        """The part of ``{dimension: feature}`` on this table's dimensions."""
        return {name: feature for name, feature in bundle.items() if name in self._dims}

    def lookup(self, bundle: Mapping[str, str]) -> str | None:
        """The value for ``{dimension: feature}`` (dimensions outside the table are
        ignored); ``None`` when nothing matches; :class:`AmbiguousLookup` when a
        partial bundle matches different values."""
        features = frozenset(feature for name, feature in bundle.items() if name in self._dims)
        if len(features) == len(self.dimensions):
            return self.complete.get(features)
        values: list[str] = []
        for key, value in itertools.chain(self._raw.items(), self.complete.items()):
            if features <= key and value not in values:
                values.append(value)
        if len(values) > 1:
            shown = self._language.key(features) or "(no features)"
            raise AmbiguousLookup(
                f"{self.where}: features {shown} leave {', '.join(d for d in self.dimensions if d not in bundle)} "
                f"open and match different values ({', '.join(map(repr, values[:5]))})"
            )
        return values[0] if values else None

    def values(self) -> list[str]:
        """Every distinct value, in key order."""
        out: list[str] = []
        for _, value in self.items:
            if value not in out:
                out.append(value)
        return out


def table_from_mapping(data: Any, language: Dimensions, where: str) -> FeatureTable:
    """A :class:`FeatureTable` from ``{"SG.MASC": "Lehrer", …}``."""
    if not isinstance(data, Mapping) or not data:
        raise TemplateError(f"{where}: expected a non-empty mapping of feature bundles to strings")
    items = []
    for key, value in data.items():
        bundle = language.bundle(key, where=where)
        if not isinstance(value, str):
            raise TemplateError(f"{where}: {key}: value must be a string, not {type(value).__name__}")
        items.append((bundle, value))
    return FeatureTable(items, language, where=where)


@dataclass
class Lexicon:
    """The values of one placeholder root (``name``, ``job``): either ``plain``
    strings or ``entries``, each a :class:`FeatureTable` of one word's forms over
    ``dimensions`` (every dimension used anywhere in the list).

    ``inherent`` are the sampleable dimensions that every form of every entry
    specifies and that are constant within each entry (a name's gender, a noun's
    gender): two draws that differ on one of them are necessarily different entries.
    """

    name: str
    plain: tuple[str, ...] | None
    entries: tuple[FeatureTable, ...]
    dimensions: tuple[str, ...]
    inherent: frozenset[str]
    features: Mapping[str, tuple[str, ...]]

    def __len__(self) -> int:
        return len(self.plain) if self.plain is not None else len(self.entries)

    @property
    def is_plain(self) -> bool:
        return self.plain is not None

    def forms(self) -> list[list[str]]:
        """Every entry's distinct forms (plain values are one-form entries)."""
        if self.plain is not None:
            return [[value] for value in self.plain]
        return [entry.values() for entry in self.entries]


def lexicon_from_values(name: str, values: Any, language: Dimensions, where: str) -> Lexicon:
    """Build a :class:`Lexicon` from a list of strings or of ``{bundle: form}`` mappings."""
    if isinstance(values, (str, Mapping)) or not isinstance(values, Sequence) or not values:
        raise TemplateError(f"{where}: placeholder {name!r} needs a non-empty list of values")
    if all(isinstance(value, str) for value in values):
        return Lexicon(name, tuple(values), (), (), frozenset(), {})
    if not all(isinstance(value, Mapping) for value in values):
        raise TemplateError(
            f"{where}: placeholder {name!r} mixes plain strings and feature-annotated forms; "
            "annotate every value (e.g. {\"SG\": \"word\"})"
        )
    raw = []
    for index, value in enumerate(values):
        if not value:
            raise TemplateError(f"{where}: placeholder {name!r} value {index} is an empty mapping")
        items = []
        for key, form in value.items():
            if not isinstance(form, str):
                raise TemplateError(
                    f"{where}: placeholder {name!r} value {index} ({key}): form must be a string, not {type(form).__name__}"
                )
            items.append((language.bundle(key, where=f"{where}: placeholder {name!r} value {index}"), form))
        raw.append(items)
    used = {language.dimension_of(feature) for items in raw for bundle, _ in items for feature in bundle}
    dimensions = language.order(used)
    entries = tuple(
        FeatureTable(items, language, dimensions, where=f"{where}: placeholder {name!r} value {index}")
        for index, items in enumerate(raw)
    )
    inherent = set()
    for dimension in dimensions:
        if not language[dimension].sampleable:
            continue
        constant = True
        for items in raw:
            seen = {next((f for f in bundle if language.dimension_of(f) == dimension), None) for bundle, _ in items}
            if None in seen or len(seen) != 1:
                constant = False
                break
        if constant:
            inherent.add(dimension)
    present = set().union(*(set().union(*entry.complete) for entry in entries))
    features = {dimension: tuple(f for f in language[dimension].features if f in present) for dimension in dimensions}
    return Lexicon(name, None, entries, dimensions, frozenset(inherent), features)
