"""``polarity-particle-nicht-del`` Zellig: delete the negation particle *nicht*.

Source: Sennrich (2017), LingEval97 ``polarity_particle_nicht_del``; Vamvas & Sennrich (2021),
DistilLingEval ``polarity_particle_nicht_del`` (a *plausible* hypothesis).

    Ob der Plan verabschiedet wird, ist nicht ausschlaggebend.
    → Ob der Plan verabschiedet wird, ist ausschlaggebend.

One candidate per *nicht* (STTS ``PTKNEG``, or the word *nicht* whatever its tag), including *nicht nur*,
*noch nicht*, *gar nicht*, and the hyphenated prefix *nicht-* (*der nicht-öffentliche Teil* → *der
öffentliche Teil*); *nichts* is a pronoun and is left alone.  The particle goes with one
adjacent space (*oder nicht.* → *oder.*); a sentence-initial *Nicht* hands its capital on
(*Nicht alle kamen.* → *Alle kamen.*); a *Nicht* followed by punctuation at the start of a sentence
(*Nicht, dass ...*) is not deleted.

``detect(text, source)``: the source negates (*not*, *n't*, *never*, *no* ...) but the German text has
no negation at all — decidable only with a source; ``False`` without one.
"""

from __future__ import annotations

from arena.sdk import Instance, Variant, make_variant
from performers.german.analysis import DEFAULT_BACKEND, analyze
from performers.german.negation import ENGLISH_NOT, negation_count
from performers.zellig.spans import delete_token, replace_token

PHENOMENON = "polarity_particle_nicht_del"


class PolarityParticleNichtDelZellig:
    """Delete one *nicht* (one candidate per occurrence)."""

    version = "1"

    def __init__(self, backend: str = DEFAULT_BACKEND) -> None:
        self.backend = backend

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants = []
        for token in analysis.tokens:
            if token.text.lower().startswith("nicht-") and len(token.text) > 7:
                # a hyphenated negation prefix: nicht-öffentlich, Nicht-Roma
                edit = replace_token(analysis, token, token.text[6:])
                variants.append(make_variant(instance, [edit], PHENOMENON, {"position": token.index}))
                continue
            if token.text.lower() != "nicht":
                continue
            edits = delete_token(analysis, token)
            if edits is None:
                continue
            variants.append(make_variant(instance, edits, PHENOMENON, {"position": token.index}))
        return variants

    def applies(self, source: str | None) -> bool:
        """The source has a negation particle or determiner."""
        return source is not None and ENGLISH_NOT.search(source) is not None

    def detect(self, text: str, source: str | None = None) -> bool:
        """The source has a negation particle or determiner and the translation no negation at all."""
        return self.applies(source) and negation_count(analyze(text, self.backend)) == 0
