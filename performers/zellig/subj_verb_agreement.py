"""``subj-verb-agreement`` Zellig: swap the grammatical number of a finite verb so it no longer agrees
with its subject.

Source: Sennrich (2017), LingEval97 ``subj_verb_agreement`` ("we swap the grammatical number of a verb
to introduce an agreement error with the subject"); DistilLingEval ``subj_verb_agreement``.

    Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.
    → Die Prager Börse stürzen gegen Geschäftsschluss ins Minus.

Where it applies: every finite verb (STTS ``VVFIN``, ``VAFIN``, ``VMFIN``) whose form ablaut can place in
the paradigm of its HanTa lemma.  Person, tense and mood are kept and only the number changes
(:func:`performers.german.verb_inflection.swap_number`): *hat* → *haben*, *verzeichneten* → *verzeichnete*,
*wird* → *werden*, fused separable verbs in verb-final clauses too (*hinwegsetzten* → *hinwegsetzte*).
The person comes from the subject (:func:`performers.german.syntax.subject_of`): *wir stehen* →
*stehe*, *sie stehen* → *steht*; without a pronoun subject the third person is used when the form has one.

Subjects *sie*: changing the number of a verb whose subject is the ambiguous *sie* (she/they) keeps the
sentence grammatical and changes its meaning (LingEval97 files those under ``subj_adequacy``).
DistilLingEval's ``subj_verb_agreement`` sets include them, so by default they are included and marked
``meta["ambiguous_subject"] = True``; ``include_sie=False`` leaves them to ``subj-adequacy`` as LingEval97
did.  Forms that do not change are dropped.

``detect(text, source=None)``: whether a finite verb of ``text`` has no reading in the person and number of
its subject (:func:`disagreeing_verbs`).  Only subjects whose number is certain count: a personal pronoun
next to the verb (at most one word between) other than *sie*/*Sie*, *ihr* (also a dative) and *es* (often
an expletive: *Es kamen viele*), or a common noun whose
nominative readings, together with its article word, have one number — not a noun in a coordination (*der
Mann und die Frau*), after another noun (possibly a genitive attribute: *die Hälfte der Bürger*), after a
number (*50 Prozent*); and a noun subject only where no other noun of the clause that may be the subject
agrees with the verb, the clause has no pronoun that may be the subject, is no relative or interrogative
clause, and does not start with the verb after a comma or conjunction.  ``source`` is not needed.

Metadata: ``distance`` between subject and verb when a subject was found (LingEval97 positions: adjacent
words = 1), ``zipf_frequency`` (and ``frequency`` with a ``training_corpus``) of the rarer of subject and
verb, and the reading used (``tense``, ``mood``, ``person``, ``number`` before the change).
"""

from __future__ import annotations

from arena.edits import make_variant
from arena.errors import ConfigError
from arena.records import Edit, Instance, Variant
from arena.specs.typecheck import ExistingFile
from performers.german import inflection as inf
from performers.german import noun_inflection as noun_inf
from performers.german import verb_inflection as verb_inf
from performers.german.analysis import DEFAULT_BACKEND, Analysis, Token, analyze
from performers.german.frequency import frequency_meta, training_counts
from performers.german.syntax import (
    FINITE,
    NP_INNER,
    VERB_FINAL_OPENERS,
    Subject,
    clause_bounds,
    distance,
    finite_verbs,
    is_quote,
    noun_subject_candidates,
    subject_of,
    words_between,
)

PHENOMENON = "subj_verb_agreement"


def number_swaps(
    analysis: Analysis, verb: Token, subject: Subject | None, lemma: str | None = None
) -> list[tuple[str, verb_inf.VerbReading]]:
    """(new form, reading it came from) for the finite ``verb``, the person decided by ``subject``."""
    readings = verb_inf.verb_readings(verb.text, lemma or verb.lemma)
    if not readings:
        return []
    if subject is not None and (subject.person != 3 or subject.number is not None):
        chosen = [r for r in readings if r.person == subject.person]
        if subject.number is not None:
            chosen = [r for r in chosen if r.number == subject.number] or chosen
    else:
        chosen = [r for r in readings if r.person == 3] or list(readings)
    chosen = [r for r in chosen if r.mood == "IND"] or chosen  # haben: indicative unless only subjunctive fits
    out: list[tuple[str, verb_inf.VerbReading]] = []
    for reading in chosen:
        other = "PL" if reading.number == "SG" else "SG"
        new = verb_inf.conjugate(reading.lemma, reading.tense, reading.mood, reading.person, other, bool(reading.particle))
        if new is None:
            continue
        new = inf.match_case(verb.text, new)
        if new.lower() != verb.text.lower() and all(new != form for form, _ in out):
            out.append((new, reading))
    return out


