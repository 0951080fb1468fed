"""Finite verbs coordinated with an earlier finite verb whose subject they share (no parser; STTS heuristics).

    from performers.german.coordination import shared_subject_verb

    shared_subject_verb(analysis, finite_verbs(analysis), verb)   # the earlier verb, or None

In *Cornelius Jol nickte und hob den Daumen*, *Sie wollte einen Film bewerben, sprach über …* and *Andere legen
… und tragen …* the second finite verb has no subject of its own: it shares the subject of the finite verb
of the main clause before it, so both must have a reading in the same person and number.  A verb qualifies
(:func:`shared_subject_verb`) when it directly follows *und*, *oder*, *sowie*, *sondern*, *aber* or a comma,
the nearest finite verb before it stands in a main clause (no subordinating conjunction, relative or
interrogative word opens its clause) with no subordinate or infinitive clause in between, and its own
clause has no subject: no nominative personal pronoun (*und trafen wir*; *sie*, *es* right after the verb),
after a comma no noun that may be nominative either (*…, sagten die Experten*), after a conjunction no noun
phrase that is certainly nominative (*und kam der Regen*).  A verb that may be a participle or infinitive
coordinated with one before the conjunction (*hat … gekauft und renoviert*, *will lachen und weinen*) does
not qualify.
"""

from __future__ import annotations

from performers.german import verb_inflection as verb_inf
from performers.german.analysis import Analysis
from performers.german.subject_number import certain_nominative
from performers.german.syntax import FINITE, VERB_FINAL_OPENERS, clause_bounds, is_quote, noun_subject_candidates

COORDINATORS = frozenset({"und", "oder", "sowie", "sondern", "aber"})
SUBJECT_PRONOUNS = frozenset({"ich", "du", "er", "wir", "ihr", "man"})
NEAR_SUBJECT_PRONOUNS = frozenset({"sie", "es"})
EMBEDDING = VERB_FINAL_OPENERS | {"KOUI", "PTKZU", "VVIZU"}
NON_FINITE = frozenset({"VVPP", "VAPP", "VMPP", "VVINF", "VAINF", "VMINF"})


REPORTING_VERBS = frozenset({"sagen", "erklären", "betonen", "berichten", "zitieren", "meinen", "schreiben",
                             "erinnern", "warnen", "bestätigen", "mitteilen", "teilen", "fügen", "hinzufügen",
                             "kommentieren", "ergänzen", "sprechen", "fragen", "antworten", "behaupten",
                             "glauben", "denken", "verraten", "unterstreichen", "versichern", "heißen"})
SUBORDINATORS = frozenset({"als", "wenn", "während", "weil", "da", "ob", "obwohl", "nachdem", "bevor", "wie",
                           "seit", "seitdem", "sobald", "solange", "damit", "dass", "falls", "indem", "bis", "ehe"})


def main_clause(analysis: Analysis, verb: int) -> bool:
    """Whether ``verb`` stands in a main clause: no subordinating conjunction, relative or interrogative word
    opens its clause or stands before it in the clause (*auf welche Firmen … sollen*)."""
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, verb)
    opener = tokens[first - 1] if first > 0 else None
    if opener is not None and opener.pos in EMBEDDING:
        return False
    words = [t for t in tokens[first:verb] if not is_quote(t) and t.pos != "KON"]
    if words and words[0].text.lower() in SUBORDINATORS:
        return False
    return not any(t.pos in EMBEDDING or t.pos == "PWAT" for t in tokens[first:verb])


def _own_subject(analysis: Analysis, verb: int, comma: bool) -> bool:
    """Whether the clause the verb opens may have a subject of its own after the verb."""
    tokens = analysis.tokens
    _, last = clause_bounds(analysis, verb)
    end = next((t.index for t in tokens[verb + 1 : last] if t.pos == "KON"), last)
    for token in tokens[verb + 1 : end]:
        word = token.text.lower()
        if token.pos == "PPER" and (word in SUBJECT_PRONOUNS or (word in NEAR_SUBJECT_PRONOUNS and token.index <= verb + 2)):
            return True
    nouns = [n for n in noun_subject_candidates(analysis, verb) if verb < n < end]
    if comma:
        return bool(nouns) or any(t.pos in ("PIS", "PDS") for t in tokens[verb + 1 : end])
    return any(certain_nominative(analysis, n) for n in nouns)


