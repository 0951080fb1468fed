"""``polarity-particle-kein-ins`` Zellig: replace the indefinite article *ein-* by the negative
determiner *kein-*, keeping the ending (and so the case).

Source: Sennrich (2017), LingEval97 ``polarity_particle_kein_ins`` ("replacing the determiner *ein*
with its negative counterpart *kein*").

    Er hat einen Hund gekauft.   →  Er hat keinen Hund gekauft.
    Eine Lösung ist in Sicht.    →  Keine Lösung ist in Sicht.

Where it applies: an indefinite article (STTS ``ART``; *ein, eine, einen, einem, einer, eines*) whose
form is in the indefinite paradigm of ``data/declension.yaml``: *k* is prefixed and a capital moves to it
(*Eine* → *Keine*).  One candidate per article.

Filters: numerals and pronouns are left alone (*ein* tagged ``CARD``, *einer der* tagged ``PIS``), as are
articles already under negation scope of *nicht* directly before (*nicht ein einziges Mal*), where
*nicht kein-* would be a double negation rather than a polarity change; the separable particle *ein*
(*stellt … ein*, ``PTKVZ``) never matches because only ``ART`` tokens are used.
"""

from __future__ import annotations

from arena.sdk import Instance, Variant
from performers.german import inflection as inf
from performers.german.analysis import DEFAULT_BACKEND, Analysis, Token, analyze
from performers.german.negation import GERMAN_DETERMINERS, negation_free
from performers.zellig.spans import token_substitutions

PHENOMENON = "polarity_particle_kein_ins"


def ein_articles(analysis: Analysis) -> list[Token]:
    """The indefinite articles of ``analysis`` that may become *kein-*."""
    out = []
    for token in analysis.tokens:
        if token.pos != "ART":
            continue
        readings = inf.determiner_readings(token.text)
        if not readings or readings[0].lemma != "ein":
            continue
        previous = analysis.tokens[token.index - 1] if token.index > 0 else None
        if previous is not None and previous.sentence == token.sentence and previous.text.lower() == "nicht":
            continue
        out.append(token)
    return out


class PolarityParticleKeinInsZellig:
    """*ein-* → *kein-* (one candidate per indefinite article)."""

    version = "1"

    def __init__(self, backend: str = DEFAULT_BACKEND) -> None:
        self.backend = backend

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        return token_substitutions(
            instance, analysis, ein_articles(analysis), lambda word: inf.match_case(word, "k" + word.lower()), PHENOMENON
        )

    def applies(self, source: str | None) -> bool:
        """The source negates nothing (no *not*, *no*, *never*, *un-* word, ...)."""
        return negation_free(source)

    def detect(self, text: str, source: str | None = None) -> bool:
        """The source negates nothing and the translation has a negative determiner or pronoun (*kein-*,
        *keinerlei*, *nichts*, *niemand*)."""
        return self.applies(source) and any(
            token.text.lower() in GERMAN_DETERMINERS for token in analyze(text, self.backend).tokens
        )