ARTICLE_WORDS = frozenset({"ART", "PPOSAT", "PDAT", "PIAT"})
COPULAS = frozenset({"sein", "werden", "bleiben", "heißen", "scheinen"})
SUBJECT_PRONOUNS = frozenset({"PPER", "PDS", "PIS", "PWS", "PRELS", "PWAT", "PRELAT"})
COORDINATION = frozenset({"KON", "$,"})


PLURAL_QUANTIFIERS = frozenset({"einige", "wenige", "viele", "mehrere", "alle", "beide", "zahlreiche", "manche",
                                "etliche", "verschiedene", "sämtliche"})
QUANTITY_NOUNS = frozenset({"Hälfte", "Mehrheit", "Minderheit", "Reihe", "Anzahl", "Zahl", "Teil", "Drittel", "Viertel",
                            "Prozent", "Dutzend", "Großteil", "Gruppe", "Menge", "Paar", "Million", "Milliarde",
                            "Tausend", "Hundert", "Handvoll", "Rest", "Vielzahl", "Masse"})


PLURAL_NAMES = frozenset({"Niederlande", "Philippinen", "Malediven", "Seychellen", "Bahamas", "Staaten", "Emirate",
                          "Kanaren", "Alpen", "Anden", "Azoren", "Brothers", "Nationen", "Beatles", "Stones"})


def _name_number(analysis: Analysis, index: int, start: int) -> str | None:
    """A proper name as a subject is singular (*Paula Radcliffe hält*, *Japan ist*) unless an article word
    makes it plural or ambiguous (*die USA*, *die Türkei*), it is an abbreviation, or a plural name
    (*Lehman Brothers*, *Philippinen*)."""
    tokens = analysis.tokens
    word = tokens[index].text
    if word.isupper() or word in PLURAL_NAMES or not word[:1].isupper():
        return None
    before = tokens[start - 1] if start > 0 else None
    if before is not None and before.pos in ARTICLE_WORDS and before.text.lower() not in ("der", "das", "ein"):
        return None
    return "SG"


def noun_number(analysis: Analysis, index: int) -> str | None:
    """The grammatical number of the noun (or name) at ``index`` as a subject, where it is certain (see the
    module docstring), else ``None``."""
    tokens = analysis.tokens
    head = tokens[index]
    if head.pos not in ("NN", "NE") or head.xpos == "NNI" or not head.text[:1].isupper():
        return None
    start = index
    while start > 0 and (tokens[start - 1].pos in NP_INNER or is_quote(tokens[start - 1]) or
                         (head.pos == "NE" and tokens[start - 1].pos in ("NE", "NN"))):
        start -= 1
    if head.text in QUANTITY_NOUNS:
        return None  # 50 Prozent, drei Viertel, die Hälfte der Bürger: the number may follow the complement
    article = tokens[start - 1] if start > 0 and tokens[start - 1].pos in ARTICLE_WORDS else None
    first = start - 1 if article is not None else start
    before = tokens[first - 1] if first > 0 else None
    after = tokens[index + 1] if index + 1 < len(tokens) else None
    if before is not None and (before.pos in COORDINATION or before.pos in ("NN", "NE")):
        return None
    if after is not None and after.pos in COORDINATION and after.text != ",":
        return None
    if after is not None and after.text == "von":
        return None  # Tausende von Angestellten, eine Reihe von Fragen: the number may follow the complement
    if head.pos == "NE":
        return _name_number(analysis, index, start)
    quantifier = next((t for t in tokens[start:index] if t.text.lower() in PLURAL_QUANTIFIERS), None)
    if quantifier is not None or (article is not None and article.text.lower() in PLURAL_QUANTIFIERS):
        return "PL" if any(a[0] == "PL" for a in noun_inf.noun_analyses(head.text)) else None
    analyses = [a for a in noun_inf.noun_analyses(head.text) if a[2] == "NOM"]
    if any(t.pos == "CARD" for t in tokens[start:index]):
        return None  # zwei Jahre, 2,5 Liter: measures, whose number the verb need not follow
    if article is not None and inf.determiner_readings(article.text):
        readings = [r for r in inf.determiner_readings(article.text) if r.case == "NOM"]
        if not noun_inf.noun_analyses(head.text):  # a noun german-nouns lacks: the article alone (der Auftragnehmer)
            numbers = {r.number for r in readings}
            return numbers.pop() if len(numbers) == 1 else None
        analyses = [
            (number, gender, case)
            for number, gender, case in analyses
            if any(r.number == number and (number == "PL" or r.gender == gender) for r in readings)
        ]
    numbers = {number for number, _, _ in analyses}
    return numbers.pop() if len(numbers) == 1 else None


