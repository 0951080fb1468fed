"""Finite verbs that disagree in number with their subject: the detector of ``subj-verb-agreement``.

    from performers.german.verb_agreement import disagreeing_verbs

    disagreeing_verbs(analyze("Die Prager Börse stürzen ins Minus."))   # [(3, 2)]: (verb, subject) indices

A verb fires when none of its possible subjects agrees with it in number (third person, or the pronoun's
person).  Its possible subjects, by clause type (shallow heuristics over STTS tags, no parser):

- a personal pronoun next to the verb (*wir steht*), or *ich*, *du*, *er*, *wir* opening a verb-final clause
  (*dass er … hatten*), not coordinated (*Meine Freunde und ich*, *er und seine Gefährten*); never *ihr*; *es*
  where it may be the only subject (:func:`performers.german.pronoun_number.es_number`), *es gibt* always
  singular; with an expletive *es* or *das*/*dies* before a copula, the noun phrases after the verb
  (:mod:`performers.german.expletive`); *sie* (she/they) only next to the verb, alone in its clause or right
  before the verb opening it (*Und sie enthält*), where the English source settles its number (``sie``,
  :func:`performers.german.source_number.settled_sie`); polite *Sie* only right after the verb (*kann Sie*);
  an indefinite pronoun before the verb where no noun competes (*Alles hängen ab*,
  :func:`performers.german.pronoun_number.indefinite_subject`);
- in a main clause or one opened by a subordinating conjunction: every noun and pronoun of the clause that may
  be nominative (:func:`performers.german.syntax.noun_subject_candidates`, genitive attributes left out),
  each with a certain number (:mod:`performers.german.subject_number`) that the verb lacks; when the
  clause's first noun phrase opens it (the prefield with its attributes, or right after the conjunction) with
  a certain number, it is taken for the subject, and of the later ones only those with a known number or a
  certain nominative compete (*Die Vertreter des OPC muss dies wissen* fires, *Das Gesetz kennen sie nicht*
  does not); not after a copula where a predicate noun may follow (*Der Grund sind Hürden*), not for time
  expressions in front (*Jeden Tag werden …*);
- a verb-first main clause after a sentence-initial prefield that ends in a comma — a subordinate clause, a
  prepositional phrase, a time expression or a participle phrase with embedded clauses after it (*Obwohl …,
  können der Kongress …*; *Anfang Juli, als …, hatten die Volkspartei …*; :mod:`performers.german.prefield`),
  or a reporting clause after a quotation (*„…“, sagten Frau Nathiri*): the nouns after the verb;
- a verb right after an embedded relative or subordinate clause or apposition that follows the sentence's
  first noun phrase (*Haider, der …, setzen*; *Der Kandidat, Vitali Bganba, behaupten*): that noun phrase;
- a relative clause opened by *der*, *die*, *das* after a comma: the pronoun's number from its antecedent
  (*Kučera, der … wurden*), with the clause's other possible subjects for *die* and *das* (which may be
  accusative); not where the antecedent is coordinated, a partitive genitive or a prepositional attribute
  of the noun before it (*Arten von Hypersensibilität, die …*).

A relative clause whose pronoun is oblique or in a prepositional phrase (*…, bei denen die Entscheidung …
könnten*; *…, den …*) is checked like a subordinate clause.  A verb coordinated with the main-clause
verb before it and without a subject of its own (*Jol nickte und hoben …*; *Sie wollte …, sprachen …*) must
share a person and number with that verb (:mod:`performers.german.coordination`).  Other relative clauses,
interrogative clauses and clauses with a foreign word are not checked.
"""

from __future__ import annotations

