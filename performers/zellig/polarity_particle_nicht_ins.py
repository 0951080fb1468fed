"""``polarity-particle-nicht-ins`` Zellig: insert the negation particle *nicht* at a plausible spot.

Source: Sennrich (2017), LingEval97 ``polarity_particle_nicht_ins``.

    Er hat das Buch gelesen, weil er es kaufen wollte.
    → Er hat das Buch nicht gelesen, weil er es kaufen wollte.
    → Er hat das Buch gelesen, weil er es nicht kaufen wollte.

At most one candidate per clause (the text split at commas, sentence punctuation, dashes and brackets),
and none in a clause that already negates (*nicht*, *kein-*, *nie*, *nichts* ...).  The spot is where
German puts sentence negation:

- before the verbal cluster at the end of the clause — non-finite verbs, *zu*-infinitives and separable
  particles (*hat das Buch nicht gelesen*, *das Problem nicht zu lösen*, *gibt das Buch nicht zurück*),
  and in a subordinate clause (introduced by a subordinating conjunction, relative or interrogative
  word) the finite verb too (*weil er nicht kommt*, *das nicht gelöst werden muss*);
- otherwise, after a copula (*sein*, *werden*, *bleiben*), before its predicative adjective and the
  adverbs right before it (*ist nicht sehr wichtig*).

Clauses with neither (*Wir kommen heute.*) get no candidate: a clause-final *nicht* there is grammatical
but would often call for *kein* instead.
"""

from __future__ import annotations

from performers.german.analysis import Analysis, Token, analyze
from performers.german.negation import GERMAN_NEGATIONS, GERMAN_PARTICLES
from performers.zellig.polarity import Polarity, PolarityZellig, Site
from performers.zellig.spans import insert_before

FINITE = frozenset({"VVFIN", "VAFIN", "VMFIN"})
NONFINITE = frozenset({"VVINF", "VAINF", "VMINF", "VVPP", "VAPP", "VMPP", "VVIZU", "PTKZU", "PTKVZ"})
SUBORDINATORS = frozenset({"KOUS", "KOUI", "PRELS", "PRELAT", "PWAV", "PWS", "PWAT"})
COPULAS = frozenset({"sein", "werden", "bleiben"})
CLAUSE_BREAKS = frozenset({"$,", "$."})
BRACKETS_AND_DASHES = frozenset({"-", "–", "—", "(", ")", "[", "]"})


def clauses(analysis: Analysis) -> list[list[Token]]:
    """The word tokens of each clause: runs between commas, sentence punctuation, dashes, brackets."""
    result: list[list[Token]] = []
    current: list[Token] = []
    for token in analysis.tokens:
        starts_sentence = current and token.sentence != current[-1].sentence
        if token.pos in CLAUSE_BREAKS or token.text in BRACKETS_AND_DASHES or starts_sentence:
            if current:
                result.append(current)
            current = [] if not starts_sentence else [token]
            continue
        if not token.pos.startswith("$"):
            current.append(token)
    if current:
        result.append(current)
    return result


def negation_spot(clause: list[Token]) -> Token | None:
    """The token *nicht* goes before in this clause, or ``None``."""
    if len(clause) < 2 or any(t.text.lower() in GERMAN_NEGATIONS or t.pos == "PTKNEG" for t in clause):
        return None
    subordinate = clause[0].pos in SUBORDINATORS or (
        len(clause) > 2 and clause[0].pos == "APPR" and clause[1].pos in SUBORDINATORS
    )
    verbal = FINITE | NONFINITE if subordinate else NONFINITE
    start = len(clause)
    while start > 0 and clause[start - 1].pos in verbal:
        start -= 1
    if start < len(clause):
        tail = clause[start:]
        if not subordinate and all(t.pos in FINITE for t in tail):
            return None
        if start == 0 or (start == 1 and clause[0].pos in ("KOUS", "KOUI")):
            return None
        return clause[start]
    for index, token in enumerate(clause):
        if token.pos in FINITE and token.lemma in COPULAS:
            for position in range(index + 1, len(clause)):
                if clause[position].pos == "ADJD":
                    first = position
                    while first - 1 > index and clause[first - 1].pos == "ADV":
                        first -= 1
                    return clause[first]
            return None
    return None


def clause_sites(analysis: Analysis, zellig: PolarityZellig) -> list[Site]:
    """*nicht* inserted at the negation spot of each clause that has one."""
    spots = [spot for spot in map(negation_spot, clauses(analysis)) if spot is not None]
    return [([insert_before(analysis, spot, "nicht")], {"position": spot.index}) for spot in spots]


def has_particle(zellig: PolarityZellig, text: str, source: str) -> bool:
    """The translation has a negation particle (*nicht*, *nie*, *niemals*)."""
    return any(token.text.lower() in GERMAN_PARTICLES or token.pos == "PTKNEG"
               for token in analyze(text, zellig.backend).tokens)


class PolarityParticleNichtInsZellig(PolarityZellig):
    """Insert *nicht* where German puts sentence negation (at most one candidate per clause)."""

    version = "1"
    polarity = Polarity("nicht", "ins", clause_sites, has_particle)
