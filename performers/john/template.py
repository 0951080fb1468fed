"""``template`` John: translation pairs generated from M2C-style template pairs.

Reads a pair spec (:mod:`performers.m2c.pairs`: an English source template and a
German reference template sharing placeholders) and yields one instance per distinct
``(source, reference)`` pair: every pair of each template (``n`` unset) or ``n`` pairs
per template sampled without replacement with ``random.Random(seed)``.

Ids are ``<template>.<rank>``, the rank of the reference draw in the template's
enumeration, so they do not depend on ``n`` or ``seed``.  ``meta`` carries what the
``feature-flip`` Zellig needs to re-generate the reference: ``spec`` (the path as
given) and ``spec_sha256``, ``template``, ``draw`` (free features and entries) and the
drawn ``features`` of every placeholder (``{"obj1": {"GENDER": "NEUT", "NUMBER": "SG"}}``).
Draws whose source the source template cannot render (no English form for a German
feature) are skipped and counted in the log.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from arena.sdk import ConfigError, ExistingFile, Instance, Name, PositiveInt

logger = logging.getLogger(__name__)


class TemplateJohn:
    """Instances from the templates of a pair spec; ``templates`` selects some by name.

    Params: ``spec`` (the pair spec JSON), ``templates``, ``n`` (pairs
    per template; unset: every pair), ``seed`` (seeds the sampling of the ``n`` pairs), ``plugins``
    (modules that register further M2C functions and dimensions)."""

    version = "1"

    def __init__(
        self,
        spec: ExistingFile,
        templates: list[Name] | None = None,
        n: PositiveInt | None = None,
        seed: int = 1,
        plugins: list[Name] | None = None,
    ):
        from performers.m2c.features import TemplateError
        from performers.m2c.pairs import load_pairs
        from performers.m2c.registry import load_plugins

        try:
            load_plugins(plugins or ())
            self.pairs = load_pairs(spec)
            self.templates = list(templates) if templates else self.pairs.names
            for name in self.templates:
                self.pairs.spaces(name)  # compile now: template errors surface when the John is built
        except TemplateError as error:
            raise ConfigError(str(error)) from None
        self.spec, self.n, self.seed = spec, n, seed
        self.skipped: dict[str, int] = {}

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> str | None:
        """The spec file compiles and names every template asked for (what building checks)."""
        if not Path(str(params.get("spec", ""))).is_file():
            return None  # the spec's own type names the missing file
        try:
            cls(**params)
        except ConfigError as error:
            return str(error)
        return None

    def instances(self) -> Iterator[Instance]:
        from performers.m2c.pairs import UnrenderableSource

        for name in self.templates:
            source_space, space = self.pairs.spaces(name)
            skipped = 0

            def key(draw, name=name):
                nonlocal skipped
                try:
                    return self.pairs.render(name, draw)
                except UnrenderableSource:
                    skipped += 1
                    return None

            if self.n is None:
                chosen = []
                seen = set()
                for draw in space.draws():
                    pair = key(draw)
                    if pair is not None and pair not in seen:
                        seen.add(pair)
                        chosen.append((pair, draw))
            else:
                chosen = space.sample_draws(self.n, self.seed, key)
            self.skipped[name] = skipped
            if skipped:
                logger.warning("template %s: %d draws skipped: the source template has no form for them", name, skipped)
            if self.n is not None and len(chosen) < self.n:
                logger.info("template %s: %d distinct pairs (asked for %d)", name, len(chosen), self.n)
            for (source, reference), draw in chosen:
                yield Instance(
                    f"{name}.{draw.rank}",
                    source,
                    reference,
                    {
                        "origin": f"m2c-template:{self.pairs.name}",
                        "reference_kind": "template",
                        "spec": str(self.spec),
                        "spec_sha256": self.pairs.digest,
                        "template": name,
                        "draw": draw.to_json(),
                        "features": space.features(draw),
                        "source_language": self.pairs.source_language.code,
                        "reference_language": self.pairs.reference_language.code,
                    },
                )
