"""The cases a definite noun phrase may have where its context fixes them, for agreement checks without a
parser (STTS tags from SoMaJo + HanTa; shallow clauses from :mod:`performers.german.syntax`).

    from performers.german.np_context import context_cases

    context_cases(analysis, article_index, head_index)   # frozenset({'ACC', 'DAT'}) after *auf*, or None

What fixes the case, in this order (:func:`context_cases`):

- after a preposition, the cases it governs (:mod:`performers.german.government`; *auf der Markt*: only a
  nominative, so an error); a word that may also be a postposition or adverb counts only where no noun or
  conjunction precedes it (*der Legende nach*, *vom Büro aus*);
- a *subject position* (:func:`subject_position`): the prefield of a main clause (the noun phrase opens the
  sentence or a clause after a coordinating conjunction, and the finite verb follows it and its genitive or
  prepositional attributes: *Der Börse in Taiwan fiel*), right after a subordinating conjunction (*dass der
  Regierung …*), or right after the finite verb of a main clause (*Zuvor sagte der Kommission, …*) — in
  each only where nothing else in the clause may be the subject (:func:`sole_subject`: no nominative
  pronoun, no other noun phrase that may agree with the verb, no *dass*-clause that may be the subject):
  nominative or accusative, unless the article itself is *dem* or *den* (a dative there needs a verb that
  takes one, rarer in news than *Den Kindern stehen …*);
- a *free position* (:func:`free_position`): after a verb, a subordinating conjunction, a pronoun or at
  the start of a sentence, where no noun precedes for a genitive attribute to attach to and no verb of the
  clause takes a genitive object (*gedenken*, *bedürfen* …): any case but the genitive (*Gleichzeitig
  stellte der Unternehmen fest* fires: *der Unternehmen* is only a genitive plural).

Elsewhere the case is left open (``None``).
"""

from __future__ import annotations

from performers.german.analysis import Analysis, Token
from performers.german.government import governed_cases
from performers.german.syntax import (
    FINITE,
    NOMINATIVE_PRONOUNS,
    clause_bounds,
    is_quote,
    noun_subject_candidates,
    np_head,
)

CLAUSE_END = frozenset({",", ".", ";", ":", "!", "?", "(", ")", "–", "-"})
POSTPOSITIONS = frozenset({"nach", "aus", "gegenüber", "zufolge", "entgegen"})
# words that may precede the prefield's noun phrase as part of it (focus particles) or open a main clause
FOCUS_PARTICLES = frozenset({"auch", "sogar", "selbst", "nur", "gerade", "vor", "allem"})
MAIN_CLAUSE_CONJUNCTIONS = frozenset({"und", "aber", "doch", "denn", "sondern", "oder"})
# verbs with a genitive object (Duden Grammatik § 1491): a genitive may stand free in their clauses
GENITIVE_VERBS = frozenset({
    "gedenken", "bedürfen", "annehmen", "bemächtigen", "bedienen", "enthalten", "entledigen", "erinnern",
    "rühmen", "schämen", "vergewissern", "entbehren", "harren", "anklagen", "beschuldigen", "verdächtigen",
    "überführen", "berauben", "verweisen", "würdigen", "versichern", "erfreuen",
})
# words before the article that leave no noun for a genitive attribute to attach to
# (not infinitives: *beim Betrachten des Bildes*, a nominalised infinitive the tagger took for a verb)
FREE_BEFORE = frozenset({"VVFIN", "VAFIN", "VMFIN", "KOUS", "PPER", "PRF"})
# conjunctions that are also prepositions (*während des Tages*, *seit der Wahl*)
PREPOSITION_LIKE = frozenset({"während", "als", "seit", "bis", "wie"})
# adjectives with a genitive object (*des Verrats schuldig*)
GENITIVE_ADJECTIVES = frozenset({
    "schuldig", "bewusst", "sicher", "würdig", "fähig", "mächtig", "überdrüssig", "voll", "wert", "gewiss", "müde",
})
SUBJECT_PRONOUNS = frozenset({"PIS", "PDS", "PWS", "PRELS"})


def relative_pronoun_position(tokens: tuple[Token, ...], index: int) -> bool:
    """Whether the article word at ``index`` may be a relative pronoun: it stands after a preposition after a
    comma (*…, bei dem letzte Woche …*), or after a comma where a verb other than a *zu*-infinitive follows
    before the clause ends (*…, die Langholz transportieren*; a relative clause has a finite verb, while *…,
    dem Genre oder der Bewertung …* and *…, die wirtschaftlichen Wettbewerb einzugreifen* have none)."""
    previous = index - 1
    if previous >= 1 and tokens[previous].pos in ("APPR", "APPRART"):
        return tokens[previous - 1].text in (",", "–", "-", "(")
    if previous < 0 or tokens[previous].text not in (",", "–", "-", "("):
        return False
    for after in tokens[index + 1 :]:
        if after.text in CLAUSE_END:
            return False
        if after.pos.startswith("V") and after.pos != "VVIZU" and tokens[after.index - 1].pos != "PTKZU":
            return True
    return False