from performers.german import verb_inflection as verb_inf
from performers.german.analysis import Analysis
from performers.german.coordination import (
    REPORTING_VERBS,
    coordinated_noun_phrase,
    disagrees_with_shared,
    pronoun_coordinated,
    shared_subject_verb,
)
from performers.german.embedded_subject import subject_before_embedded
from performers.german.expletive import expletive_numbers
from performers.german.non_finite import looks_non_finite
from performers.german.prefield import after_initial_prefield
from performers.german.pronoun_number import es_number, indefinite_subject, sie_opens_clause
from performers.german.source_number import sie_number as sie_number  # re-exported: moved there
from performers.german.subject_number import (
    RELATIVE_PRONOUNS,
    antecedent_number,
    certain_nominative,
    coordinated_before,
    genitive_attribute,
    noun_number,
    np_start,
    pronoun_candidates,
)
from performers.german.syntax import (
    FINITE,
    VERB_FINAL_OPENERS,
    Subject,
    clause_bounds,
    finite_verbs,
    is_quote,
    noun_subject_candidates,
    subject_of,
    words_between,
)

SUBJECT_PRONOUNS = frozenset({"PPER", "PDS", "PIS", "PWS", "PRELS", "PWAT", "PRELAT"})
OBLIQUE_RELATIVES = frozenset({"den", "dem", "denen", "deren", "dessen"})
COPULAS = frozenset({"sein", "werden", "bleiben", "heißen", "scheinen"})


TIME_NOUNS = frozenset({"Tag", "Woche", "Monat", "Jahr", "Jahrzehnt", "Stunde", "Minute", "Sekunde", "Zeit",
                        "Abend", "Morgen", "Nacht", "Mittag", "Ende", "Anfang", "Mitte", "Wochenende", "Mal",
                        "Saison", "Sommer", "Winter", "Herbst", "Frühling", "Moment", "Augenblick"})


def _noun_subject_checkable(analysis: Analysis, verb: int) -> bool:
    """Whether a noun subject of ``verb`` can be checked: the clause is no relative or interrogative clause,
    has no relative or interrogative pronoun or foreign word, and the verb does not open it after a comma or conjunction (its
    subject may be outside the clause: *Die Geräte, die …, sind*; *… und glauben*)."""
    tokens = analysis.tokens
    first, last = clause_bounds(analysis, verb)
    opener = tokens[first] if tokens[first].pos in VERB_FINAL_OPENERS else tokens[first - 1] if first > 0 else None
    if opener is not None and opener.pos in VERB_FINAL_OPENERS and opener.pos not in ("KOUS", "PWAV"):
        in_pp = opener.index > 0 and tokens[opener.index - 1].pos in ("APPR", "APPRART")
        if not (opener.pos == "PRELS" and (in_pp or opener.text.lower() in OBLIQUE_RELATIVES)):
            return False  # a relative or interrogative pronoun may be the subject (not bei denen, den)
    if any(t.pos in ("PWS", "PRELS", "PWAT", "PRELAT", "FM", "XY") for t in tokens[first:last]):
        return False
    if verb > 0 and tokens[verb - 1].pos == "KON":
        return False  # a coordinated verb whose subject is left out: … gewannen sie 1:0 und feiern nun …
    opening = [t for t in tokens[first:verb] if not t.pos.startswith("$") and t.pos != "KON"]
    sentence_first = analysis.sentences[tokens[verb].sentence].first
    return (bool(opening) or first == sentence_first or after_initial_prefield(analysis, verb)
            or _reporting_inversion(analysis, first, verb))


def _reporting_inversion(analysis: Analysis, first: int, verb: int) -> bool:
    """Whether the verb opens a reporting clause after the reported words (*„…“, sagten Frau Nathiri*;
    *Wir müssen …, zitierten die Agentur AP …*): its subject follows it in the same clause."""
    tokens = analysis.tokens
    if first != verb or first < 2 or tokens[first - 1].text != ",":
        return False
    return is_quote(tokens[first - 2]) or tokens[verb].lemma in REPORTING_VERBS


