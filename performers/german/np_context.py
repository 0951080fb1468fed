"""The cases a definite noun phrase may have where its context fixes them, for agreement checks without a
parser (STTS tags from SoMaJo + HanTa; shallow clauses from :mod:`performers.german.syntax`).

    from performers.german.np_context import context_cases

    context_cases(analysis, article_index, head_index)   # frozenset({'ACC', 'DAT'}) after *auf*, or None

What fixes the case, in this order (:func:`context_cases`):

- after a preposition, the cases it governs (:mod:`performers.german.government`; *auf der Markt*: only a
  nominative, so an error); a word that may also be a postposition or adverb counts only where no noun or
  conjunction precedes it (*der Legende nach*, *vom Büro aus*); after *seit*, *während*, *bis*, also
  conjunctions, the nominative too (*seit der Gerichtshof entschied*); after *außer* and an *um* that
  opens an infinitive (*um der Eurozone zu helfen*) nothing;
- in a clause with a verb or adjective that takes a genitive object (:func:`genitive_governor`: *gedenken*,
  *sich enthalten*, *schuldig*), nothing;
- a *subject position* (:func:`subject_verb`): the prefield of a main clause (the noun phrase opens the
  sentence, after quotes and focus particles, or a clause after a coordinating conjunction, and the finite
  verb follows it and its genitive or prepositional attributes: *Der Börse in Taiwan fiel*), right after a
  subordinating conjunction (*dass der Regierung …*), or right after the finite verb (not *sein*: *war der
  Ansicht*) of a main clause whose prefield holds no subject (*Tatsächlich wurde der Dividende gestrichen*)
  — in each only where nothing else in the clause may be the subject (:func:`sole_subject`: no nominative,
  indefinite, demonstrative, interrogative or relative pronoun, no standalone number, no other noun phrase
  that may be a nominative agreeing with the verb, no *dass*-clause that may be the subject): nominative or
  accusative, unless the article itself is *dem* or *den* (a dative there needs a verb that takes one, rarer
  in news than *Den Kindern stehen …*);
- a *free position* (:func:`free_position`): right after a finite verb, a subordinating conjunction (not
  one that is also a preposition) or a personal or reflexive pronoun, where no noun precedes for a genitive
  attribute to attach to: any case but the genitive (*Gleichzeitig stellte der Unternehmen fest* fires:
  *der Unternehmen* is only a genitive plural).

Elsewhere the case is left open (``None``).  Whether an article word after a comma may be a relative pronoun
is :mod:`performers.german.relative_pronoun`'s business.
"""

from __future__ import annotations

from performers.german.analysis import Analysis, Token
from performers.german.government import governed_cases
from performers.german.syntax import (
    FINITE,
    NOMINATIVE_PRONOUNS,
    NP_INNER,
    clause_bounds,
    is_quote,
    noun_subject_candidates,
    np_head,
)

POSTPOSITIONS = frozenset({"nach", "aus", "gegenüber", "zufolge", "entgegen"})
# words that may precede the prefield's noun phrase as part of it (focus particles) or open a main clause
FOCUS_PARTICLES = frozenset({"auch", "sogar", "selbst", "nur", "gerade", "vor", "allem"})
MAIN_CLAUSE_CONJUNCTIONS = frozenset({"und", "aber", "doch", "denn", "sondern", "oder"})
# verbs with a genitive object (Duden Grammatik § 1491): a genitive may stand free in their clauses; the
# reflexive ones only with their reflexive pronoun (*sich der Stimme enthalten*, not *enthielt der Rechnung*)
GENITIVE_VERBS = frozenset({
    "gedenken", "bedürfen", "entbehren", "harren", "anklagen", "beschuldigen", "verdächtigen", "überführen",
    "berauben", "verweisen", "würdigen", "versichern",
})
REFLEXIVE_GENITIVE_VERBS = frozenset({
    "annehmen", "bemächtigen", "bedienen", "enthalten", "entledigen", "erinnern", "rühmen", "schämen",
    "vergewissern", "erfreuen", "entsinnen",
})
# (not infinitives: *beim Betrachten des Bildes*, a nominalised infinitive the tagger took for a verb)
FREE_BEFORE = frozenset({"VVFIN", "VAFIN", "VMFIN", "KOUS", "PPER", "PRF"})
# conjunctions that are also prepositions (*während des Tages*, *seit der Wahl*)
PREPOSITION_LIKE = frozenset({"während", "als", "seit", "bis", "wie"})
# adjectives with a genitive object (*des Verrats schuldig*)
GENITIVE_ADJECTIVES = frozenset({
    "schuldig", "bewusst", "sicher", "würdig", "fähig", "mächtig", "überdrüssig", "voll", "wert", "gewiss", "müde",
})
SUBJECT_PRONOUNS = frozenset({"PIS", "PDS", "PWS", "PRELS"})


def after_attributes(tokens: tuple[Token, ...], head: int) -> int:
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
    if tokens[first].pos in ("KOUS", "KOUI") or not _adverbial_prefield(tokens, first, before):
        return None
    if first > analysis.sentences[tokens[index].sentence].first and not _after_subordinate_clause(analysis, first, before):
        return None
    return before


