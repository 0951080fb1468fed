"""The subject of a verb right after a clause or apposition embedded after the sentence's first noun phrase.

    from performers.german.embedded_subject import subject_before_embedded

    subject_before_embedded(analysis, verb)   # (index, number) of *Haider* for *setzen* in *Haider, der …, setzen*

In *Haider, der bereits angekündigt hat, …, setzen auf …*, *Die Idee, dass …, wurden …* and *Der fünfte
Kandidat, Vitali Bganba, behaupten …* the verb right after the comma that closes the embedded relative or
subordinate clause or apposition belongs to the main clause whose subject is the sentence's first noun phrase
(its head: the first noun, the last name of a close apposition, *Barack Obama*).  Not where that noun phrase
is a time expression (*Wenige Tage, nachdem …, ist*), a personal pronoun or *man* may be the subject, or a certainly
nominative noun phrase after the verb agrees with it (*Die Berufsfischer, die …, kostet der Liter …*).
Shallow heuristics over STTS tags, used by :mod:`performers.german.verb_agreement`.
"""

from __future__ import annotations

from performers.german import verb_inflection as verb_inf
from performers.german.analysis import Analysis
from performers.german.subject_number import (
    ARTICLE_WORDS,
    certain_nominative,
    genitive_attribute,
    noun_number,
    pronoun_candidates,
)
from performers.german.syntax import FINITE, NP_INNER, finite_verbs, is_quote, noun_subject_candidates

TIME_NOUNS = frozenset({"Tag", "Woche", "Monat", "Jahr", "Jahrzehnt", "Stunde", "Minute", "Sekunde", "Zeit",
                        "Abend", "Morgen", "Nacht", "Mittag", "Ende", "Anfang", "Mitte", "Wochenende", "Mal",
                        "Saison", "Sommer", "Winter", "Herbst", "Frühling", "Moment", "Augenblick"})


def subject_before_embedded(analysis: Analysis, verb: int) -> tuple[int, str] | None:
    """(index, number) of the subject of a verb that directly follows the comma closing a relative or
    subordinate clause or an apposition embedded after the sentence's first noun phrase (*Haider, der …
    angekündigt hat, …, setzen*; *Die Idee, dass …, wurden*; *Der fünfte Kandidat, Vitali Bganba, behaupten*):
    the head of that noun phrase (its first noun; *Die Liste der Wirkstoffe, die …, sind*: *Liste*), where its
    number is certain; else ``None``."""
    tokens = analysis.tokens
    sentence = analysis.sentences[tokens[verb].sentence]
    if verb == 0 or tokens[verb - 1].text != ",":
        return None
    commas = [t.index for t in tokens[sentence.first : verb] if t.text == ","]
    if not commas or commas[0] + 1 >= verb:
        return None
    embedded = tokens[commas[0] + 1 : verb - 1]
    apposition = len(commas) == 2 and not any(t.pos in FINITE or t.pos == "KON" for t in embedded)
    if tokens[commas[0] + 1].pos not in ("PRELS", "KOUS") and not apposition:
        return None
    if any(tokens[c + 1].pos in FINITE for c in commas if c + 1 < verb):
        return None  # an earlier verb after a comma already took the main clause
    prefield = [t for t in tokens[sentence.first : commas[0]] if not is_quote(t)]
    while prefield and prefield[0].pos in ("KON", "ADV"):
        prefield = prefield[1:]
    if not prefield or any(t.pos.startswith("V") or t.pos in ("KOUS", "PPER", "PRELS") for t in prefield):
        return None
    head = next((t.index for t in prefield if t.pos in ("NN", "NE")), None)
    if head is None or tokens[head].lemma in TIME_NOUNS or tokens[head].text in TIME_NOUNS or any(t.pos not in NP_INNER and t.pos not in ARTICLE_WORDS and t.pos != "NE"
                           for t in prefield if t.index < head):
        return None
    while tokens[head].pos == "NE" and head + 1 < commas[0] and tokens[head + 1].pos == "NE":
        head += 1  # Barack Obama (und John McCain, …): the last noun of a close apposition
    if any(tokens[i].pos == "PPER" or tokens[i].text.lower() == "man" for i, _, _ in pronoun_candidates(analysis, verb)):
        return None  # Andere Länder, darunter Spanien, wird sie erreichen: the pronoun is the subject
    number = noun_number(analysis, head)
    if number is None or _later_subject_agrees(analysis, verb):
        return None
    return head, number


def _later_subject_agrees(analysis: Analysis, verb: int) -> bool:
    """Whether a noun phrase after ``verb`` in its clause is certainly nominative and agrees with it (*Die
    Berufsfischer, die …, kostet der Liter …*: the noun phrase before is a dative)."""
    readings = verb_inf.verb_readings(analysis.tokens[verb].text, finite_verbs(analysis).get(verb, ""))
    numbers = {r.number for r in readings if r.person == 3}
    return any(noun_number(analysis, n) in numbers and certain_nominative(analysis, n)
               for n in noun_subject_candidates(analysis, verb) if n > verb and not genitive_attribute(analysis, n))