def _opens_clause(analysis: Analysis, noun: int, verb: int, pronoun: bool = False) -> bool:
    """Whether the noun phrase of ``noun`` opens the clause of ``verb`` (after a subordinating conjunction
    or opening quotes) and, in a main clause, is the one constituent before the verb, attributes included
    (*Das Gesetz ermöglichen*, *Die erste Strophe des Liedes wurden*, *Ein Gericht in Bangladesch haben*):
    the prefield, where the subject usually stands.  Not a time expression (*Jeden Tag werden …*, *Wenige Monate später …*)."""
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, verb)
    start = noun if pronoun else np_start(analysis, noun)
    between = [t for t in tokens[first:start] if not is_quote(t) and t.pos not in ("KOUS", "$(")]
    time = tokens[noun].text.split("-")[-1].capitalize() in TIME_NOUNS or tokens[noun].lemma in TIME_NOUNS
    if noun > verb or between or time:
        return False
    if tokens[first].pos == "KOUS":
        return True
    # one constituent stands before the finite verb of a main clause: what follows the noun up to the verb
    # belongs to its noun phrase (a genitive, a prepositional attribute: Ein Gericht in Bangladesch haben)
    return not any(tokens[i].pos in FINITE or tokens[i].text in (",", ":", ";") for i in range(noun + 1, verb))


def _pronoun_number(analysis: Analysis, subject: Subject, verb: int, lemma: str, sie: str | None = None) -> str | None:
    """The number of a personal-pronoun subject next to the verb (at most one word between) where it is
    certain: not *sie* (she/they) unless ``sie`` (from the English source, :func:`sie_number`) says which, not
    *ihr* (also a dative) or *es* (often an expletive: *Es kamen viele*) — except
    *es gibt*, always singular — and polite *Sie* only right after the verb (*kann Sie*: plural); further
    away only *ich*, *du*, *er*, *wir* opening a verb-final clause (*dass er … hatten*); never a pronoun
    in a coordination or behind a quotation mark (:func:`performers.german.coordination.pronoun_coordinated`)."""
    tokens = analysis.tokens
    word = tokens[subject.index].text.lower()
    between = words_between(analysis, subject.index, verb)
    if word == "es" and lemma == "geben":
        return "SG"
    if pronoun_coordinated(analysis, subject.index, verb):
        return None  # Meine Freunde und ich versuchen; er und seine Gefährten; sagten „Du …: the coordination
    if subject.formal:
        return "PL" if between == 0 and subject.index == verb + 1 else None
    if word == "sie" and sie is not None:
        others = [i for i, _, _ in pronoun_candidates(analysis, verb) if i != subject.index]
        if (between > 0 or others or noun_subject_candidates(analysis, verb)) and \
                not sie_opens_clause(analysis, subject.index, verb):
            return None  # man kann sie verwenden: sie may be the object
        number: str | None = sie
    elif word == "es":
        number = es_number(analysis, subject.index, verb, lemma)  # es as the only possible subject: singular
        if number is None:
            return None
    elif word in ("sie", "ihr"):
        return None
    else:
        number = subject.number
    if between > 1:  # ich, du, er, wir open a verb-final clause: dass er … hatten
        opens = subject.index > 0 and tokens[subject.index - 1].pos in VERB_FINAL_OPENERS and subject.index < verb
        coordinated = any(t.pos == "KON" for t in tokens[subject.index - 1 : verb])
        return number if opens and not coordinated else None
    return number


def _predicate_may_follow(analysis: Analysis, verb: int, lemma: str, subject: Subject) -> bool:
    """Whether a noun after the copula ``verb`` may be its predicate rather than its subject: a copula
    (*sein*, *werden*, ...) with the noun after it, in a clause with no participle (*wurden … weggelassen*
    makes *werden* an auxiliary) and more than one noun that may be the subject (*Sie sind ein Fetischist*,
    *Gleichzeitig ist das Gebiet so groß*: one noun, the subject)."""
    tokens = analysis.tokens
    if lemma not in COPULAS or subject.index < verb or tokens[subject.index].pos == "PPER":
        return False
    first, last = clause_bounds(analysis, verb)
    if any(t.pos in ("VVPP", "VAPP", "VMPP") for t in tokens[first:last]):
        return False
    nouns = [n for n in noun_subject_candidates(analysis, verb) if not genitive_attribute(analysis, n)]
    return len(nouns) > 1


