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

from performers.german.analysis import Analysis, analyze
from performers.german.negation import ENGLISH_NOT, negation_count
from performers.zellig.polarity import Polarity, PolarityZellig, Site
from performers.zellig.spans import delete_token, replace_token


def nicht_sites(analysis: Analysis, zellig: PolarityZellig) -> list[Site]:
    """Each *nicht* deleted, each hyphenated prefix *nicht-* dropped."""
    sites: list[Site] = []
    for token in analysis.tokens:
        if token.text.lower().startswith("nicht-") and len(token.text) > 7:
            # a hyphenated negation prefix: nicht-öffentlich, Nicht-Roma
            sites.append(([replace_token(analysis, token, token.text[6:])], {"position": token.index}))
            continue
        if token.text.lower() != "nicht":
            continue
        edits = delete_token(analysis, token)
        if edits is not None:
            sites.append((edits, {"position": token.index}))
    return sites


def no_negation(zellig: PolarityZellig, text: str, source: str) -> bool:
    """The translation has no negation at all."""
    return negation_count(analyze(text, zellig.backend)) == 0


class PolarityParticleNichtDelZellig(PolarityZellig):
    """Delete one *nicht* (one candidate per occurrence)."""

    version = "1"
    polarity = Polarity("nicht", "del", nicht_sites, no_negation,
                        source_negates=lambda source: ENGLISH_NOT.search(source) is not None)