def _adverbial_prefield(tokens: tuple[Token, ...], first: int, verb: int) -> bool:
    """Whether the prefield ``[first, verb)`` holds no subject: it is empty, a prepositional phrase, or has
    no noun, name, foreign word or pronoun (*Zuvor*, *Darüber hinaus*; not *Der Stylist zieht …*)."""
    prefield = [t for t in tokens[first:verb] if not is_quote(t)]
    if not prefield or prefield[0].pos in ("APPR", "APPRART", "KOUS"):
        return True
    return not any(t.pos in ("NN", "NE", "FM", "PIS", "PDS", "PPER", "CARD") for t in prefield)


def _after_subordinate_clause(analysis: Analysis, first: int, verb: int) -> bool:
    """Whether the clause starting at ``first`` opens with its finite ``verb`` right after a comma that ends a
    subordinate clause (its first word a subordinating conjunction, its last a verb)."""
    tokens = analysis.tokens
    if first != verb or tokens[first - 1].text != "," or first < 2 or not tokens[first - 2].pos.startswith("V"):
        return False
    previous, _ = clause_bounds(analysis, first - 2)
    return tokens[previous].pos == "KOUS"


def subject_verb(analysis: Analysis, index: int, head: int, any_number: bool = False) -> int | None:
    """The finite verb whose subject the noun phrase from the article at ``index`` to its ``head`` must be,
    or ``None``: the phrase opens a main clause and the finite verb follows its attributes, it directly
    follows a subordinating conjunction (not *während* or *als*, also prepositions), or it directly follows
    the finite verb of a main clause; and nothing else in the clause may be the subject
    (:func:`sole_subject`)."""
    tokens = analysis.tokens
    if index > 0 and tokens[index - 1].pos == "KOUS":
        if tokens[index - 1].text.lower() in ("während", "als"):
            return None
        verb = next((t.index for t in tokens[head + 1 :] if t.pos in FINITE), None)
    else:
        verb = _after_finite_verb(analysis, index)
        if verb is None and _opens_main_clause(analysis, index):
            after = after_attributes(tokens, head)
            verb = after if after < len(tokens) and tokens[after].pos in FINITE else None
    return verb if verb is not None and sole_subject(analysis, index, head, verb, any_number) else None


def verb_numbers(analysis: Analysis, verb: int) -> set[str]:
    """The numbers (``SG``, ``PL``) of the third-person readings of the finite verb at ``verb``."""
    from performers.german.verb_inflection import verb_readings

    token = analysis.tokens[verb]
    return {r.number for r in verb_readings(token.text, token.lemma) if r.person == 3}


# verbs whose subject may be a clause while a dative names the experiencer (*Der Regierung gelang, …*)
CLAUSAL_SUBJECT_VERBS = frozenset({
    "gefallen", "gelingen", "fehlen", "schaden", "nützen", "nutzen", "helfen", "auffallen", "einfallen", "passen",
    "missfallen", "genügen", "reichen", "obliegen", "zustehen", "drohen", "scheinen", "vorkommen", "bleiben",
})


def _clausal_subject(analysis: Analysis, first: int, last: int, verb: int) -> bool:
    """Whether a clause that may be the subject follows the clause ``[first, last)``: a *dass*, *ob* or
    *w*-clause after the comma, where the clause has a predicative adjective or participle or a verb whose
    subject may be a clause (*Der Regierung ist klar, dass …*, *Der Kommission wurde mitgeteilt, dass …*, *Der
    Bahn macht zu schaffen, dass …*;
    not *Zuvor sagte der Kommission, dass …*, whose verb needs a subject besides its object clause)."""
    tokens = analysis.tokens
    nxt = tokens[last + 1] if last + 1 < len(tokens) else None
    if last >= len(tokens) or tokens[last].text != "," or nxt is None:
        return False
    if nxt.text.lower() not in ("dass", "ob") and nxt.pos not in ("PWS", "PWAV"):
        return False
    return tokens[verb].lemma in CLAUSAL_SUBJECT_VERBS or any(t.pos in ("ADJD", "VVPP", "PTKZU") for t in tokens[first:last])


