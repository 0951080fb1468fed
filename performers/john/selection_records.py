"""The records of a test-set selection (:mod:`performers.john.selection`): its options, the
selected instances, the reasons an instance is left out, and the stratum of an instance."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from arena.sdk import ConfigError, Instance, Variant
from performers.john.validation import Check

DEDUP_MODES = ("source", "pair", "none")
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

    cap: int | None = None
    seed: int = 1
    stratify: str | None = "origin"
    dedup: str = "source"
    min_words: int | None = None
    max_words: int | None = None
    variants_per_instance: int | None = 1
    validate: bool = True
    phenomena: tuple[str, ...] | None = None
    max_phrase_words: int = 5
    min_overlap: float = 0.5
    prefilter: str | None = None

    def __post_init__(self) -> None:
        for name in ("cap", "min_words", "max_words", "variants_per_instance"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ConfigError(f"{name} must be a positive integer or null, not {value!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an integer, not {self.seed!r}")
        if self.dedup not in DEDUP_MODES:
            raise ConfigError(f"dedup must be one of {', '.join(DEDUP_MODES)}, not {self.dedup!r}")
        if self.min_words is not None and self.max_words is not None and self.min_words > self.max_words:
            raise ConfigError(f"min_words ({self.min_words}) is larger than max_words ({self.max_words})")
        if self.stratify is not None and (not isinstance(self.stratify, str) or not self.stratify):
            raise ConfigError("stratify must be a metadata key (e.g. origin) or null")
        if not isinstance(self.validate, bool):
            raise ConfigError(f"validate must be true or false, not {self.validate!r}")
        if isinstance(self.max_phrase_words, bool) or not isinstance(self.max_phrase_words, int) or self.max_phrase_words < 1:
            raise ConfigError(f"max_phrase_words must be a positive integer, not {self.max_phrase_words!r}")
        if not isinstance(self.min_overlap, (int, float)) or not 0 < self.min_overlap <= 1:
            raise ConfigError(f"min_overlap must be a number in (0, 1], not {self.min_overlap!r}")
        if self.prefilter is not None:
            if not isinstance(self.prefilter, str) or not self.prefilter:
                raise ConfigError("prefilter must be a regular expression (a string) or null")
            try:
                re.compile(self.prefilter)
            except re.error as error:
                raise ConfigError(f"prefilter {self.prefilter!r} is not a valid regular expression: {error}") from None
        if self.phenomena is not None:
            if isinstance(self.phenomena, str) or not all(isinstance(p, str) and p for p in self.phenomena):
                raise ConfigError("phenomena must be a list of phenomenon labels")
            object.__setattr__(self, "phenomena", tuple(self.phenomena))

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
