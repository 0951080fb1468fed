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

from performers.german import inflection as inf
from performers.german.analysis import Analysis, Token, analyze
from performers.german.negation import GERMAN_DETERMINERS
from performers.zellig.polarity import Polarity, PolarityZellig, Site, substitutions


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


def ein_sites(analysis: Analysis, zellig: PolarityZellig) -> list[Site]:
    """*k* put before each indefinite article that may take it, a capital moved to it."""
    return substitutions(analysis, ein_articles(analysis), lambda word: inf.match_case(word, "k" + word.lower()))


def has_kein(zellig: PolarityZellig, text: str, source: str) -> bool:
    """The translation has a negative determiner or pronoun (*kein-*, *keinerlei*, *nichts*, *niemand*)."""
    return any(token.text.lower() in GERMAN_DETERMINERS for token in analyze(text, zellig.backend).tokens)


class PolarityParticleKeinInsZellig(PolarityZellig):
    """*ein-* → *kein-* (one candidate per indefinite article)."""

    version = "1"
    polarity = Polarity("kein", "ins", ein_sites, has_kein)