def _genitive_attribute(analysis: Analysis, index: int) -> bool:
    """Whether the noun at ``index`` is a genitive attribute of the noun before its article (*die Barreserve
    der Bank*, *der Rest des Tages*): an article word with a genitive reading right after another noun."""
    tokens = analysis.tokens
    start = index
    while start > 0 and (tokens[start - 1].pos in NP_INNER or is_quote(tokens[start - 1])):
        start -= 1
    if start < 2 or tokens[start - 1].pos not in ARTICLE_WORDS or tokens[start - 2].pos not in ("NN", "NE"):
        return False
    if tokens[start - 2].text in QUANTITY_NOUNS:
        return False
    return any(r.case == "GEN" for r in inf.determiner_readings(tokens[start - 1].text))


def _noun_subject_checkable(analysis: Analysis, verb: int) -> bool:
    """Whether a noun subject of ``verb`` can be checked: the clause is no relative or interrogative clause,
    has no relative or interrogative pronoun or foreign word, and the verb does not open it after a comma or conjunction (its
    subject may be outside the clause: *Die Geräte, die …, sind*; *… und glauben*)."""
    tokens = analysis.tokens
    first, last = clause_bounds(analysis, verb)
    opener = tokens[first] if tokens[first].pos in VERB_FINAL_OPENERS else tokens[first - 1] if first > 0 else None
    if opener is not None and opener.pos in VERB_FINAL_OPENERS and opener.pos not in ("KOUS", "PWAV"):
        return False  # a relative or interrogative pronoun may be the subject
    if any(t.pos in ("PWS", "PRELS", "PWAT", "PRELAT", "FM", "XY") for t in tokens[first:last]):
        return False
    if verb > 0 and tokens[verb - 1].pos == "KON":
        return False  # a coordinated verb whose subject is left out: … gewannen sie 1:0 und feiern nun …
    opening = [t for t in tokens[first:verb] if not t.pos.startswith("$") and t.pos != "KON"]
    sentence_first = analysis.sentences[tokens[verb].sentence].first
    return (bool(opening) or first == sentence_first or _after_initial_subordinate(analysis, first)
            or _reporting_inversion(analysis, first, verb))


REPORTING_VERBS = frozenset({"sagen", "erklären", "betonen", "berichten", "zitieren", "meinen", "schreiben",
                             "erinnern", "warnen", "bestätigen", "mitteilen", "teilen", "fügen", "hinzufügen",
                             "kommentieren", "ergänzen", "sprechen", "fragen", "antworten", "behaupten",
                             "glauben", "denken", "verraten", "unterstreichen", "versichern", "heißen"})


def _reporting_inversion(analysis: Analysis, first: int, verb: int) -> bool:
    """Whether the verb opens a reporting clause after the reported words (*„…“, sagten Frau Nathiri*;
    *Wir müssen …, zitierten die Agentur AP …*): its subject follows it in the same clause."""
    tokens = analysis.tokens
    if first != verb or first < 2 or tokens[first - 1].text != ",":
        return False
    return is_quote(tokens[first - 2]) or tokens[verb].lemma in REPORTING_VERBS


