"""UniMorph-style dimensions, features and feature bundles.

A *dimension* (``GENDER``, ``NUMBER``, ``CASE``, ``STARTSWITH`` …) holds *features*
(``MASC``, ``PL``, ``DAT``, ``VOW`` …).  A *feature bundle* is an order-free set of
features, written in templates and lexicons as dot-separated keys: ``SG.MASC`` and
``MASC.SG`` are the same bundle.  At most one feature per dimension may appear in a
bundle.

Two properties of a dimension follow M2C (Hlavnova & Ruder 2023):

- ``sampleable``: when a rule or an inline choice agrees with a placeholder on this
  dimension (``{ART.<obj.GENDER>}``), the placeholder's value on it becomes a free
  variable the generator enumerates.  Non-sampleable dimensions (``ORDER`` for
  comparatives, Chinese classifier types) only vary when a placeholder's own slot
  leaves them open.
- ``computed``: the feature is not written in lexicons but computed from the surface
  form by a Python function registered for the language (English ``STARTSWITH``:
  *a* vs *an*); see :mod:`performers.m2c.registry`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from arena.sdk import ConfigError


class TemplateError(ConfigError):
    """A template, lexicon or language specification is malformed; the message says
    where (file, template, key)."""


@dataclass(frozen=True)
class Dimension:
    """One dimension and its features, in the order the language lists them."""

    name: str
    features: tuple[str, ...]
    sampleable: bool = True
    computed: bool = False


class Dimensions:
    """The dimensions of a language: an ordered collection with a feature → dimension
    index.  A feature name may belong to one dimension only."""

    def __init__(self, dimensions: Iterable[Dimension], where: str = "dimensions"):
        self._by_name: dict[str, Dimension] = {}
        self._feature_to_dimension: dict[str, str] = {}
        for dimension in dimensions:
            if dimension.name in self._by_name:
                raise TemplateError(f"{where}: dimension {dimension.name!r} defined twice")
            if not dimension.features:
                raise TemplateError(f"{where}: dimension {dimension.name!r} has no features")
            if not _is_name(dimension.name):
                raise TemplateError(f"{where}: {dimension.name!r} is not a valid dimension name")
            self._by_name[dimension.name] = dimension
            for feature in dimension.features:
                if not isinstance(feature, str) or not _is_name(feature):
                    raise TemplateError(f"{where}: {dimension.name}: {feature!r} is not a valid feature name")
                other = self._feature_to_dimension.get(feature)
                if other is not None:
                    raise TemplateError(
                        f"{where}: feature {feature!r} belongs to both {other} and {dimension.name}; "
                        "feature names must be unique within a language"
                    )
                self._feature_to_dimension[feature] = dimension.name
        self.names: tuple[str, ...] = tuple(self._by_name)
        self._rank = {name: index for index, name in enumerate(self.names)}

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Dimension:
        return self._by_name[name]

    def __iter__(self):
        return iter(self._by_name.values())

    def is_feature(self, feature: str) -> bool:
        return feature in self._feature_to_dimension

    def dimension_of(self, feature: str, where: str = "") -> str:
        """The dimension a feature belongs to; an unknown feature is a
        :class:`TemplateError` that lists the known dimensions."""
        try:
            return self._feature_to_dimension[feature]
        except KeyError:
            prefix = f"{where}: " if where else ""
            known = "; ".join(f"{d.name}: {'/'.join(d.features)}" for d in self)
            raise TemplateError(f"{prefix}unknown feature {feature!r} (known features: {known})") from None

    def order(self, names: Iterable[str]) -> tuple[str, ...]:
        """``names`` (dimension names) sorted in the language's order."""
        return tuple(sorted(set(names), key=lambda name: self._rank.get(name, len(self._rank))))

    def bundle(self, key: str, where: str = "") -> frozenset[str]:
        """Parse a bundle key such as ``SG.MASC`` into a frozen set of features,
        checking that each feature is known and that no dimension appears twice."""
        if not isinstance(key, str) or not key:
            raise TemplateError(f"{where}: a feature bundle must be a non-empty string like 'SG.MASC', not {key!r}")
        features = key.split(".")
        seen: dict[str, str] = {}
        for feature in features:
            dimension = self.dimension_of(feature, where=f"{where} (bundle {key!r})" if where else f"bundle {key!r}")
            if dimension in seen:
                raise TemplateError(
                    f"{where}: bundle {key!r} gives {dimension} twice ({seen[dimension]} and {feature})"
                )
            seen[dimension] = feature
        return frozenset(features)

    def dimensions_of(self, bundle: Iterable[str]) -> dict[str, str]:
        """``{dimension: feature}`` of a bundle."""
        return {self._feature_to_dimension[feature]: feature for feature in bundle}

    def key(self, bundle: Iterable[str]) -> str:
        """A canonical key for a bundle: features in the language's dimension order."""
        return ".".join(
            sorted(bundle, key=lambda feature: self._rank.get(self._feature_to_dimension.get(feature, ""), 1 << 30))
        )


def _is_name(text: str) -> bool:
    return bool(text) and all(char.isalnum() or char == "_" for char in text)


def dimensions_from_mapping(
    dimensions: Mapping[str, Iterable[str]],
    properties: Mapping[str, Mapping[str, object]] | None = None,
    where: str = "dimensions",
) -> Dimensions:
    """Build :class:`Dimensions` from ``{NAME: [features]}`` and optional
    ``{NAME: {sampleable: bool, callable: bool}}`` (M2C's ``dimension_properties``)."""
    if not isinstance(dimensions, Mapping) or not dimensions:
        raise TemplateError(f"{where}: 'dimensions' must be a non-empty mapping of NAME: [features]")
    properties = properties or {}
    if not isinstance(properties, Mapping):
        raise TemplateError(f"{where}: 'dimension_properties' must be a mapping of NAME: {{sampleable, callable}}")
    unknown = sorted(set(properties) - set(dimensions))
    if unknown:
        raise TemplateError(f"{where}: dimension_properties name unknown dimension(s) {', '.join(unknown)}")
    built = []
    for name, features in dimensions.items():
        if isinstance(features, str) or not isinstance(features, Iterable):
            raise TemplateError(f"{where}: {name}: features must be a list of names")
        props = properties.get(name) or {}
        if not isinstance(props, Mapping):
            raise TemplateError(f"{where}: dimension_properties.{name} must be a mapping")
        allowed = {"sampleable", "callable", "computed", "callable_description", "description"}
        extra = sorted(set(props) - allowed)
        if extra:
            raise TemplateError(
                f"{where}: dimension_properties.{name}: unknown key(s) {', '.join(extra)}; allowed: {', '.join(sorted(allowed))}"
            )
        sampleable = props.get("sampleable", True)
        computed = props.get("computed", props.get("callable", False))
        if not isinstance(sampleable, bool) or not isinstance(computed, bool):
            raise TemplateError(f"{where}: dimension_properties.{name}: sampleable/callable must be true or false")
        built.append(Dimension(str(name), tuple(features), sampleable=sampleable, computed=computed))
    return Dimensions(built, where=where)
