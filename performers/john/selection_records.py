"""The records of a test-set selection (:mod:`performers.john.selection`): its options, the
selected instances, the reasons an instance is left out, and the stratum of an instance."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any, Literal

from annotated_types import Gt, Le

from arena.sdk import ConfigError, Instance, Name, PositiveInt, Variant, check_fields
from performers.john.validation import Check

Dedup = Literal["source", "pair", "none"]
NO_STRATUM = "(none)"

# exclusive reasons, in the order they are decided
REASONS = (
    "too_short",
    "too_long",
    "line_break",
    "duplicate",
    "prefiltered",
    "not_scanned",
    "zellig_not_applicable",
    "rejected_by_validation",
    "over_cap",
    "selected",
)


@dataclass(frozen=True)
class SelectionOptions:
    """How :func:`select` chooses (see the module docstring)."""

    cap: PositiveInt | None = None
    seed: int = 1
    stratify: Name | None = "origin"
    dedup: Dedup = "source"
    min_words: PositiveInt | None = None
    max_words: PositiveInt | None = None
    variants_per_instance: PositiveInt | None = 1
    validate: bool = True
    phenomena: tuple[Name, ...] | None = None
    max_phrase_words: PositiveInt = 5
    min_overlap: Annotated[float, Gt(0), Le(1)] = 0.5
    prefilter: Name | None = None

    def __post_init__(self) -> None:
        if isinstance(self.phenomena, list):
            object.__setattr__(self, "phenomena", tuple(self.phenomena))
        check_fields(self)  # the declared types and ranges above; built by the CLI and the select John
        if self.min_words is not None and self.max_words is not None and self.min_words > self.max_words:
            raise ConfigError(f"min_words ({self.min_words}) is larger than max_words ({self.max_words})")
        if self.prefilter is not None:
            try:
                re.compile(self.prefilter)
            except re.error as error:
                raise ConfigError(f"prefilter {self.prefilter!r} is not a valid regular expression: {error}") from None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["phenomena"] = list(self.phenomena) if self.phenomena is not None else None
        return data


@dataclass(frozen=True)
class Selected:
    """One selected instance: its chosen variants (of every phenomenon it was selected
    for, in the Zellig's order) and, for machine references, the validation checks."""

    instance: Instance
    variants: tuple[Variant, ...]
    phenomena: tuple[str, ...]
    stratum: str
    validation: Mapping[str, Check] | None = None


@dataclass
class Selection:
    """The selected instances (in the John's order) and the report of what was left
    out and why."""

    items: list[Selected]
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def pairs(self) -> int:
        return sum(len(item.variants) for item in self.items)


def stratum_of(instance: Instance, key: str | None) -> str:
    if key is None:
        return NO_STRATUM
    value = instance.meta.get(key)
    return NO_STRATUM if value is None else str(value)