def _after_initial_subordinate(analysis: Analysis, first: int) -> bool:
    """Whether the clause starting at ``first`` follows a comma that closes a subordinate clause opening the
    sentence (*Obwohl der Präsident … kann, können der Kongress …*): the verb-first main clause has its
    subject inside."""
    tokens = analysis.tokens
    sentence_first = analysis.sentences[tokens[first].sentence].first
    if first == 0 or tokens[first - 1].text != "," or tokens[sentence_first].pos != "KOUS":
        return False
    return tokens[sentence_first].text.lower() not in ("während", "als", "wie") and not any(
        t.text == "," for t in tokens[sentence_first : first - 1]
    )


def _infinitive_beside_finite(analysis: Analysis, verbs: dict[int, str], index: int, lemma: str) -> bool:
    """A form identical to the infinitive in a clause with another finite verb that is an auxiliary or modal,
    or precedes it uncoordinated (*soll … getötet haben*, *muss … abgeworfen werden*): the tagger's finite
    verb is likely the infinitive (not in *schmelzen … und nimmt*)."""
    tokens = analysis.tokens
    if tokens[index].text.lower() != lemma.lower():
        return False
    first, last = clause_bounds(analysis, index)
    return any(
        other != index and first <= other < last
        and (tokens[other].pos in ("VAFIN", "VMFIN")
             or (other < index and not any(t.pos == "KON" for t in tokens[other:index])))
        for other in verbs
    )


def _np_start(analysis: Analysis, noun: int) -> int:
    """Index of the first token of the noun phrase headed by ``noun`` (its article word, adjectives, ...)."""
    tokens = analysis.tokens
    start = noun
    while start > 0 and (tokens[start - 1].pos in NP_INNER or is_quote(tokens[start - 1])):
        start -= 1
    return start - 1 if start > 0 and tokens[start - 1].pos in ARTICLE_WORDS else start


TIME_NOUNS = frozenset({"Tag", "Woche", "Monat", "Jahr", "Jahrzehnt", "Stunde", "Minute", "Sekunde", "Zeit",
                        "Abend", "Morgen", "Nacht", "Mittag", "Ende", "Anfang", "Mitte", "Wochenende", "Mal",
                        "Saison", "Sommer", "Winter", "Herbst", "Frühling", "Moment", "Augenblick"})


def _opens_clause(analysis: Analysis, noun: int, verb: int, pronoun: bool = False) -> bool:
    """Whether the noun phrase of ``noun`` opens the clause of ``verb`` (after a subordinating conjunction
    or opening quotes) and, in a main clause, is the one constituent before the verb, attributes included
    (*Das Gesetz ermöglichen*, *Die erste Strophe des Liedes wurden*, *Ein Gericht in Bangladesch haben*):
    the prefield, where the subject usually stands.  Not a time expression (*Jeden Tag werden …*, *Wenige Monate später …*)."""
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, verb)
    start = noun if pronoun else _np_start(analysis, noun)
    between = [t for t in tokens[first:start] if not is_quote(t) and t.pos not in ("KOUS", "$(")]
    time = tokens[noun].text.split("-")[-1].capitalize() in TIME_NOUNS or tokens[noun].lemma in TIME_NOUNS
    if noun > verb or between or time:
        return False
    if tokens[first].pos == "KOUS":
        return True
    # one constituent stands before the finite verb of a main clause: what follows the noun up to the verb
    # belongs to its noun phrase (a genitive, a prepositional attribute: Ein Gericht in Bangladesch haben)
    return not any(tokens[i].pos in FINITE or tokens[i].text in (",", ":", ";") for i in range(noun + 1, verb))


def _certain_nominative(analysis: Analysis, noun: int) -> bool:
    """Whether the noun phrase of ``noun`` can only be nominative: its article word agrees with the noun in
    the nominative only (*der Investor*, *ein Mann*)."""
    tokens = analysis.tokens
    start = _np_start(analysis, noun)
    if tokens[start].pos not in ARTICLE_WORDS:
        return False
    analyses = noun_inf.noun_analyses(tokens[noun].text)
    readings = [r for r in inf.determiner_readings(tokens[start].text)
                if any(a[0] == r.number and a[2] == r.case and (r.number == "PL" or a[1] == r.gender) for a in analyses)]
    return bool(readings) and all(r.case == "NOM" for r in readings)


