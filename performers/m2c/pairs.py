"""Bilingual template pairs: an English source template and a German reference
template that share their placeholders, so that one draw gives a translation pair.

A pair spec (YAML or JSON)::

    name: en-de-agreement
    source:    {language: en, dimensions: {...}, rules: {...}}      # language sections
    reference: {language: de, dimensions: {...}, rules: {...}}
    placeholders:                    # shared by all templates (optional)
      obj:
        - {en: {SG: book, PL: books}, de: {SG.NEUT: Buch, PL.NEUT: Bücher}}
        - {en: {SG: cup, PL: cups}, de: {SG.FEM: Tasse, PL.FEM: Tassen}}
      name: [Anna, Jonas]            # a plain string is the same in both languages
    templates:
      - name: location
        source: "The {obj1} {is:obj1.SG|are:obj1.PL} new."
        reference: "{ART1.NOM.DEF.<obj1.NUMBER.GENDER>.TO_CAPITALIZE} {obj1} {ist:obj1.SG|sind:obj1.PL} neu."
        same_keys_cfg: {obj: {order: true, repeat: false}}
        placeholders: {...}          # optional, per template

The reference template is the one that is enumerated and sampled (it carries the
morphology under test); the source is rendered from the same draw: the same entry of
every placeholder, and for each feature the source template leaves free the feature
the reference drew (or derived) for that placeholder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from performers.m2c.features import TemplateError
from performers.m2c.language import Language, language_from_mapping
from performers.m2c.space import Draw, TemplateSpace
from performers.m2c.specfile import (
    SpecFile,
    file_digest,
    located,
    read_data,
    repetition_from_mapping,
    spec_from_mapping,
    yaml_lines,
)
from performers.m2c.tables import lexicon_from_values

PAIR_KEYS = {"name", "description", "format", "source", "reference", "placeholders", "templates"}
PAIR_TEMPLATE_KEYS = {"name", "source", "reference", "placeholders", "same_keys_cfg", "repetition", "description"}


@dataclass
class PairTemplate:
    name: str
    source: str
    reference: str
    placeholders: Mapping[str, Any]
    where: str
    repetition: Mapping[str, Any] = field(default_factory=dict)


class UnrenderableSource(TemplateError):
    """The source template cannot be rendered from a reference draw."""


def _template_list(raw: Any, where: str) -> list:
    """'templates' as a list of entries (a mapping of name -> body becomes named entries)."""
    if isinstance(raw, Mapping):
        raw = [{"name": name, **body} if isinstance(body, Mapping) else body for name, body in raw.items()]
    if not isinstance(raw, list) or not raw:
        raise TemplateError(f"{where}: 'templates' must be a non-empty list")
    return raw


class PairSpec:
    """A loaded pair spec: both languages and the paired templates."""

    def __init__(self, data: Any, where: str, path: Path | None = None, lines: Mapping[tuple[str, ...], int] | None = None):
        if not isinstance(data, Mapping):
            raise TemplateError(f"{where}: a pair spec is a mapping with source, reference and templates")
        unknown = sorted(set(data) - PAIR_KEYS)
        if unknown:
            raise TemplateError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(PAIR_KEYS))}")
        self.path = path
        self.digest = file_digest(path) if path is not None else None
        self.name = str(data.get("name") or (path.stem if path else "pairs"))
        self.source_language: Language = language_from_mapping(data.get("source"), f"{where}: source")
        self.reference_language: Language = language_from_mapping(data.get("reference"), f"{where}: reference")
        if self.source_language.code == self.reference_language.code:
            raise TemplateError(f"{where}: source and reference have the same language code {self.source_language.code!r}")
        shared = data.get("placeholders") or {}
        if not isinstance(shared, Mapping):
            raise TemplateError(f"{where}: 'placeholders' must map placeholder names to value lists")
        self.templates: dict[str, PairTemplate] = {}
        for index, item in enumerate(_template_list(data.get("templates"), where)):
            self._add_template(item, located(where, lines or {}, "templates", index), shared)
        self._spaces: dict[str, tuple[TemplateSpace, TemplateSpace]] = {}
        self._lexicons: dict[tuple[int, str], Any] = {}

    def _add_template(self, item: Any, here: str, shared: Mapping) -> None:
        """Check one entry of 'templates' and add it under its name."""
        if not isinstance(item, Mapping):
            raise TemplateError(f"{here}: a template is a mapping with name, source and reference")
        extra = sorted(set(item) - PAIR_TEMPLATE_KEYS)
        if extra:
            raise TemplateError(f"{here}: unknown key(s) {', '.join(extra)}; allowed: {', '.join(sorted(PAIR_TEMPLATE_KEYS))}")
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise TemplateError(f"{here}: a template needs a 'name'")
        here = f"{here} ({name})"
        if name in self.templates:
            raise TemplateError(f"{here}: template name used twice")
        for side in ("source", "reference"):
            if not isinstance(item.get(side), str) or not item[side]:
                raise TemplateError(f"{here}: '{side}' must be a non-empty template string")
        if "same_keys_cfg" in item and "repetition" in item:
            raise TemplateError(f"{here}: give either same_keys_cfg or repetition, not both")
        own = item.get("placeholders") or {}
        if not isinstance(own, Mapping):
            raise TemplateError(f"{here}: 'placeholders' must map placeholder names to value lists")
        self.templates[name] = PairTemplate(
            name, item["source"], item["reference"], {**shared, **own}, here,
            repetition_from_mapping(item.get("same_keys_cfg", item.get("repetition")), here),
        )

    @property
    def names(self) -> list[str]:
        return list(self.templates)

    def _side_values(self, root: str, values: Any, language: Language, where: str) -> Any:
        if not isinstance(values, list) or not values:
            raise TemplateError(f"{where}: placeholder {root!r} needs a non-empty list of values")
        codes = {self.source_language.code, self.reference_language.code}
        out = []
        for index, value in enumerate(values):
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, Mapping) and set(value) == codes:
                out.append(value[language.code])
            else:
                raise TemplateError(
                    f"{where}: placeholder {root!r} value {index} must be a string or a mapping with exactly the keys "
                    f"{' and '.join(sorted(codes))}"
                )
        return out

    def _lexicon(self, root: str, values: Any, language: Language, where: str):
        key = (id(values), language.code)
        if key not in self._lexicons:
            side = self._side_values(root, values, language, where)
            self._lexicons[key] = lexicon_from_values(root, side, language.dimensions, f"{where} [{language.code}]")
        return self._lexicons[key]

    def spaces(self, name: str) -> tuple[TemplateSpace, TemplateSpace]:
        """``(source space, reference space)`` of template ``name``."""
        if name not in self.templates:
            raise TemplateError(f"{self.path or self.name}: no template {name!r}; templates: {', '.join(self.templates)}")
        if name not in self._spaces:
            pair = self.templates[name]
            spaces = []
            for language, text in ((self.source_language, pair.source), (self.reference_language, pair.reference)):
                lexicons = {
                    root: self._lexicon(root, values, language, pair.where) for root, values in pair.placeholders.items()
                }
                spaces.append(TemplateSpace(
                    text, language, lexicons, pair.repetition, name=name, where=f"{pair.where} [{language.code}]"
                ))
            source, reference = spaces
            missing = sorted(set(source.fronts) - set(reference.fronts))
            if missing:
                raise TemplateError(
                    f"{pair.where}: the source uses {', '.join(missing)}, which the reference does not draw"
                )
            self._spaces[name] = (source, reference)
        return self._spaces[name]

    def reference_space(self, name: str) -> TemplateSpace:
        return self.spaces(name)[1]

    def source_draw(self, name: str, draw: Draw) -> Draw:
        """The draw of the source template that corresponds to a reference draw."""
        source, reference = self.spaces(name)
        derived = reference.features(draw)
        features = {}
        for front, dimension in source.free_order:
            text = f"{front}.{dimension}"
            feature = draw.features.get(text) or derived.get(front, {}).get(dimension)
            if feature is None:
                raise UnrenderableSource(
                    f"{self.templates[name].where}: the source leaves {text} free but the reference draw does not fix it"
                )
            features[text] = feature
        entries = {front: draw.entries[front] for front in source.fronts}
        return Draw(-1, features, entries)

    def render(self, name: str, draw: Draw) -> tuple[str, str]:
        """``(source, reference)`` strings of a reference draw; :class:`UnrenderableSource`
        when the source has no form for the reference's features."""
        source, reference = self.spaces(name)
        source_draw = self.source_draw(name, draw)
        try:
            source_text = source.render(source_draw)
        except TemplateError as error:
            raise UnrenderableSource(str(error)) from None
        return source_text, reference.render(draw)


def load_pairs(path: str | Path) -> PairSpec:
    path = Path(path)
    return PairSpec(read_data(path), str(path), path, yaml_lines(path))


def is_pair_spec(data: Any) -> bool:
    return isinstance(data, Mapping) and "source" in data and "reference" in data and "language" not in data


def load_any(path: str | Path) -> SpecFile | PairSpec:
    """A single-language spec file or a pair spec, by its keys."""
    path = Path(path)
    data = read_data(path)
    if is_pair_spec(data):
        return PairSpec(data, str(path), path, yaml_lines(path))
    spec = spec_from_mapping(data, str(path), path, yaml_lines(path))
    spec.digest = file_digest(path)
    return spec


def reference_space(spec: SpecFile | PairSpec, name: str) -> TemplateSpace:
    """The space a feature flip works on: the reference side of a pair, else the template."""
    return spec.reference_space(name) if isinstance(spec, PairSpec) else spec.space(name)

