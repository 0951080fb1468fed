"""``polarity-particle-kein-del`` Zellig: replace the negative determiner *kein-* by its positive
counterpart *ein-*, keeping the ending (and so the case).

Source: Sennrich (2017), LingEval97 ``polarity_particle_kein_del`` ("replacing the negative determiner
*kein* with its positive counterpart *ein*"); DistilLingEval ``polarity_particle_kein_del``.

    Das ist keine gute Idee.        →  Das ist eine gute Idee.
    Er hatte keinen Zweifel daran.  →  Er hatte einen Zweifel daran.

Where it applies: every form of *kein* (*kein, keine, keinen, keinem, keiner, keines*), attributive or
standing alone (*Keiner von ihnen*, *keine der Parteien*): *k* is dropped and the capital moves to the
new first letter (*Keine* → *Eine*).  One candidate per *kein-* token.

Filters: *ein* has no plural, so a *kein-* whose noun phrase can only be plural (*keine Probleme*) is not
changed (*eine Probleme* would be an agreement error, not a polarity change); the noun phrase's number
comes from the article and the head noun (:mod:`performers.german.inflection`).

``detect(text, source)`` (version 2, issue 25): the English source has a negation (*not*, *n't*, *no* — not
*no matter* —, *never*, *none*, *nobody*, *nothing*, *neither*, *nor*, *nowhere*, *without*, *cannot*) and
the German text has an indefinite article word *ein-* (what a deleted *k* leaves) and fewer negating words
(*nicht*, *kein-*, *keinerlei*, *niemand*, *nichts*, *nie*, *niemals*, *weder*, *nirgends*, *ohne*,
*nimmer*, *kaum*, *unmöglich*) than the source has negations — decidable only with a source; ``False``
without one.  *None of the other parties …* → *Eine andere Partei …* fires.  Version 1 required a negated
noun phrase in the source (*no*, *none*, *not … any*) and found about half of the published variants;
on the held-back (odd-numbered) lines of DistilLingEval's sets this one finds ≥ 0.8 at ≤ 2% false alarms
on their correct sides (``experiments/bench/detectors.py --split heldback``).
"""

from __future__ import annotations

import re

from performers.german import inflection as inf
from performers.german import noun_inflection as noun_inf
from performers.german.analysis import Analysis, Token
from performers.german.syntax import np_head
from performers.zellig.polarity import Polarity, PolarityZellig, Site, substitutions

ENGLISH_NEGATION = re.compile(
    r"\b(?:not|no(?! matter\b)|never|none|nobody|nothing|neither|nor|nowhere|without|cannot)\b|n't\b", re.IGNORECASE
)
GERMAN_NEGATION = re.compile(
    r"^(?:nicht|kein(?:e|en|em|er|es)?|keinerlei|niemand(?:en|em|es)?|nichts|nie|niemals|weder|nirgends|nirgendwo"
    r"|ohne|nimmer|kaum|unmöglich\w*)$",
    re.IGNORECASE,
)
INDEFINITE = re.compile(r"^(?:ein|eine|einen|einem|einer|eines)$", re.IGNORECASE)
WORD = re.compile(r"\w+")


def only_plural(analysis: Analysis, token: Token) -> bool:
    """Whether the noun phrase of the article word ``token`` can only be plural."""
    readings = inf.determiner_readings(token.text)
    if not readings or all(r.number == "PL" for r in readings):
        return bool(readings)
    if all(r.number == "SG" for r in readings):
        return False
    head = np_head(analysis.tokens, token.index)
    if head is None:
        return False
    noun = noun_inf.noun_analyses(analysis.tokens[head].text)
    if not noun:
        return False
    agreeing = {
        number
        for r in readings
        for number, gender, case in noun
        if number == r.number and case == r.case and (number == "PL" or gender == r.gender)
    }
    return agreeing == {"PL"}


def kein_forms(analysis: Analysis) -> list[Token]:
    """The *kein-* tokens of ``analysis`` that may become *ein-*."""
    out = []
    for token in analysis.tokens:
        readings = inf.determiner_readings(token.text)
        if not readings or readings[0].lemma != "kein":
            continue
        if only_plural(analysis, token):
            continue
        out.append(token)
    return out


def kein_sites(analysis: Analysis, zellig: PolarityZellig) -> list[Site]:
    """*k* dropped from each *kein-* that may lose it, its capital handed on."""
    return substitutions(analysis, kein_forms(analysis), lambda word: inf.match_case(word, word[1:].lower()))


def ein_without_negation(zellig: PolarityZellig, text: str, source: str) -> bool:
    """The translation has an *ein-* and fewer negating words than the source has negations."""
    words = WORD.findall(text)
    found = sum(1 for word in words if GERMAN_NEGATION.match(word))
    return found < len(ENGLISH_NEGATION.findall(source)) and any(INDEFINITE.match(word) for word in words)


class PolarityParticleKeinDelZellig(PolarityZellig):
    """*kein-* → *ein-* (one candidate per *kein-* token)."""

    version = "2"
    polarity = Polarity("kein", "del", kein_sites, ein_without_negation,
                        source_negates=lambda source: ENGLISH_NEGATION.search(source) is not None)
