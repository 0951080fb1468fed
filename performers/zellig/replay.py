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

from typing import Annotated

from arena.sdk import ConditionalDetector, ConfigError, Instance, Name, Performer, Variant, variant_from_text


class ReplayZellig:
    """Replays ``Instance.meta["variants"]``; ``phenomena`` keeps only those labels.

    ``detector``: a Zellig (a SPEC such as ``placeholder-ding``) whose ``detect`` this
    Zellig offers as its own, so that a published test set gets a generative rate: how
    often the model's own translations show the phenomenon the set tests.
    """

    version = "2"  # 2: edits from arena.edits version 2 (rapidfuzz alignment, docs/exports.md)

    def __init__(self, phenomena: list[Name] | None = None,
                 detector: Annotated[str, Performer("zellig", ("detect",))] | None = None):
        self.phenomena = set(phenomena) if phenomena else None
        self.detector_spec = detector
        self._detector = None
        if detector is not None:
            from arena.sdk import parse_spec, validate
            from performers.catalog import CATALOG

            cls = validate("zellig", parse_spec(detector, where="replay detector"), CATALOG, where="replay detector",
                           needs=("detect",))
            # offered only when configured: the arena asks a Zellig for a generative
            # rate exactly when it has a callable `detect` (and counts only the sources
            # a detector `applies` to when it has that too)
            self.detect = self._detect
            if issubclass(cls, ConditionalDetector):
                self.applies = self._applies

    def _built(self):
        """The ``detector`` Zellig and whether its ``detect`` takes the source, built on first use."""
        if self._detector is None:
            import inspect

            from arena.sdk import build, parse_spec
            from performers.catalog import CATALOG

            zellig = build("zellig", parse_spec(self.detector_spec), CATALOG, where="replay detector")
            takes_source = "source" in inspect.signature(zellig.detect).parameters
            self._detector = (zellig, takes_source)
        return self._detector

    def _detect(self, text: str, source: str | None = None) -> bool:
        """The ``detector`` Zellig's verdict on ``text``."""
        zellig, takes_source = self._built()
        return bool(zellig.detect(text, source=source) if takes_source else zellig.detect(text))

    def _applies(self, source: str | None) -> bool:
        """Whether the ``detector`` Zellig's phenomenon is possible for ``source``."""
        return bool(self._built()[0].applies(source))

    def corrupt(self, instance: Instance) -> list[Variant]:
        result = []
        for index, item in enumerate(instance.meta.get("variants", ())):
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise ConfigError(f"instance {instance.id}: meta.variants[{index}] needs a 'text' string")
            phenomenon = item.get("phenomenon", "unknown")
            if self.phenomena is not None and phenomenon not in self.phenomena:
                continue
            result.append(variant_from_text(instance, item["text"], phenomenon, item.get("meta")))
        return result
