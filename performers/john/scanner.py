"""Running a Zellig (and, for machine references, validation) on a selection's instances on
demand, once each, counting what it found (:mod:`performers.john.selection`)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from arena.sdk import Instance, Variant, corrupt_one
from performers.john.selection_records import SelectionOptions
from performers.john.validation import KEPT, Check, ValidationCounts, validate


@dataclass
class Outcome:
    """What the Zellig (and validation) made of one scanned instance."""

    variants: dict[str, list[Variant]]  # phenomenon -> usable variants
    applicable: bool
    checks: dict[str, Check] | None = None


class Scanner:
    """Runs the Zellig (and validation) on instances on demand, once each."""

    def __init__(self, zellig: Any, options: SelectionOptions, progress: Any):
        self.zellig = zellig
        self.options = options
        self.progress = progress
        self.outcomes: dict[str, Outcome] = {}
        self.validation = ValidationCounts()
        self.duplicate_variants = 0
        self.validated = 0

    def __call__(self, instance: Instance) -> Outcome:
        outcome = self.outcomes.get(instance.id)
        if outcome is None:
            outcome = self._scan(instance)
            self.outcomes[instance.id] = outcome
            self.progress.update(1)
        return outcome

    def _scan(self, instance: Instance) -> Outcome:
        corruption = corrupt_one(self.zellig, instance)
        self.duplicate_variants += corruption.dropped
        variants = list(corruption.variants)
        human = instance.meta.get("human_reference")
        machine = instance.meta.get("reference_kind") == "machine"
        if not self.options.validate or not (machine or human is not None):
            groups: dict[str, list[Variant]] = defaultdict(list)
            for variant in variants:
                groups[variant.phenomenon].append(variant)
            return Outcome(dict(groups), bool(variants))
        if not isinstance(human, str) or not human.strip():
            # a machine reference without its human one cannot be checked
            checks = {
                phenomenon: Check(phenomenon, "dropped", "no_human_reference")
                for phenomenon in sorted({v.phenomenon for v in variants})
            }
            human_variants: list[Variant] = []
        else:
            human_instance = Instance(instance.id, instance.source, human, instance.meta)
            human_variants = list(corrupt_one(self.zellig, human_instance).variants)
            checks = validate(
                human, human_variants, instance.reference, variants,
                self.options.max_phrase_words, self.options.min_overlap,
            )
        if variants or human_variants:
            self.validated += 1
            self.validation.add(instance.id, checks)
        kept = {p: list(check.aligned) for p, check in checks.items() if check.status == KEPT and check.aligned}
        return Outcome(kept, bool(variants), checks)