def _coordinated_before(analysis: Analysis, noun: int, verb: int) -> bool:
    """Whether a coordinating conjunction stands between a noun before the verb and the verb (*Ein Mann aus
    Malta und ein anderer aus Brasilien wollen*): the subject may be the coordination."""
    return noun < verb and any(t.pos == "KON" for t in analysis.tokens[noun + 1 : verb])


def _pronoun_number(analysis: Analysis, subject: Subject, verb: int, lemma: str) -> str | None:
    """The number of a personal-pronoun subject next to the verb (at most one word between) where it is
    certain: not *sie* (she/they), *ihr* (also a dative) or *es* (often an expletive: *Es kamen viele*) — except
    *es gibt*, always singular — and polite *Sie* only right after the verb (*kann Sie*: plural); further
    away only *ich*, *du*, *er*, *wir* opening a verb-final clause (*dass er … hatten*)."""
    tokens = analysis.tokens
    word = tokens[subject.index].text.lower()
    between = words_between(analysis, subject.index, verb)
    if word == "es" and lemma == "geben":
        return "SG"
    if subject.formal:
        return "PL" if between == 0 and subject.index == verb + 1 else None
    if word in ("sie", "es", "ihr"):
        return None
    if between > 1:  # ich, du, er, wir open a verb-final clause: dass er … hatten
        opens = subject.index > 0 and tokens[subject.index - 1].pos in VERB_FINAL_OPENERS and subject.index < verb
        coordinated = any(t.pos == "KON" for t in tokens[subject.index - 1 : verb])
        return subject.number if opens and not coordinated else None
    return subject.number


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
    nouns = [n for n in noun_subject_candidates(analysis, verb) if not _genitive_attribute(analysis, n)]
    return len(nouns) > 1


RELATIVE_PRONOUNS = {"der": ("MASC",), "das": ("NEUT",), "die": ("FEM", "PL")}


def _antecedent_number(analysis: Analysis, pronoun: Token) -> str | None:
    """The number of the relative pronoun *der*, *die* or *das* right after a comma, from the noun before
    the comma it agrees with (*Kučera, der* SG; *die Anleger, die* PL; *die Tafel, die* SG), where certain."""
    tokens = analysis.tokens
    if pronoun.index < 2 or tokens[pronoun.index - 1].text != ",":
        return None
    antecedent = tokens[pronoun.index - 2]
    allowed = RELATIVE_PRONOUNS.get(pronoun.text.lower())
    if allowed is None or antecedent.pos not in ("NN", "NE") or not antecedent.text[:1].isupper():
        return None
    if antecedent.pos == "NE":
        return "SG" if _name_number(analysis, antecedent.index, antecedent.index) and "PL" not in allowed else None
    numbers = _noun_numbers_for(antecedent.text, allowed, pronoun.text.lower())
    if numbers is None or len(numbers) != 1:
        return None
    if _genitive_attribute(analysis, antecedent.index):  # die Analyse der Märkte, die: which noun is meant?
        start = _np_start(analysis, antecedent.index)
        owner = tokens[start - 1]
        if owner.pos != "NN" or _noun_numbers_for(owner.text, allowed, pronoun.text.lower()) != numbers:
            return None
    return numbers.pop()


def _noun_numbers_for(noun: str, allowed: tuple[str, ...], pronoun: str) -> set[str] | None:
    """The numbers of ``noun``'s readings a relative pronoun of the ``allowed`` genders (or plural) can refer
    to; ``None`` for *der* after a feminine noun (a dative: *die Frau, der ich half*)."""
    numbers = set()
    for number, gender, _ in noun_inf.noun_analyses(noun):
        if number == "PL" and "PL" in allowed:
            numbers.add("PL")
        elif number == "SG" and gender in allowed:
            numbers.add("SG")
        elif number == "SG" and pronoun == "der" and gender == "FEM":
            return None
    return numbers


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
    number = _antecedent_number(analysis, pronoun)
    if number is None:
        return []
    if pronoun.text.lower() == "der":
        return [number]
    if any(t.pos in SUBJECT_PRONOUNS or t.pos in ("FM", "XY") for t in tokens[first:last]):
        return []  # die er kennt: the pronoun may be the object
    others = [n for n in noun_subject_candidates(analysis, verb) if not _genitive_attribute(analysis, n)]
    return [number] + [noun_number(analysis, n) for n in others]


