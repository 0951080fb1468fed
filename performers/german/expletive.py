"""Clauses whose subject is not the *es* or *das* in front: expletive *es* and demonstratives before a copula.

    from performers.german.expletive import expletive_numbers

    expletive_numbers(analysis, verb, lemma)   # ['SG'] for *wurden* in *Es wurden nie ein solcher Vertrag …*

In *Es wurden nie ein solcher Vertrag unterzeichnet* and *Es bestehen die ernsthafte Gefahr* the *es* in front
is an expletive and the noun phrase after the verb is the subject; a plural verb beside *es* needs a plural
subject, so it fires when every noun phrase after the verb that may be nominative has a certain singular
number (a singular verb is left alone: *es* itself may be its subject, *Es freut die Eltern*).  With a copula
(*sein*, *werden*, *bleiben* without a participle or infinitive) after *es*, *das*, *dies* or *dieses* the verb agrees with
the predicate noun (*Es sind die zweite Preiserhöhung*, *Das sind keine Amnestie*, *Dies ist die schlechtesten
Ergebnisse*), so both numbers are checked.  :func:`expletive_numbers` gives the numbers the verb may agree
with, or ``None`` when the clause is no such clause: *es* or the demonstrative opening the clause right
before the verb, or *es* right after a verb with an adverbial or nothing before it (*In der Tat waren es …*;
not *Einige mögen es …*), no other pronoun that may be the subject, and the noun phrases after the verb
neither coordinated nor after a quantifier (*allen Frauen*).
"""

from __future__ import annotations

from performers.german.analysis import Analysis
from performers.german.subject_number import genitive_attribute, noun_number, np_start
from performers.german.syntax import clause_bounds, is_quote, noun_subject_candidates

COPULA_LEMMAS = frozenset({"sein", "werden", "bleiben"})
ADVERBIAL_OPENERS = frozenset({"ADV", "ADJD", "APPR", "APPRART", "PROAV", "PWAV", "KOUS"})
NON_FINITE = frozenset({"VVPP", "VAPP", "VMPP", "VVINF", "VAINF", "VMINF", "VVIZU"})
DEMONSTRATIVES = frozenset({"das", "dies", "dieses"})


def _front_word(analysis: Analysis, verb: int) -> str | None:
    """*es* (a personal pronoun) or a demonstrative right before the verb opening its clause, or *es* right
    after a verb that opens its clause or follows an adverbial (*In der Tat waren es …*; not *Einige mögen es
    …*, where *es* is the object)."""
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, verb)
    before = tokens[verb - 1] if verb > first else None
    if before is not None and (verb - 1 == first or tokens[first].pos == "KON"):
        word = before.text.lower()
        if (word == "es" and before.pos == "PPER") or (word in DEMONSTRATIVES and before.pos == "PDS"):
            return word
    after = tokens[verb + 1] if verb + 1 < len(tokens) else None
    if after is None or after.text.lower() != "es" or after.pos != "PPER":
        return None
    prefield = [t for t in tokens[first:verb] if not is_quote(t) and t.pos != "KON"]
    return "es" if not prefield or prefield[0].pos in ADVERBIAL_OPENERS else None


def _predicate_like(analysis: Analysis, noun: int) -> bool:
    """A noun phrase after the verb that may be its subject or predicate: not after a quantifier like *allen*
    (a dative) and not coordinated or listed (*der Tanz, der Gesang oder …*)."""
    tokens = analysis.tokens
    if any(t.pos in ("PIAT", "PIDAT") and t.text.lower().endswith("en") and not t.text.lower().startswith("kein")
           for t in tokens[np_start(analysis, noun) : noun]):
        return False
    after = tokens[noun + 1] if noun + 1 < len(tokens) else None
    if after is not None and after.text == "," and noun + 2 < len(tokens):
        return tokens[noun + 2].pos in ("KOUS", "PRELS", "PWAV", "KOUI")  # …, dass …; …, das …: no list
    return after is None or after.pos != "KON"


def expletive_numbers(analysis: Analysis, verb: int, lemma: str) -> list[str | None] | None:
    """The numbers of the noun phrases after ``verb`` it must agree with where *es* or a demonstrative stands
    beside it (see the module docstring); ``None`` when that does not apply, ``[]`` when nothing can be said."""
    tokens = analysis.tokens
    word = _front_word(analysis, verb)
    first, last = clause_bounds(analysis, verb)
    if word is None or any(t.lemma == "geben" for t in tokens[first:last]):
        return None  # es gibt, es wird … geben: always singular, checked as a pronoun subject
    copula = lemma in COPULA_LEMMAS and not any(t.pos in NON_FINITE for t in tokens[first:last])
    if word != "es" and not copula:
        return None
    if any(t.pos in ("PPER", "PIS", "PDS", "PRELS", "PWS") and t.index not in (verb - 1, verb + 1)
           for t in tokens[first:last]):
        return []  # another pronoun may be the subject
    nouns = [n for n in noun_subject_candidates(analysis, verb) if n > verb and not genitive_attribute(analysis, n)
             and tokens[np_start(analysis, n) - 1].pos not in ("NN", "NE")]  # … Ergebnisse beider Parteien
    if not nouns or not all(_predicate_like(analysis, n) for n in nouns):
        return []
    numbers = [noun_number(analysis, n) for n in nouns]
    if not copula and any(n != "SG" for n in numbers):
        return []
    return numbers if copula else ["SG"]  # es or a singular noun phrase: the verb is singular either way
