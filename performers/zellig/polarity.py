"""The polarity Zelligs as one transformation over a (negator, direction) table.

Six Zelligs of LingEval97 change a translation's polarity: they delete (``del``) or insert (``ins``) one
negator — the prefix *un-* (``affix``), the determiner *kein-* or the particle *nicht*.  Each is a row,
:class:`Polarity`, declared with its Zellig (``performers/zellig/polarity_<negator>_<direction>.py``,
whose docstring gives its examples and source); :class:`PolarityZellig` is the transformation all six
run:

- ``corrupt``: one variant per site the row finds in the analysed reference (the site's edits and meta);
- ``applies(source)``: a deletion needs a source that negates as the row says; an insertion a source
  that negates nothing (:func:`performers.german.negation.negation_free`);
- ``detect(text, source)``: the source applies and the translation shows the row's change
  (undecidable, so ``False``, without a source).

:func:`table` lists the rows by (negator, direction).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from arena.sdk import Edit, Instance, Variant, make_variant
from performers.german.analysis import DEFAULT_BACKEND, Analysis, Token, analyze
from performers.german.negation import negation_free
from performers.zellig.spans import replace_token

Negator = Literal["affix", "kein", "nicht"]
Direction = Literal["del", "ins"]
# a place to change: the edits and the variant's meta
Site = tuple[Sequence[Edit], Mapping[str, Any]]


@dataclass(frozen=True)
class Polarity:
    """One row of the table: the negator, the direction, and what is particular to them.

    ``sites(analysis, zellig)``: the changes to a reference; ``source_negates(source)``: for a deletion,
    the source has the negation the translation must keep; ``shows(zellig, text, source)``: the
    translation shows the change (a missing negation for ``del``, an inserted one for ``ins``)."""

    negator: Negator
    direction: Direction
    sites: Callable[[Analysis, Any], Iterable[Site]]
    shows: Callable[[Any, str, str], bool]
    source_negates: Callable[[str], bool] | None = None

    @property
    def phenomenon(self) -> str:
        """LingEval97's name: ``polarity_affix_del``, ``polarity_particle_kein_ins`` …"""
        kind = "affix" if self.negator == "affix" else f"particle_{self.negator}"
        return f"polarity_{kind}_{self.direction}"


def substitutions(analysis: Analysis, tokens: Iterable[Token], rewrite: Callable[[str], str]) -> list[Site]:
    """One site per token, the token replaced by ``rewrite(token.text)``; meta records the token's
    position and original word."""
    return [([replace_token(analysis, token, rewrite(token.text))], {"position": token.index, "word": token.text})
            for token in tokens]


class PolarityZellig:
    """The transformation of a :class:`Polarity` row (``polarity``, set by each Zellig)."""

    polarity: ClassVar[Polarity]

    def __init__(self, backend: str = DEFAULT_BACKEND) -> None:
        self.backend = backend

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        phenomenon = self.polarity.phenomenon
        return [make_variant(instance, edits, phenomenon, meta) for edits, meta in self.polarity.sites(analysis, self)]

    def applies(self, source: str | None) -> bool:
        """A deletion: the source negates (as the row says); an insertion: the source negates nothing."""
        if self.polarity.direction == "ins":
            return negation_free(source)
        negates = self.polarity.source_negates
        return source is not None and negates is not None and negates(source)

    def detect(self, text: str, source: str | None = None) -> bool:
        """The source applies and the translation shows the row's change."""
        return source is not None and self.applies(source) and self.polarity.shows(self, text, source)


def table() -> dict[tuple[Negator, Direction], type[PolarityZellig]]:
    """The six polarity Zelligs by (negator, direction)."""
    from performers.zellig.polarity_affix_del import PolarityAffixDelZellig
    from performers.zellig.polarity_affix_ins import PolarityAffixInsZellig
    from performers.zellig.polarity_particle_kein_del import PolarityParticleKeinDelZellig
    from performers.zellig.polarity_particle_kein_ins import PolarityParticleKeinInsZellig
    from performers.zellig.polarity_particle_nicht_del import PolarityParticleNichtDelZellig
    from performers.zellig.polarity_particle_nicht_ins import PolarityParticleNichtInsZellig

    zelligs: list[type[PolarityZellig]] = [
        PolarityAffixDelZellig, PolarityAffixInsZellig, PolarityParticleKeinDelZellig, PolarityParticleKeinInsZellig,
        PolarityParticleNichtDelZellig, PolarityParticleNichtInsZellig,
    ]
    return {(zellig.polarity.negator, zellig.polarity.direction): zellig for zellig in zelligs}
