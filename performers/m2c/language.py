"""A language as data: dimensions, rules, modifiers and post-processing.

In a spec file (the layout of ``../shared/data/m2c/m2c_<lang>.json``)::

    language: de
    language_name: GERMAN
    dimensions: {NUMBER: [SG, PL], GENDER: [FEM, MASC, NEUT], CASE: [NOM, GEN, DAT, ACC], ...}
    dimension_properties: {ORDER: {sampleable: false}, STARTSWITH: {callable: true}}
    rules:
      ART: {SG.DEF.MASC.NOM: der, SG.DEF.MASC.DAT: dem, PL.DEF.NOM: die, ...}
    modifiers: {TO_CAPITALIZE: "..."}      # names of registered modifiers (values describe them)
    post_processing: m2c                    # or none, or a list of registered step names

A callable (computed) dimension needs a Python function registered for the language
(:func:`performers.m2c.registry.register_dimension`).  M2C's fixture files describe
their post-processing in prose; a file whose ``format`` is ``m2c-template-fixtures/1``
gets M2C's pipeline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from performers.m2c import registry
from performers.m2c.features import Dimensions, TemplateError, dimensions_from_mapping
from performers.m2c.tables import FeatureTable, table_from_mapping

M2C_FIXTURE_FORMAT = "m2c-template-fixtures/1"


@dataclass
class Language:
    """Dimensions, rules (feature tables such as articles), modifier functions and the
    post-processing applied to every generated string."""

    code: str
    dimensions: Dimensions
    rules: Mapping[str, FeatureTable] = field(default_factory=dict)
    modifiers: Mapping[str, Callable[[str], str]] = field(default_factory=dict)
    steps: tuple[str, ...] = registry.M2C_STEPS
    name: str = ""

    def __post_init__(self) -> None:
        self._steps = tuple(registry.step(name) for name in self.steps)
        self._computed: dict[str, Callable[[str], str | None]] = {}

    def postprocess(self, text: str) -> str:
        for fn in self._steps:
            text = fn(text)
        return text

    def compute(self, dimension: str, where: str = "") -> Callable[[str], str | None]:
        """The registered function of a computed dimension (looked up once)."""
        if dimension not in self._computed:
            self._computed[dimension] = registry.dimension_function(dimension, self.code, where)
        return self._computed[dimension]


LANGUAGE_KEYS = {
    "language", "language_name", "dimensions", "dimension_properties", "rules", "modifiers", "post_processing",
}
DESCRIPTIVE_KEYS = {"format", "rule_properties", "provenance", "items_file", "items_note", "description", "name"}


def language_from_mapping(data: Any, where: str, fixture: bool | None = None) -> Language:
    """Build a :class:`Language` from a spec's language section."""
    if not isinstance(data, Mapping):
        raise TemplateError(f"{where}: a language section must be a mapping")
    if fixture is None:
        fixture = data.get("format") == M2C_FIXTURE_FORMAT
    code = data.get("language")
    if not isinstance(code, str) or not code:
        raise TemplateError(f"{where}: 'language' (a language code such as de) is required")
    if "dimensions" not in data:
        raise TemplateError(f"{where}: 'dimensions' is required ({{NAME: [features]}})")
    dimensions = dimensions_from_mapping(
        data["dimensions"], data.get("dimension_properties"), where=f"{where}: dimensions"
    )
    rules_data = data.get("rules") or {}
    if not isinstance(rules_data, Mapping):
        raise TemplateError(f"{where}: 'rules' must be a mapping of NAME: {{bundle: value}}")
    rules = {}
    for rule_name, table in rules_data.items():
        if not isinstance(rule_name, str) or not rule_name.isidentifier() or rule_name[-1].isdigit():
            raise TemplateError(f"{where}: rules: {rule_name!r} is not a valid rule name (no trailing digits)")
        rules[rule_name] = table_from_mapping(table, dimensions, where=f"{where}: rules.{rule_name}")
    modifiers_data = data.get("modifiers")
    if modifiers_data is None:
        names = ["TO_CAPITALIZE"]
    elif isinstance(modifiers_data, Mapping):
        names = list(modifiers_data)
    elif isinstance(modifiers_data, list) and all(isinstance(name, str) for name in modifiers_data):
        names = list(modifiers_data)
    else:
        raise TemplateError(f"{where}: 'modifiers' must be a list of registered modifier names")
    modifiers = {name: registry.modifier(name, where=f"{where}: modifiers") for name in names}
    steps = _steps(data.get("post_processing"), fixture, where)
    return Language(code, dimensions, rules, modifiers, steps, name=str(data.get("language_name") or code))


def _steps(value: Any, fixture: bool, where: str) -> tuple[str, ...]:
    if value is None or value == "m2c":
        return registry.M2C_STEPS
    if value == "none":
        return ()
    if fixture:
        # M2C's fixture files describe Language.post_processing in prose
        return registry.M2C_STEPS
    if isinstance(value, list) and all(isinstance(step, str) for step in value):
        for step in value:
            registry.step(step, where=f"{where}: post_processing")
        return tuple(value)
    raise TemplateError(
        f"{where}: 'post_processing' must be 'm2c', 'none' or a list of step names "
        f"({', '.join(registry.M2C_STEPS)})"
    )