def _maybe_non_finite(analysis: Analysis, verb: int, lemma: str) -> bool:
    """Whether ``verb`` may be a participle (*und verglichen mit …*, *hat … gekauft und renoviert*) or an
    infinitive (*will lachen und weinen*; one that ends its clause or stands before another verb)."""
    tokens = analysis.tokens
    text = tokens[verb].text.lower()
    participle = verb_inf.past_participle(lemma)
    if participle is not None and text == participle.lower():
        return True
    if text != lemma.lower():
        return False
    following = tokens[verb + 1] if verb + 1 < len(tokens) else None
    return (following is None or following.pos.startswith("$") or following.pos.startswith("V")
            or tokens[verb - 2].pos in NON_FINITE)


def shared_subject_verb(analysis: Analysis, verbs: dict[int, str], verb: int) -> int | None:
    """The finite verb before ``verb`` whose subject ``verb`` shares (see the module docstring), or ``None``."""
    tokens = analysis.tokens
    if verb < 2:
        return None
    link = tokens[verb - 1]
    comma = link.text == ","
    if tokens[verb].pos not in FINITE or (verb + 1 < len(tokens) and tokens[verb + 1].pos == "PTKZU"):
        return None  # the tagger's finite verbs only (not lecke Pipelines), no zu-infinitive (glauben zu lassen)
    if not comma and not (link.pos == "KON" and link.text.lower() in COORDINATORS):
        return None
    sentence_first = analysis.sentences[tokens[verb].sentence].first
    earlier = [v for v in verbs if sentence_first <= v < verb - 1]
    if not earlier:
        return None
    previous = max(earlier)
    between = tokens[previous + 1 : verb - 1]
    if any(t.pos in EMBEDDING or (t.pos.startswith("$") and t.text != ",") for t in between):
        return None
    if not main_clause(analysis, previous):
        return None
    if comma and (any(t.text == "," for t in between) or tokens[previous - 1].text == ","):
        return None  # after a comma only the clause right before it, and no parenthesis (…, sagte er, waren …)
    if _verb_final_before(analysis, previous, verb) or _reported_by(analysis, verb, verbs[verb], comma):
        return None
    if _maybe_non_finite(analysis, verb, verbs[verb]) or _own_subject(analysis, verb, comma):
        return None
    return previous


def _reported_by(analysis: Analysis, verb: int, lemma: str, comma: bool) -> bool:
    """Whether ``verb`` is a reporting verb after a comma with a noun phrase right after it (*…, betonte der
    36-Jährige*): its subject follows."""
    tokens = analysis.tokens
    following = tokens[verb + 1] if verb + 1 < len(tokens) else None
    return comma and lemma in REPORTING_VERBS and following is not None and following.pos in (
        "ART", "NN", "NE", "PPOSAT", "ADJA", "PIAT", "PDAT", "CARD")


def _verb_final_before(analysis: Analysis, previous: int, verb: int) -> bool:
    """Whether a finite verb before ``verb`` in the clause of ``previous`` ends a (subordinate or relative)
    clause, right before a comma (*Die Regel, nach der … enthalten dürfen, ist …*), or opens the sentence
    (*Sehen Sie …, oder wird …*: a question or an imperative)."""
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, previous)
    sentence_first = analysis.sentences[tokens[verb].sentence].first
    words = [t for t in tokens[sentence_first:previous + 1] if not is_quote(t)]
    if words and words[0].pos in FINITE:
        return True
    head = next((v for v in range(first, previous + 1) if tokens[v].pos in FINITE), None)
    return head is not None and head + 1 < verb and tokens[head + 1].text == ","


