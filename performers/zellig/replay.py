"""``replay`` Zellig: yields the pre-made corruptions a John attached to an instance.

Johns that read contrastive test sets (``lingeval97``, ``distil-lingeval``) put each
published contrastive translation into ``Instance.meta["variants"]`` as
``{"text": ..., "phenomenon": ..., "meta": {...}}``; this Zellig turns them into
:class:`~arena.records.Variant` objects with edits derived from the reference, so a
published test set can be played in the arena unchanged.

Example (DistilLingEval placeholder_ding):
*Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.* →
*Die Prager Börse stürzt gegen Ding ins Minus.*
"""

from __future__ import annotations

from arena.edits import variant_from_text
from arena.records import Instance, Variant


class ReplayZellig:
    """Replays ``Instance.meta["variants"]``; ``phenomena`` keeps only those labels."""

    version = "1"

    def __init__(self, phenomena: list[str] | None = None):
        if phenomena is not None and (not isinstance(phenomena, list) or not all(isinstance(p, str) for p in phenomena)):
            raise TypeError("phenomena must be a list of phenomenon labels")
        self.phenomena = set(phenomena) if phenomena else None

    def corrupt(self, instance: Instance) -> list[Variant]:
        result = []
        for index, item in enumerate(instance.meta.get("variants", ())):
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise ValueError(f"instance {instance.id}: meta.variants[{index}] needs a 'text' string")
            phenomenon = item.get("phenomenon", "unknown")
            if self.phenomena is not None and phenomenon not in self.phenomena:
                continue
            result.append(variant_from_text(instance, item["text"], phenomenon, item.get("meta")))
        return result
