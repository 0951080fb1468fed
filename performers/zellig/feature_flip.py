"""``feature-flip`` Zellig: break agreement in a template-generated reference by
flipping one morphological feature of one slot and re-generating.

Works on instances of the ``template`` John (or any instance whose ``meta`` has
``spec``, ``template`` and ``draw`` of an M2C-style template, see
:mod:`performers.m2c`).  For every slot occurrence whose feature comes from agreement
— with another placeholder (``{ART1.NOM.DEF.<obj1.NUMBER.GENDER>}``), an inline choice
(``{ist:obj1.SG|sind:obj1.PL}``), a conditional feature, or a free feature other slots
share (the noun ``{obj1}`` itself) — and for every other feature of that dimension, the
reference is rendered again with that one occurrence changed.  Each different string
is a candidate, labelled ``feature_flip`` with ``meta["dimension"]`` the dimension it
breaks (GENDER, NUMBER, CASE …), so accuracy can be reported per dimension.

Example (GENDER of the article, M2C ``spatial`` template):
*Das Buch liegt auf dem Tisch.* → *Der Buch liegt auf dem Tisch.*
Example (NUMBER of the verb): *Das Buch liegt auf dem Tisch.* → *Das Buch liegen auf dem Tisch.*

Source: the morphological minimal pairs of M2C (Hlavnova & Ruder 2023), in the
spirit of LingEval97's ``np_agreement`` and ``subj_verb_agreement`` categories
(Sennrich 2017).
"""

from __future__ import annotations

from typing import Any

from arena.sdk import ConfigError, ExistingFile, Instance, Name, Variant, variant_from_text

PHENOMENON = "feature_flip"


class FeatureFlipZellig:
    """Every single-feature flip of an agreeing slot.

    Params: ``dimensions`` (flip only these dimensions, for example ``[GENDER]``; unset:
    all), ``spec`` (a pair spec JSON that overrides the spec path in the instances),
    ``plugins`` (modules that register further M2C functions and dimensions)."""

    version = "2"  # 2: edits from arena.edits version 2 (rapidfuzz alignment, docs/exports.md)

    def __init__(self, dimensions: list[Name] | None = None, spec: ExistingFile | None = None, plugins: list[Name] | None = None):
        self.dimensions = tuple(dimensions) if dimensions else None
        self.spec = spec
        self.plugins = list(plugins or ())
        self._specs: dict[str, Any] = {}

    def _load(self, path: str, digest: str | None, instance_id: str):
        from performers.m2c.features import TemplateError
        from performers.m2c.pairs import load_any
        from performers.m2c.registry import load_plugins

        if path not in self._specs:
            try:
                load_plugins(self.plugins)
                self._specs[path] = load_any(path)
            except TemplateError as error:
                raise ConfigError(f"instance {instance_id}: {error}") from None
        spec = self._specs[path]
        if digest and spec.digest and digest != spec.digest:
            raise ConfigError(
                f"instance {instance_id}: {path} changed since the instance was generated "
                f"(sha256 {spec.digest[:12]} != {digest[:12]}); regenerate the instances"
            )
        return spec

    def corrupt(self, instance: Instance) -> list[Variant]:
        from performers.m2c.features import TemplateError
        from performers.m2c.pairs import reference_space
        from performers.m2c.space import Draw

        meta = instance.meta
        if not all(key in meta for key in ("template", "draw")) or not (self.spec or meta.get("spec")):
            return []
        path = self.spec or meta["spec"]
        spec = self._load(path, None if self.spec else meta.get("spec_sha256"), instance.id)
        try:
            space = reference_space(spec, meta["template"])
            draw = Draw.from_json(meta["draw"])
            rendered = space.render(draw)
        except TemplateError as error:
            raise ConfigError(f"instance {instance.id}: {error}") from None
        if rendered != instance.reference:
            raise ConfigError(
                f"instance {instance.id}: the draw renders {rendered!r}, not the reference {instance.reference!r}; "
                f"was {path} edited?"
            )
        variants = []
        for flip in space.flips(draw, self.dimensions):
            target = flip.target
            variants.append(
                variant_from_text(
                    instance,
                    flip.text,
                    PHENOMENON,
                    {
                        "dimension": target.dimension,
                        "from": flip.before,
                        "to": flip.after,
                        "slot": target.key,
                        "slot_kind": target.kind,
                        "front": target.front if not target.front.startswith("<") else None,  # placeholder or rule
                        "agrees_with": target.source,
                        "form_before": flip.value_before,
                        "form_after": flip.value_after,
                        "template": meta["template"],
                    },
                )
            )
        return variants