def _relative_clause_numbers(analysis: Analysis, verb: int) -> list[str | None] | None:
    """For a verb in a relative clause opened by *der*, *die* or *das* after a comma: the numbers of its
    possible subjects — the relative pronoun's (from its antecedent) and, unless the pronoun is the
    nominative *der*, every other noun of the clause that may be nominative; ``[]`` when nothing can be
    said; ``None`` when the clause is no such relative clause."""
    tokens = analysis.tokens
    first, last = clause_bounds(analysis, verb)
    if first == 0:
        return None
    pronoun = tokens[first - 1]  # the clause starts after its relative pronoun
    if pronoun.pos != "PRELS" or pronoun.text.lower() not in RELATIVE_PRONOUNS:
        return None
    number = antecedent_number(analysis, pronoun)
    if number is None or _ambiguous_antecedent(analysis, pronoun.index - 2):
        return []
    if pronoun.text.lower() == "der":
        return [number]
    if any(t.pos in SUBJECT_PRONOUNS or t.pos in ("FM", "XY") for t in tokens[first:last]):
        return []  # die er kennt: the pronoun may be the object
    others = [n for n in noun_subject_candidates(analysis, verb) if not genitive_attribute(analysis, n)]
    return [number] + [noun_number(analysis, n) for n in others]


def _ambiguous_antecedent(analysis: Analysis, noun: int) -> bool:
    """Whether a relative pronoun after ``noun`` may refer to a noun phrase around it: ``noun`` is coordinated
    (*E-Mails und Instant Messages, die*), inside a prepositional phrase (*Arten von Hypersensibilität, die*)
    or a partitive genitive (*einer der Punkte, die*)."""
    tokens = analysis.tokens
    start = np_start(analysis, noun)
    before = tokens[start - 1] if start > 0 else None
    if before is None:
        return False
    if before.text.lower() in ("und", "sowie", "oder") or before.pos == "PIS":
        return True
    if before.pos in ("APPR", "APPRART"):  # an attribute of the noun before: Arten von Hypersensibilität, die
        return start > 1 and tokens[start - 2].pos in ("NN", "NE")
    return before.pos == "ART" and start > 1 and tokens[start - 2].pos == "PIS"


def _clause_subject_numbers(analysis: Analysis, verb: int, lemma: str) -> list[str | None]:
    """The numbers of the possible subjects of ``verb`` (nouns and pronouns of its clause; ``None`` where
    the number is unknown).  When the clause's first noun phrase (or pronoun) opens it (:func:`_opens_clause`)
    with a certain number, it is taken for the subject, and of the later ones only those that keep a known
    number or are certainly nominative compete (a personal pronoun, *der Investor*)."""
    nouns = [n for n in noun_subject_candidates(analysis, verb) if not genitive_attribute(analysis, n)]
    found = [(n, None if coordinated_before(analysis, n, verb) or _after_quantity(analysis, n)
              else noun_number(analysis, n), False) for n in nouns]
    found += [(i, None if coordinated_before(analysis, i, verb) else number, certain)
              for i, number, certain in pronoun_candidates(analysis, verb)]
    first, last = clause_bounds(analysis, verb)
    found += [(t.index, None, False) for t in analysis.tokens[first:last] if _numeral_head(analysis, t.index)]
    found.sort()
    if not found:
        return []
    index, number, _ = found[0]
    tokens = analysis.tokens
    pronoun = tokens[index].pos in ("PIS", "PDS", "PPER")
    if number is not None and lemma not in COPULAS and _opens_clause(analysis, index, verb, pronoun):
        if certain_nominative(analysis, index):  # Der Minister haben … Angaben: no other subject
            return [number] + [n for i, n, _ in found[1:] if tokens[i].pos == "PPER"]
        later = [(i, n, c) for i, n, c in found[1:] if c or tokens[i].text.lower() in NOMINATIVE_INDEFINITES
                 or (n is not None and tokens[i].pos not in ("PIS", "PDS"))]
        later = [(i, n, c) for i, n, c in later if tokens[i].pos == "PPER" or n is not None or
                 certain_nominative(analysis, i)]
        return [number] + [n for _, n, _ in later] + _plural_later(analysis, found[1:], verb)
    if number is not None and lemma not in COPULAS and _opens_middle_field(analysis, index, verb):
        # Gestern hat der Präsident … : the first noun phrase after the verb, unless a certain nominative follows
        return ([number] + [n for i, n, c in found[1:] if c or certain_nominative(analysis, i)]
                + _plural_later(analysis, found[1:], verb))
    return [n for _, n, _ in found]