PRONOUN_NUMBERS = {
    "ich": "SG", "du": "SG", "er": "SG", "wir": "PL", "man": "SG", "niemand": "SG", "jemand": "SG", "jeder": "SG",
    "jede": "SG", "jedes": "SG", "keiner": "SG", "keine": None, "etwas": "SG", "nichts": "SG", "alles": "SG",
    "dies": "SG", "dieses": "SG", "dieser": "SG", "jener": "SG", "einer": "SG", "eine": "SG", "eines": "SG",
    "einige": "PL", "viele": "PL", "wenige": "PL", "mehrere": "PL", "alle": "PL", "beide": "PL", "andere": "PL",
    "manche": "PL",
}
NOMINATIVE_FORMS = frozenset({"ich", "du", "er", "sie", "es", "wir", "ihr", "man"})


def _pronoun_candidates(analysis: Analysis, verb: int) -> list[tuple[int, str | None, bool]]:
    """(index, number or ``None``, certainly nominative) of the pronouns of the verb's clause that may be its
    subject: nominative personal pronouns not after a preposition, indefinite and demonstrative pronouns."""
    tokens = analysis.tokens
    first, last = clause_bounds(analysis, verb)
    out = []
    for token in tokens[first:last]:
        word = token.text.lower()
        after_preposition = token.index > 0 and tokens[token.index - 1].pos in ("APPR", "APPRART")
        if token.index == verb or after_preposition:
            continue
        if token.pos == "PPER" and word in NOMINATIVE_FORMS:
            out.append((token.index, PRONOUN_NUMBERS.get(word), word not in ("sie", "es", "ihr")))
        elif token.pos in ("PIS", "PDS"):
            out.append((token.index, PRONOUN_NUMBERS.get(word), False))
    return out


def _clause_subject_numbers(analysis: Analysis, verb: int, lemma: str) -> list[str | None]:
    """The numbers of the possible subjects of ``verb`` (nouns and pronouns of its clause; ``None`` where
    the number is unknown).  When the clause's first noun phrase (or pronoun) opens it (:func:`_opens_clause`)
    with a certain number, it is taken for the subject, and of the later ones only those that keep a known
    number or are certainly nominative compete (a personal pronoun, *der Investor*)."""
    nouns = [n for n in noun_subject_candidates(analysis, verb) if not _genitive_attribute(analysis, n)]
    found = [(n, None if _coordinated_before(analysis, n, verb) else noun_number(analysis, n), False) for n in nouns]
    found += [(i, None if _coordinated_before(analysis, i, verb) else number, certain)
              for i, number, certain in _pronoun_candidates(analysis, verb)]
    found.sort()
    if not found:
        return []
    index, number, _ = found[0]
    tokens = analysis.tokens
    pronoun = tokens[index].pos in ("PIS", "PDS", "PPER")
    if number is not None and lemma not in COPULAS and _opens_clause(analysis, index, verb, pronoun):
        later = [(i, n, c) for i, n, c in found[1:] if c or (n is not None and tokens[i].pos not in ("PIS", "PDS"))]
        later = [(i, n, c) for i, n, c in later if tokens[i].pos == "PPER" or n is not None or
                 _certain_nominative(analysis, i)]
        return [number] + [n for _, n, _ in later]
    return [n for _, n, _ in found]


def _subject_before_embedded(analysis: Analysis, verb: int) -> tuple[int, str] | None:
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
    if head is None or any(t.pos not in NP_INNER and t.pos not in ARTICLE_WORDS and t.pos != "NE"
                           for t in prefield if t.index < head):
        return None
    if any(tokens[i].pos == "PPER" for i, _, _ in _pronoun_candidates(analysis, verb)):
        return None  # Andere Länder, darunter Spanien, wird sie erreichen: the pronoun is the subject
    number = noun_number(analysis, head)
    return (head, number) if number is not None else None