def disagrees_with_shared(analysis: Analysis, verbs: dict[int, str], verb: int, previous: int) -> bool:
    """Whether ``verb`` has no reading in a person and number of any finite verb of the clause of
    ``previous`` (the verb it shares its subject with; all of them, since the tagger may take a participle or
    infinitive for a finite verb: *hat … bestanden und lebt*)."""
    tokens = analysis.tokens
    readings = verb_inf.verb_readings(tokens[verb].text, verbs[verb])
    if not any(r.person == 3 and (r.mood == "IND" or tokens[verb].pos != "VVFIN") for r in readings):
        return False  # danke, lecke: no third person, or only a full verb's subjunctive
    mine = {(r.person, r.number) for r in readings}
    first, _ = clause_bounds(analysis, previous)
    # … keine Züge annehmen, sondern soll: an infinitive right before the link is no finite verb
    infinitive_last = previous + 2 >= verb - 1 and tokens[previous].text.lower() == verbs[previous].lower()
    theirs = [verb_inf.verb_readings(tokens[v].text, verbs[v]) for v in verbs
              if first <= v <= previous and not (infinitive_last and v == previous)]
    if not mine or not theirs or not all(theirs):
        return False
    return not any(mine & {(r.person, r.number) for r in readings} for readings in theirs)


NP_LINKS = frozenset({"und", "sowie"})
NP_OPENERS = frozenset({"ART", "NN", "NE", "ADJA", "PPOSAT", "PDAT", "PIAT", "CARD"})


def coordinated_noun_phrase(analysis: Analysis, noun: int) -> bool:
    """Whether the noun phrase headed by ``noun`` is the first of two joined by *und* or *sowie* (*Kněžínková
    und Adam Plachetka*), or a name heading a list that ends in one (*TSV Seulingen, VfB Lödingsen, … und der
    TTC*): together they are plural."""
    tokens = analysis.tokens
    following = noun + 1
    while following < len(tokens) and tokens[following].pos == "ADV":
        following += 1
    if following + 1 < len(tokens) and tokens[following].text.lower() in NP_LINKS:
        return tokens[following + 1].pos in NP_OPENERS
    if following < len(tokens) and tokens[following].text == "," and tokens[noun].pos == "NE":
        _, last = clause_bounds(analysis, noun)
        _, end = clause_bounds(analysis, last) if last < len(tokens) - 1 else (0, last)
        listed = tokens[following + 1 : end]  # a list of names: TSV Seulingen, VfB Lödingsen, … und der TTC
        return any(t.text.lower() in NP_LINKS for t in listed) and not any(t.pos in FINITE for t in listed)
    return False


def pronoun_coordinated(analysis: Analysis, pronoun: int, verb: int) -> bool:
    """Whether the personal pronoun at ``pronoun`` is coordinated with what stands before or after it (*Meine
    Schwester und ich*, *er und seine Gefährten*, *sowohl … als auch ich*, *du oder ich*), follows *wie* or *als* (*Maler wie ich*), or a quotation
    mark or conjunction stands between it and ``verb`` (*sagten „Du solltest …*; *… gerät und wir uns …*):
    then it is not the verb's subject alone."""
    tokens = analysis.tokens
    low, high = sorted((pronoun, verb))
    if any(is_quote(t) or t.pos == "KON" for t in tokens[low + 1 : high]):
        return True  # … gerät und wir uns …: the pronoun opens the next conjunct
    if pronoun > 0 and tokens[pronoun - 1].pos == "KOKOM":
        return True  # Maler wie ich waren; setzt wie wir
    after = tokens[pronoun + 1] if pronoun + 1 < len(tokens) else None
    if after is not None and after.text.lower() in NP_LINKS | {"oder"}:
        return True  # ich und meine Frau; du oder ich
    before = tokens[pronoun - 1] if pronoun > 0 else None
    # Meine Freunde und ich; sowohl … als auch ich: joined to what stands before (not a new sentence's pronoun)
    return (pronoun >= 2 and before is not None and (before.pos == "KON" or before.text.lower() == "auch")
            and tokens[pronoun - 2].pos not in ("$.", "$,") and not is_quote(tokens[pronoun - 2]))