def adjectives_fit(article: str, tokens: tuple[Token, ...], start: int, head: int) -> bool:
    """After *dem, den, des* an attributive adjective ends in *-en*; one ending in *-e* shows the article is
    not this noun phrase's (*bei dem letzte Woche …*: a relative pronoun)."""
    if article not in ("dem", "den", "des"):
        return True
    return not any(t.pos == "ADJA" and t.text.endswith("e") for t in tokens[start + 1 : head])


def _after_attributes(tokens: tuple[Token, ...], head: int) -> int:
    """The index after the noun phrase's genitive and prepositional attributes and close appositions
    (*Der Börse in Taiwan*, *Die Reaktion des Marktes auf die Ergebnisse*, *Der Technologiebörse Nasdaq*);
    a postposition (*Der Polizei zufolge*) or anything else ends the walk."""
    after = head + 1
    sentence = tokens[head].sentence
    while after < len(tokens) and tokens[after].sentence == sentence:
        token = tokens[after]
        if token.pos in ("NE", "FM"):
            after += 1
        elif token.pos in ("ART", "APPR", "APPRART") and token.text.lower() not in POSTPOSITIONS:
            inner = after + 1 if token.pos != "ART" else after
            if inner < len(tokens) and tokens[inner].pos in ("NN", "NE"):
                after = inner + 1
                continue
            nested = np_head(tokens, inner, extended=False) if tokens[inner].pos == "ART" else None
            if nested is None:
                return after
            after = nested + 1
        else:
            return after
    return after


def _opens_main_clause(analysis: Analysis, index: int) -> bool:
    """Whether the article at ``index`` opens a main clause: the sentence (after quotes and focus particles,
    *Auch der Lebensdauer …*) or a clause after a coordinating conjunction at the sentence start or after a
    comma (*…, und der Straße ist …*)."""
    tokens = analysis.tokens
    first = analysis.sentences[tokens[index].sentence].first
    before = index - 1
    while before >= first and tokens[before].text.lower() in FOCUS_PARTICLES and tokens[before].pos == "ADV":
        before -= 1
    if before >= first and tokens[before].text.lower() in MAIN_CLAUSE_CONJUNCTIONS and tokens[before].pos == "KON":
        before -= 1
        if before >= first and tokens[before].text == ",":
            return True
    while before >= first and is_quote(tokens[before]):
        before -= 1
    return before < first


def _after_finite_verb(analysis: Analysis, index: int) -> int | None:
    """The finite verb right before the article at ``index`` (*sich* between allowed) when that verb, not a
    form of *sein* (*war der Ansicht*: a genitive predicate), opens the middle field of a main clause: the
    clause starts the sentence (*Zuvor sagte der Kommission*) or follows a subordinate clause with the verb
    first (*…, als sie die Koalition verließ, hatte der Volkspartei …*); else ``None``."""
    tokens = analysis.tokens
    before = index - 1
    if before >= 0 and tokens[before].pos == "PRF":
        before -= 1
    verb = tokens[before] if before >= 0 else None
    if verb is None or verb.pos not in FINITE or verb.lemma == "sein" or not verb.text[:1].islower():
        return None
    first, _ = clause_bounds(analysis, before)
    if tokens[first].pos in ("KOUS", "KOUI"):
        return None
    if first > analysis.sentences[tokens[index].sentence].first and not _after_subordinate_clause(analysis, first, before):
        return None
    return before


def _after_subordinate_clause(analysis: Analysis, first: int, verb: int) -> bool:
    """Whether the clause starting at ``first`` opens with its finite ``verb`` right after a comma that ends a
    subordinate clause (its first word a subordinating conjunction, its last a verb)."""
    tokens = analysis.tokens
    if first != verb or tokens[first - 1].text != "," or first < 2 or not tokens[first - 2].pos.startswith("V"):
        return False
    previous, _ = clause_bounds(analysis, first - 2)
    return tokens[previous].pos == "KOUS"


def subject_position(analysis: Analysis, index: int, head: int) -> bool:
    """Whether the noun phrase from the article at ``index`` to its ``head`` stands where it must be the
    subject: it opens a main clause and the finite verb follows its attributes, it directly follows a
    subordinating conjunction (not *während* or *als*, also prepositions), or it directly follows the finite
    verb of a main clause; and nothing else in the clause may be the subject (:func:`sole_subject`)."""
    tokens = analysis.tokens
    if index > 0 and tokens[index - 1].pos == "KOUS":
        if tokens[index - 1].text.lower() in ("während", "als"):
            return False
        verb = next((t.index for t in tokens[head + 1 :] if t.pos in FINITE), None)
        return verb is not None and sole_subject(analysis, index, head, verb)
    verb = _after_finite_verb(analysis, index)
    if verb is not None:
        return sole_subject(analysis, index, head, verb)
    if not _opens_main_clause(analysis, index):
        return False
    after = _after_attributes(tokens, head)
    return after < len(tokens) and tokens[after].pos in FINITE and sole_subject(analysis, index, head, after)