def disagreeing_verbs(analysis: Analysis) -> list[tuple[int, int]]:
    """(verb, subject) token indices of finite verbs with no reading in their subject's person and number.

    A pronoun subject is checked alone; for a noun subject, every noun of the clause that may be the subject
    (:func:`performers.german.syntax.noun_subject_candidates`) must have a certain number that the verb
    does not have (*Die besten Momente hat der Abend* does not fire)."""
    tokens = analysis.tokens
    found = []
    verbs = finite_verbs(analysis)
    for index, lemma in verbs.items():
        if _infinitive_beside_finite(analysis, verbs, index, lemma):
            continue
        readings = verb_inf.verb_readings(tokens[index].text, lemma)
        relative = _relative_clause_numbers(analysis, index)
        if relative is not None:
            if readings and relative and all(n is not None and not any(r.person == 3 and r.number == n
                                                                        for r in readings) for n in relative):
                found.append((index, clause_bounds(analysis, index)[0] - 1))
            continue
        outer = _subject_before_embedded(analysis, index)
        if outer is not None:
            subject_index, number = outer
            if readings and not any(r.person == 3 and r.number == number for r in readings):
                found.append((index, subject_index))
            continue
        subject = subject_of(analysis, index)
        if subject is None or not readings:
            continue
        if _predicate_may_follow(analysis, index, lemma, subject):
            continue  # after a copula a noun may be the predicate: Sie sind ein Fetischist
        if tokens[subject.index].pos == "PPER":
            number = _pronoun_number(analysis, subject, index, lemma)
            if number is None:
                continue
            numbers = [number]
        elif _noun_subject_checkable(analysis, index):
            numbers = _clause_subject_numbers(analysis, index, lemma)
        else:
            continue
        if numbers and all(
            number is not None and not any(r.person == subject.person and r.number == number for r in readings)
            for number in numbers
        ):
            found.append((index, subject.index))
    return found


class SubjVerbAgreementZellig:
    """Swap the number of each finite verb, keeping person, tense and mood (one candidate per new form)."""

    version = "1"
    phenomenon = PHENOMENON

    def __init__(
        self, training_corpus: ExistingFile | None = None, include_sie: bool = True, backend: str = DEFAULT_BACKEND
    ) -> None:
        if not isinstance(include_sie, bool):
            raise ConfigError(f"include_sie must be true or false, got {include_sie!r}")
        self.backend = backend
        self.include_sie = include_sie
        self.counts = training_counts(training_corpus)

    def _keep(self, analysis: Analysis, subject: Subject | None) -> bool:
        """With ``include_sie=False``, skip verbs whose subject is the ambiguous *sie* (subj_adequacy)."""
        if self.include_sie or subject is None or subject.formal:
            return True
        return analysis.tokens[subject.index].text.lower() != "sie"

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants: list[Variant] = []
        for index, lemma in finite_verbs(analysis).items():
            token = analysis.tokens[index]
            subject = subject_of(analysis, token.index)
            if not self._keep(analysis, subject):
                continue
            for new, reading in number_swaps(analysis, token, subject, lemma):
                meta: dict = {
                    "position": token.index,
                    "verb": token.text,
                    "lemma": reading.lemma,
                    "tense": reading.tense,
                    "mood": reading.mood,
                    "person": reading.person,
                    "number": reading.number,
                }
                if subject is not None:
                    subject_word = analysis.tokens[subject.index].text
                    if subject_word.lower() == "sie" and not subject.formal:
                        meta["ambiguous_subject"] = True
                    meta["subject"] = subject_word
                    meta["distance"] = distance(analysis, subject.index, token.index)
                    meta.update(frequency_meta(self.counts, subject_word, token.text))
                else:
                    meta.update(frequency_meta(self.counts, token.text))
                edit = Edit(token.start, token.end, token.text, new)
                variants.append(make_variant(instance, [edit], self.phenomenon, meta))
        return variants

    def detect(self, text: str, source: str | None = None) -> bool:
        """Whether a finite verb of ``text`` disagrees in number with a subject whose number is certain."""
        return bool(disagreeing_verbs(analyze(text, self.backend)))