def _after_quantity(analysis: Analysis, noun: int) -> bool:
    """A genitive after a number or percentage (*33 % der Wähler*, *1 Mio der Erdbebenopfer*): the quantity
    is the subject, of open number."""
    tokens = analysis.tokens
    start = np_start(analysis, noun)
    if start < 2 or tokens[start].text.lower() not in ("der", "aller"):
        return False
    return tokens[start - 1].text in ("%", "Prozent", "Mio", "Mio.") or tokens[start - 1].pos == "CARD"


def _numeral_head(analysis: Analysis, index: int) -> bool:
    """A number standing for a noun phrase (*fünf von ihnen*, *die drei*): a subject of unknown number."""
    tokens = analysis.tokens
    previous = tokens[index - 1] if index > 0 else None
    if tokens[index].pos != "CARD" or not tokens[index].text.isalpha():
        return False  # digits: years, dates, scores (Halbjahr 2008, 3:1)
    if previous is not None and previous.pos in ("APPR", "APPRART", "NN", "NE", "CARD"):
        return False
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    return following is None or following.pos not in ("NN", "NE", "ADJA", "CARD", "TRUNC") and following.text != "%"


NOMINATIVE_INDEFINITES = frozenset({"man", "jemand", "niemand"})
PLURAL_INDEFINITES = frozenset({"meisten", "viele", "einige", "alle", "beide", "wenige", "mehrere", "andere", "manche"})


def _plural_later(analysis: Analysis, later: list[tuple[int, str | None, bool]], verb: int) -> list[str | None]:
    """``['PL']`` when a later possible subject right after the verb is plural though its own number is open: a
    coordination (*Die Gesangsfassung übernahmen Kněžínková und Plachetka*) or a plural indefinite pronoun
    (*Das Handy tragen die meisten bei sich*): object-first order with a plural subject is possible."""
    tokens = analysis.tokens
    for index, _, _ in later:
        start = np_start(analysis, index) if tokens[index].pos in ("NN", "NE") else index
        while start - 1 > verb and tokens[index].pos == "NE" and tokens[start - 1].pos in ("NE", "NN"):
            start -= 1  # Kateřina Kněžínková, Bürgermeister Wolfgang Wild
        if index < verb or any(t.pos not in MIDDLE_FIELD_FILLERS for t in tokens[verb + 1 : start]):
            continue  # right after the verb only (not … starten und die Oberfläche und …)
        if tokens[index].pos == "PIS" and tokens[index].text.lower() in PLURAL_INDEFINITES:
            return ["PL"]
        if tokens[index].pos in ("NN", "NE") and coordinated_noun_phrase(analysis, index):
            return ["PL"]
    return []


PREFIELD_ADVERBIALS = frozenset({"APPR", "APPRART", "ADV", "ADJD", "PROAV", "PWAV", "KOUS"})
MIDDLE_FIELD_FILLERS = frozenset({"ADV", "ADJD", "PRF", "PTKNEG", "PROAV", "PTKA"})