def _clausal_subject(analysis: Analysis, last: int) -> bool:
    """Whether a clause that may be the subject follows the clause ending at ``last`` (*Der Regierung ist
    klar, dass …*), or the clause has an *es* standing for one."""
    tokens = analysis.tokens
    nxt = tokens[last + 1] if last + 1 < len(tokens) else None
    return (
        last < len(tokens)
        and tokens[last].text == ","
        and nxt is not None
        and (nxt.pos in ("KOUS", "PWS", "PWAV", "KOUI") or nxt.text.lower() in ("dass", "ob", "wie", "zu"))
    )


def sole_subject(analysis: Analysis, index: int, head: int, verb: int) -> bool:
    """Whether nothing but the noun phrase from ``index`` to ``head`` in the clause of the finite ``verb`` may
    be its subject: no nominative or indefinite, demonstrative, interrogative or relative pronoun, no other
    noun phrase that may be nominative and agree with the verb (*Der Prager Börse fehlt das Geld*: *das
    Geld* may be the subject, *der Börse* a dative; in *Der Kommission hat fünf Anfragen erörtert* the
    plural cannot be the subject of *hat*), and no following *dass*-clause that may be the subject."""
    tokens = analysis.tokens
    first, last = clause_bounds(analysis, verb)
    if not first <= index < last or _clausal_subject(analysis, last):
        return False
    for token in tokens[first:last]:
        if (token.pos == "PPER" and token.text.lower() in NOMINATIVE_PRONOUNS) or token.pos in SUBJECT_PRONOUNS:
            return False
        if token.pos == "CARD" and token.index + 1 < last and tokens[token.index + 1].pos not in ("NN", "NE", "ADJA"):
            return False  # zehn hatten sich der Stimme enthalten: a number standing for a noun phrase
    from performers.german.subject_number import noun_number
    from performers.german.verb_inflection import verb_readings

    numbers = {r.number for r in verb_readings(tokens[verb].text, tokens[verb].lemma) if r.person == 3}
    if not numbers:
        return False
    others = [n for n in noun_subject_candidates(analysis, verb) if not index <= n <= head and not _attribute(tokens, head, n)]
    # another noun phrase competes only if it may agree with the verb (fünf Anfragen cannot be the subject of hat)
    return all(noun_number(analysis, noun) not in (None, *numbers) for noun in others)


def _attribute(tokens: tuple[Token, ...], head: int, noun: int) -> bool:
    """Whether ``noun`` heads an attribute of the noun phrase ending at ``head``: a genitive right after it
    (*Die Reaktion des Marktes*) or a name in close apposition (*Der Technologiebörse Nasdaq*)."""
    if noun < head:
        return False
    if noun == head + 1 and tokens[noun].pos == "NE":
        return True
    return tokens[head + 1].text.lower() in ("des", "der") and np_head(tokens, head + 1, extended=False) == noun


def free_position(analysis: Analysis, index: int) -> bool:
    """Whether the article at ``index`` stands where a genitive cannot be an attribute: right after a finite
    verb, a subordinating conjunction (not one that is also a preposition, *während des Tages*) or a personal
    or reflexive pronoun, with no verb or adjective in the clause that takes a genitive object
    (:data:`GENITIVE_VERBS`, :data:`GENITIVE_ADJECTIVES`)."""
    tokens = analysis.tokens
    before = tokens[index - 1] if index > 0 else None
    if before is None or before.pos not in FREE_BEFORE or before.text.lower() in PREPOSITION_LIKE:
        return False
    if governed_cases(before.text) is not None:
        return False  # a preposition the tagger missed (zulasten des Wachstums)
    if before.pos in FINITE and not before.text[:1].islower():
        return False  # a capitalised "verb" is mostly a noun the tagger missed (Vorhersagen der Partei)
    return not genitive_governor(analysis, index)


def genitive_governor(analysis: Analysis, index: int) -> bool:
    """Whether the clause of token ``index`` has a verb or adjective that takes a genitive object
    (:data:`GENITIVE_VERBS`, :data:`GENITIVE_ADJECTIVES`: *wurde des Mordes für schuldig befunden*)."""
    start, last = clause_bounds(analysis, index)
    return any(
        (t.pos.startswith("V") and t.lemma in GENITIVE_VERBS) or t.text.lower() in GENITIVE_ADJECTIVES
        for t in analysis.tokens[start:last]
    )


def context_cases(analysis: Analysis, index: int, head: int) -> frozenset[str] | None:
    """The cases the noun phrase opened by the article at ``index`` (head at ``head``) may have where its
    context fixes them (see the module docstring); ``None`` where it does not."""
    tokens = analysis.tokens
    if index == 0 or tokens[index - 1].pos != "APPR":
        article = tokens[index].text.lower()
        if genitive_governor(analysis, index):
            return None
        if article not in ("dem", "den") and subject_position(analysis, index, head):
            return frozenset({"NOM", "ACC"})
        return frozenset({"NOM", "ACC", "DAT"}) if free_position(analysis, index) else None
    preposition = tokens[index - 1]
    before = tokens[index - 2] if index >= 2 else None
    if preposition.text.lower() in POSTPOSITIONS and before is not None and before.pos in ("NN", "NE", "KON", "ADV"):
        return None
    return governed_cases(preposition.text)
