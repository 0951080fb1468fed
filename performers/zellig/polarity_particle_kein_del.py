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

``detect(text, source)``: the English source negates a noun phrase (*no*, *none*, *nobody*, *nothing*,
*neither*, *no one*, *not a/an/one/a single*, *not/n't/cannot/never/no longer … any* within five words; not the
idioms *no longer*, *no more*, *no matter*, *no doubt*) and the German text has fewer negating article
words, pronouns and *ohne* (*kein-*, *keinerlei*, *niemand*, *nichts*, *nie*, *weder*, *nirgends*, *ohne*:
*with no gardens* → *ohne Gärten*) than the source has such negations — decidable only
with a source; ``False`` without one.  *None of the other parties …* → *Eine andere Partei …* fires.
"""

from __future__ import annotations

import re

from arena.records import Instance, Variant
from performers.german import inflection as inf
from performers.german.analysis import DEFAULT_BACKEND, Analysis, Token, analyze
from performers.german.syntax import np_head
from performers.zellig.spans import token_substitutions

PHENOMENON = "polarity_particle_kein_del"
ENGLISH_NP_NEGATION = re.compile(
    r"(?:\bnot|n't|\bcannot|\bnever|\bno longer)(?:\W+\w+){0,4}?\W+any\b"
    r"|\b(?:no(?![- ](?:longer|more|matter|doubt)\b)|none|nobody|nothing|neither|not (?:a|an|one|a single))\b",
    re.IGNORECASE,
)
GERMAN_NP_NEGATION = re.compile(
    r"^(?:kein(?:e|en|em|er|es)?|keinerlei|niemand(?:en|em|es)?|nichts|nie|niemals|weder|nirgends|nirgendwo|ohne)$",
    re.IGNORECASE,
)


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
    noun = inf.noun_analyses(analysis.tokens[head].text)
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


class PolarityParticleKeinDelZellig:
    """*kein-* → *ein-* (one candidate per *kein-* token)."""

    version = "1"

    def __init__(self, backend: str = DEFAULT_BACKEND) -> None:
        self.backend = backend

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        return token_substitutions(
            instance, analysis, kein_forms(analysis), lambda word: inf.match_case(word, word[1:].lower()), PHENOMENON
        )

    def applies(self, source: str | None) -> bool:
        """The source negates a noun phrase (*no*, *none*, *nobody*, …)."""
        return source is not None and ENGLISH_NP_NEGATION.search(source) is not None

    def detect(self, text: str, source: str | None = None) -> bool:
        """The source negates more noun phrases than the translation has negating article words and pronouns."""
        if not self.applies(source):
            return False
        negated = len(ENGLISH_NP_NEGATION.findall(source))
        found = sum(1 for token in analyze(text, self.backend).tokens if GERMAN_NP_NEGATION.match(token.text))
        return found < negated
