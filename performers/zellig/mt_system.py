"""``mt-system`` Zellig: y is a machine translation of the source, so Claude must tell
the human reference from MT output (Smith 2012, §4.3: a text-generating system as
Zellig, the source as metadata m).

Source: Smith (2012) §4.3; the outputs are the WMT evaluation outputs published with
the Firefox Translations models (``../shared/data/wmt/mt-outputs``).

    Die Polizei hat den Mann festgenommen.  →  Die Polizei verhaftete den Mann.   (an MT system's output)

The candidate is the output of one ``system`` (``google``, ``microsoft``,
``bergamot-base``, ``bergamot-tiny``) from ``outputs`` (a directory of
``wmtYY.{en,de,SYSTEM.de}`` files; the instance's source is looked up by text in the
year of its ``meta["year"]``, else in every year), or the 1-best (beam ``beam``) of
a scoring Claude ``claude`` (e.g. ``toy-en-de``), translated per block and kept
per source.  The variant's edits are the word-level differences from the reference
(:func:`arena.edits.diff_edits`), its ``meta`` names the system.  When the output
equals the reference there is no candidate (``[]``).

The two versions of §4.3 are two visibilities of the Claude, not two Zelligs:
``sees: {source: true}`` (adequacy: the Claude judges with the source) and
``sees: {source: false}`` (fluency: the Claude scores the targets without it).
"""

from __future__ import annotations

from typing import Any

from arena.sdk import (
    ConfigError,
    ExistingDir,
    Instance,
    Name,
    NestedTranslatingClaude,
    PositiveInt,
    Variant,
    variant_from_text,
)
from performers.john.mt_reference import MTOutputs
from performers.nested import build_nested

PHENOMENON = "mt_output"


class MTSystemZellig:
    """Params: ``outputs`` (directory) with ``system``, or ``claude`` (a scoring
    Claude SPEC) with ``beam`` (the beam size of its
    translations, default 5)."""

    version = "2"  # 2: edits from arena.edits version 2 (rapidfuzz alignment, docs/exports.md)

    def __init__(self, outputs: ExistingDir | None = None, system: Name | None = None, claude: NestedTranslatingClaude = None,
                 beam: PositiveInt = 5):
        if (outputs is None) == (claude is None):
            raise ConfigError("mt-system needs exactly one source of translations: 'outputs' (with 'system') or 'claude'")
        if outputs is not None and (not isinstance(system, str) or not system):
            raise ConfigError("mt-system: 'outputs' needs a 'system', e.g. system=google")
        if claude is not None and system is not None:
            raise ConfigError("mt-system: 'system' names an output file; it does not go with 'claude'")
        self.outputs = MTOutputs(outputs, [system]) if outputs is not None and isinstance(system, str) else None
        self.system = system
        self.claude_spec = claude
        self.beam = beam
        self._claude: Any = None
        self._translations: dict[str, str] = {}

    def translation(self, instance: Instance) -> tuple[str, str] | None:
        """The machine translation of the instance's source and the system's name."""
        if self.outputs is not None:
            found = self.outputs.locate(instance)
            if isinstance(found, str):
                return None
            files, line = found
            return files.outputs[str(self.system)][line].strip(), str(self.system)
        if self._claude is None:
            spec, self._claude = build_nested("claude", self.claude_spec, where="mt-system: claude")
            self._claude_label = spec.label
        if instance.source not in self._translations:
            self._translations[instance.source] = self._claude.translate([instance.source], beam=self.beam)[0]
        return self._translations[instance.source], self._claude_label

    def corrupt(self, instance: Instance) -> list[Variant]:
        found = self.translation(instance)
        if found is None or found[0] == instance.reference or not found[0]:
            return []
        text, system = found
        return [variant_from_text(instance, text, PHENOMENON, {"system": system})]

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_claude"] = None  # built again where it runs
        return state
