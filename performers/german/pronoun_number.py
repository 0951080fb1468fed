"""The number of pronoun subjects that :mod:`performers.german.subject_number` leaves open: *es* and
indefinite or demonstrative pronouns in clauses without a noun or personal pronoun.

    from performers.german.pronoun_number import es_number, indefinite_subject

    es_number(analysis, es, verb, lemma)    # 'SG' where *es* is the verb's only possible subject, else None
    indefinite_subject(analysis, verb)      # Subject of *Alles hängen von der Arbeit ab*, or None
    sie_opens_clause(analysis, index, verb) # *Und sie enthält …*: sie in the prefield is the subject

*es* as a subject is singular; as an expletive (*Es kamen viele*, *Es wurden drei Männer verhaftet*) the
verb agrees with the noun phrase after it.  So *es* counts as singular only where every other possible
subject of its clause (nouns that may be nominative, pronouns) is certainly singular too, and *es* does not
follow a preposition: *Es werden mit Erdwärme beheizt* and *Es wurden nie ein solcher Vertrag
unterzeichnet* fire, *Es wurden Maßnahmen ergriffen* and *Die Kinder haben es gesehen* do not.
"""

from __future__ import annotations

from performers.german.analysis import Analysis
from performers.german.subject_number import genitive_attribute, noun_number, np_start, pronoun_candidates
from performers.german.syntax import Subject, clause_bounds, is_quote, noun_subject_candidates


def es_number(analysis: Analysis, es: int, verb: int, lemma: str) -> str | None:
    """'SG' where the *es* at ``es`` may be the subject of ``verb`` (lemma ``lemma``) and every other possible
    subject of the clause is a certainly singular noun phrase (see the module docstring), else ``None``.
    With *sein* or *bleiben* only beside a singular predicate (*Es sind ein überraschendes Ergebnis* fires,
    *Es waren die Kinder* does not); never with a number in the clause (*sind es 30 %*), another personal
    pronoun (*wenn du es sagst*) or a coordination."""
    tokens = analysis.tokens
    if tokens[es].text.lower() != "es" or (es > 0 and tokens[es - 1].pos in ("APPR", "APPRART")):
        return None
    first, last = clause_bounds(analysis, verb)
    if any(t.pos in ("CARD", "KON") or t.text == "%" for t in tokens[first:last]):
        return None
    pronouns = [(index, number) for index, number, _ in pronoun_candidates(analysis, verb) if index != es]
    if any(tokens[index].pos == "PPER" for index, _ in pronouns):
        return None
    nouns = [n for n in noun_subject_candidates(analysis, verb) if not genitive_attribute(analysis, n)
             and not _compared(analysis, n)]
    others = [number for _, number in pronouns] + [noun_number(analysis, n) for n in nouns]
    if lemma in ("sein", "bleiben") and not others:
        return None  # Es sind …: the predicate decides, and none was found
    return "SG" if all(number == "SG" for number in others) else None


def sie_opens_clause(analysis: Analysis, index: int, verb: int) -> bool:
    """Whether the *sie* at ``index`` stands right before the finite ``verb`` at the start of its clause
    (*Und sie enthält kein Quecksilber*, *…, aber sie spart die Behandlung*): the prefield, where a pronoun
    is the subject (a fronted object pronoun is rare), so other noun phrases of the clause do not compete.
    Not a capitalised *Sie* opening the sentence (*Sie hat die Märkte gewarnt* for *They warned …*: the Fed)."""
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, verb)
    if tokens[index].text != "sie":
        return False  # sentence-initial Sie: its antecedent lies outside the sentence, where no check reaches
    return index == verb - 1 and all(t.pos == "KON" or is_quote(t) for t in tokens[first:index])


def _compared(analysis: Analysis, noun: int) -> bool:
    """Whether the noun phrase of ``noun`` is compared with *als* or *wie* (*besser … als die Institutionen*;
    not *mehr als sechs Stunden*)."""
    tokens = analysis.tokens
    start = np_start(analysis, noun)
    if start < 1 or tokens[start - 1].pos != "KOKOM":
        return False
    return start < 2 or tokens[start - 2].text.lower() not in ("mehr", "weniger")


def indefinite_subject(analysis: Analysis, verb: int) -> Subject | None:
    """The subject of a verb whose clause has neither a noun nor a personal pronoun that may be its subject:
    an indefinite or demonstrative pronoun with a known number before the verb, without an article word
    (*einige kann beides tun*: *einige*; *Alles hängen von der Arbeit ab*: *alles*; not *die andere ist*, *als dieser*),
    else ``None``.  Not in a clause with a coordination, nor for a verb before a conjunction (*woran man
    messen und …*: an infinitive the tagger took for finite)."""
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, verb)
    if any(t.pos == "KON" for t in tokens[first:verb + 2]):
        return None
    for index, number, _ in pronoun_candidates(analysis, verb):
        previous = tokens[index - 1] if index > 0 else None
        if previous is not None and previous.pos in ("ART", "PDS", "PDAT", "PPOSAT", "PIAT", "KOKOM"):
            continue
        if index < verb and tokens[index].pos in ("PIS", "PDS") and number is not None:
            return Subject(index, 3, number)
    return None