def sole_subject(analysis: Analysis, index: int, head: int, verb: int, any_number: bool = False) -> bool:
    """Whether nothing but the noun phrase from ``index`` to ``head`` in the clause of the finite ``verb`` may
    be its subject: no nominative or indefinite, demonstrative, interrogative or relative pronoun, no other
    noun phrase that may be nominative and agree with the verb (*Der Prager Börse fehlt das Geld*: *das
    Geld* may be the subject, *der Börse* a dative; in *Der Kommission hat fünf Anfragen erörtert* the
    plural cannot be the subject of *hat*; with ``any_number`` it competes in either number), and no
    following *dass*-clause that may be the subject."""
    tokens = analysis.tokens
    first, last = clause_bounds(analysis, verb)
    if not first <= index < last or _clausal_subject(analysis, first, last, verb):
        return False
    for token in tokens[first:last]:
        if (token.pos == "PPER" and token.text.lower() in NOMINATIVE_PRONOUNS) or token.pos in SUBJECT_PRONOUNS:
            return False
        if token.pos in ("CARD", "PIAT") and _standalone_number(tokens, token.index):
            return False  # zehn hatten sich der Stimme enthalten: a number standing for a noun phrase
    numbers = verb_numbers(analysis, verb)
    if not numbers:
        return False
    numbers = {"SG", "PL"} if any_number else numbers
    others = [n for n in noun_subject_candidates(analysis, verb) if not index <= n <= head and not _attribute(tokens, head, n)]
    # another noun phrase competes only if it may agree with the verb (fünf Anfragen cannot be the subject of hat)
    return not any(_may_be_subject(analysis, noun, numbers) for noun in others)


def _standalone_number(tokens: tuple[Token, ...], index: int) -> bool:
    """Whether the number or quantifier at ``index`` stands for a noun phrase (*zehn hatten …*, *die meisten
    tragen …*), not counts a noun, follows one or a preposition (*bis Ende 2009*, *mit 43*)."""
    before = tokens[index - 1].pos if index > 0 else ""
    after = tokens[index + 1].pos if index + 1 < len(tokens) else ""
    if tokens[index].pos == "PIAT":
        return after not in ("NN", "NE", "ADJA", "CARD", "PIAT", "ADV")
    return before not in ("NN", "NE", "APPR", "APPRART", "ART", "CARD", "ADJA") and after not in ("NN", "NE", "ADJA", "CARD")


def _may_be_subject(analysis: Analysis, noun: int, numbers: set[str]) -> bool:
    """Whether the noun at ``noun`` may be a subject agreeing in number with a verb of ``numbers``: after a
    definite article, only where article and noun agree in a nominative reading of such a number (*der
    Regierung* is no nominative); otherwise where its number as a subject is unknown or among ``numbers``."""
    from performers.german import inflection as inf
    from performers.german import noun_inflection as noun_inf
    from performers.german.subject_number import noun_number

    tokens = analysis.tokens
    start = noun - 1
    while start >= 0 and (tokens[start].pos in NP_INNER or is_quote(tokens[start])):
        start -= 1
    article = tokens[start].text.lower() if start >= 0 and tokens[start].pos == "ART" else ""
    analyses = noun_inf.noun_analyses(tokens[noun].text) if tokens[noun].pos == "NN" else ()
    if article in ("der", "die", "das", "den", "dem", "des") and analyses:
        return any(
            case == "NOM" and number in numbers
            and inf.article("PL.DEF.NOM" if number == "PL" else f"SG.DEF.{gender}.NOM") == article
            for number, gender, case in analyses
            if number == "PL" or gender is not None
        )
    return noun_number(analysis, noun) in (None, *numbers)


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
    clause = analysis.tokens[start:last]
    reflexive = any(t.pos == "PRF" for t in clause)
    return any(
        (t.pos.startswith("V") and (t.lemma in GENITIVE_VERBS or (reflexive and t.lemma in REFLEXIVE_GENITIVE_VERBS)))
        or t.text.lower() in GENITIVE_ADJECTIVES
        for t in clause
    )


def _um_zu(analysis: Analysis, index: int) -> bool:
    """Whether the *um* before the article at ``index`` opens an infinitive clause (*um der Eurozone zu
    helfen*), a *zu*-infinitive following in its clause."""
    tokens = analysis.tokens
    if tokens[index - 1].text.lower() != "um":
        return False
    _, last = clause_bounds(analysis, index)
    return any(t.pos in ("PTKZU", "VVIZU") for t in tokens[index:last])


def context_cases(analysis: Analysis, index: int, head: int) -> frozenset[str] | None:
    """The cases the noun phrase opened by the article at ``index`` (head at ``head``) may have where its
    context fixes them (see the module docstring); ``None`` where it does not."""
    tokens = analysis.tokens
    if index == 0 or tokens[index - 1].pos != "APPR":
        article = tokens[index].text.lower()
        if genitive_governor(analysis, index):
            return None
        if article not in ("dem", "den") and subject_verb(analysis, index, head) is not None:
            return frozenset({"NOM", "ACC"})
        return frozenset({"NOM", "ACC", "DAT"}) if free_position(analysis, index) else None
    preposition = tokens[index - 1]
    before = tokens[index - 2] if index >= 2 else None
    if preposition.text.lower() in POSTPOSITIONS and before is not None and before.pos in ("NN", "NE", "KON", "ADV"):
        return None
    if preposition.text.lower() == "außer" or _um_zu(analysis, index):
        return None  # conjunctions before an infinitive (außer den Ruhm zu vernichten, um der Eurozone zu helfen)
    governed = governed_cases(preposition.text)
    if governed is not None and preposition.text.lower() in PREPOSITION_LIKE:
        return governed | {"NOM"}  # seit der Gerichtshof entschied: a conjunction the tagger took for a preposition
    return governed