def _opens_middle_field(analysis: Analysis, noun: int, verb: int) -> bool:
    """Whether the noun phrase of ``noun`` is the first after the finite ``verb`` of a main clause whose
    prefield is adverbial (opens with a preposition or an adverb: *Im Jahr 2010 hat 4500 Soldaten …*), with
    only adverbs or a reflexive between: there the subject usually comes first.  Not a time expression."""
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, verb)
    if noun < verb or tokens[first].pos == "KOUS" or tokens[noun].lemma in TIME_NOUNS:
        return False
    opening = next((t for t in tokens[first:verb] if not is_quote(t) and t.pos != "KON"), None)
    if opening is not None and opening.pos not in PREFIELD_ADVERBIALS:
        return False  # the prefield may hold the subject (HS2 soll auch drei Optionen …)
    start = np_start(analysis, noun) if tokens[noun].pos in ("NN", "NE") else noun
    return all(t.pos in MIDDLE_FIELD_FILLERS for t in tokens[verb + 1 : start])


def _disagrees(readings: tuple[verb_inf.VerbReading, ...], numbers: list[str | None], person: int = 3) -> bool:
    """Whether the verb has readings and none in ``person`` and any of ``numbers`` (all of them certain)."""
    return bool(readings) and bool(numbers) and all(
        n is not None and not any(r.person == person and r.number == n for r in readings) for n in numbers)


def _subject_numbers(analysis: Analysis, index: int, lemma: str, sie: str | None) -> tuple[Subject, list] | None:
    """The subject found by :func:`subject_of` and the numbers the verb may agree with, or ``None``."""
    subject = subject_of(analysis, index) or indefinite_subject(analysis, index)
    if subject is None or _predicate_may_follow(analysis, index, lemma, subject):
        return None  # after a copula a noun may be the predicate: Sie sind ein Fetischist
    if analysis.tokens[subject.index].pos == "PPER":
        number = _pronoun_number(analysis, subject, index, lemma, sie)
        return (subject, [number]) if number is not None else None
    if _noun_subject_checkable(analysis, index):
        return subject, _clause_subject_numbers(analysis, index, lemma)
    return None


def disagreeing_verbs(analysis: Analysis, sie: str | None = None) -> list[tuple[int, int]]:
    """(verb, subject) token indices of finite verbs with no reading in their subject's person and number.

    A pronoun subject is checked alone; for a noun subject, every noun of the clause that may be the subject
    (:func:`performers.german.syntax.noun_subject_candidates`) must have a certain number that the verb
    does not have (*Die besten Momente hat der Abend* does not fire)."""
    tokens = analysis.tokens
    found = []
    verbs = finite_verbs(analysis)
    for index, lemma in verbs.items():
        if looks_non_finite(analysis, verbs, index, lemma):
            continue
        shared = shared_subject_verb(analysis, verbs, index)
        if shared is not None:
            if disagrees_with_shared(analysis, verbs, index, shared):
                found.append((index, shared))
            continue
        readings = verb_inf.verb_readings(tokens[index].text, lemma)
        relative = _relative_clause_numbers(analysis, index)
        if relative is not None:
            if _disagrees(readings, relative):
                found.append((index, clause_bounds(analysis, index)[0] - 1))
            continue
        outer = subject_before_embedded(analysis, index)
        expletive = expletive_numbers(analysis, index, lemma) if outer is None else None
        if outer is not None:
            if _disagrees(readings, [outer[1]]):
                found.append((index, outer[0]))
            continue
        if expletive:  # an expletive that settles nothing leaves the verb to the clause's subjects below
            if _disagrees(readings, expletive):
                found.append((index, index))
            continue
        checked = _subject_numbers(analysis, index, lemma, sie)
        if checked is not None and _disagrees(readings, checked[1], checked[0].person):
            found.append((index, checked[0].index))
    return found
