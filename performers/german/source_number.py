"""Numbers that the English source settles where the German leaves them open: *sie* (she, it or they)
and a bare noun opening the sentence whose form is singular and plural alike (*Vertreter*, *Forscher*).

    from performers.german.source_number import english_subject_number, opening_disagreements, settled_sie

    sie_number("Yesterday they won.")                   # 'PL'
    settled_sie(analysis, source)                       # the same, None where a German antecedent competes
    english_subject_number("Researchers presume that …")  # 'PL': the English sentence's subject
    opening_disagreements(analysis, source)             # [(verb, noun)] of *Forscher vermutet, dass …*

*sie* (:func:`sie_number`): 'SG' when the source has *she*/*her* and no *they*/*them*/*their*, 'PL' the other
way round, else ``None``. *it* is no evidence: German *sie* for a feminine noun (*it will likely soon …* →
*werden sie wahrscheinlich bald …*) gained 2 of 3,600 development pairs and cost 8 false alarms on human
references, where *it* stands for other things and *sie* for plural nouns the English names.
:func:`settled_sie` keeps that number only where no German noun phrase before *sie* could be its antecedent in
the other number (*Die Polizei gibt an, sie sei …* for *Police say they …*), and never for a *Sie* opening the
sentence, whose antecedent lies outside it (*Sie hat die Märkte gewarnt* for *They have warned …*: the Fed).

The English subject: the noun phrase opening the sentence (after *but*/*and* and quotes), without a
coordination or comma before its verb. Its number comes from a verb that shows it (*is*, *are*, *has*, *have*,
*was*, *were*, *does*, *do*) or, for a plural, from the head's plural *-s* (or an irregular plural: *people*,
*children*) before a verb or a preposition (*Representatives of the legislature met*; *British scientists
said*; *Researchers presume*). Collective nouns (*staff*, *police*, *team*) and heads that verb and form
contradict leave it open. The German side (:func:`opening_disagreements`) only asks where a bare noun
(adjectives allowed, no article word) opens the sentence, german-nouns gives it the same form in both numbers,
and the finite verb follows it after at most a genitive or prepositional attribute: *Vertreter des
Gesetzgebers traf sich* with *Representatives of the legislature met* fires.
"""

from __future__ import annotations

import re

from performers.german import noun_inflection as noun_inf
from performers.german import verb_inflection as verb_inf
from performers.german.analysis import Analysis
from performers.german.expletive import COPULA_LEMMAS
from performers.german.nouns import is_noun_form
from performers.german.subject_number import noun_number
from performers.german.syntax import FINITE, finite_verbs, is_quote


def sie_number(source: str | None) -> str | None:
    """The number of German *sie* from its English source where the source settles it (module docstring)."""
    if not source:
        return None
    words = set(re.findall(r"[a-z]+", source.lower()))
    singular = bool(words & {"she", "her", "hers", "herself"})
    plural = bool(words & {"they", "them", "their", "theirs", "themselves"})
    return "SG" if singular and not plural else "PL" if plural and not singular else None


SINGULAR_VERBS = frozenset({"is", "was", "has", "does", "isn't", "wasn't", "hasn't", "doesn't"})
PLURAL_VERBS = frozenset({"are", "were", "have", "do", "aren't", "weren't", "haven't", "don't"})
OTHER_VERBS = frozenset({"will", "would", "can", "could", "may", "might", "must", "shall", "should", "had", "said",
                         "told", "met", "took", "made", "gave", "went", "came", "got", "saw", "found", "left", "won",
                         "lost", "became", "began", "felt", "kept", "held", "brought", "thought", "knew", "ran"})
PREPOSITIONS = frozenset({"of", "in", "on", "at", "for", "from", "with", "by", "about", "over", "under", "near",
                          "across", "between", "among", "into", "within", "without", "like", "including", "around"})
NOT_A_NOUN_PHRASE = frozenset({"i", "you", "he", "she", "it", "we", "they", "there", "here", "this", "that", "what",
                               "how", "why", "who", "when", "where", "if", "while", "after", "before", "since", "as",
                               "although", "though", "because", "according", "once", "until", "unless", "whether",
                               "so", "then", "now", "however", "also", "only", "even", "still", "yet", "just"})
DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "each", "every", "some", "many", "most",
                         "all", "several", "few", "both", "no", "any", "one", "another", "his", "her", "its", "their",
                         "our", "my", "your"})
OBJECT_STARTS = frozenset({"that", "to", "it", "them", "him", "her", "us", "me", "on", "in", "for", "about", "with",
                           "at", "from", "up", "out", "down", "off", "back", "not"})
IRREGULAR_PLURALS = frozenset({"people", "men", "women", "children", "feet", "teeth", "mice", "geese"})
COLLECTIVES = frozenset({"staff", "police", "team", "crew", "government", "public", "family", "couple", "group",
                         "majority", "number", "audience", "management", "personnel", "youth", "military", "clergy",
                         "data", "media", "press", "series", "news", "species", "means", "headquarters", "graffiti",
                         "politics", "economics", "physics", "mathematics", "ethics", "athletics", "electronics"})


def _plural_form(word: str) -> bool:
    """Whether the English noun ``word`` looks plural (*scientists*, *people*; not *boss*, *virus*, *crisis*)."""
    if word in IRREGULAR_PLURALS:
        return True
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s"))


def english_subject_number(source: str | None) -> str | None:
    """The number of the noun phrase opening the English ``source`` as its subject, where the source settles
    it (see the module docstring), else ``None``."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]*|[0-9][0-9.,]*|[^\sA-Za-z0-9]", source or "")
    words = [w.lower() for w in words if w not in ('"', "“", "”", "'")]
    while words and words[0] in ("but", "and"):
        words = words[1:]
    if not words or words[0] in NOT_A_NOUN_PHRASE or words[0] in PREPOSITIONS or not words[0][:1].isalpha():
        return None
    head = None
    for position, word in enumerate(words[:10]):
        if word in SINGULAR_VERBS or word in PLURAL_VERBS or word in OTHER_VERBS or word in PREPOSITIONS:
            head = head if head is not None else position - 1
            if word in PREPOSITIONS:
                continue
            verb = "SG" if word in SINGULAR_VERBS else "PL" if word in PLURAL_VERBS else None
            number = _combine(words[head] if head >= 0 else "", verb)
            return None if number == "SG" and head == 0 else number  # Spain has: maybe a name
        if not word.isalpha() or word in ("and", "or", "who", "which", "that"):
            return None  # a coordination, a comma, a relative clause: not settled here
        if head is None and position > 0 and words[position - 1] not in DETERMINERS:
            following = words[position + 1] if position + 1 < len(words) else ""
            if (_plural_form(words[position - 1]) and not word.endswith(("s", "ly")) and
                    not any(w.endswith("ly") for w in words[: position - 1]) and
                    (following in DETERMINERS or following in OBJECT_STARTS)):
                return _combine(words[position - 1], None)  # Researchers presume that …; not Judge blocks law
    return _combine(words[head], None) if head is not None and head >= 0 else None  # Managers at … (no verb seen)


def _combine(head: str, verb: str | None) -> str | None:
    """The subject's number from its head word and its verb's number (either may be unknown)."""
    if not head.isalpha() or head in COLLECTIVES or head in DETERMINERS:
        return None
    form = "PL" if _plural_form(head) else None
    if verb is not None and form is not None and verb != form:
        return None
    return verb or form


def _bare_opening_noun(analysis: Analysis) -> int | None:
    """Index of the noun of a bare noun phrase (adjectives, no article word) opening the first sentence
    (after quotes and *und*/*aber*), whose form german-nouns gives both numbers in the nominative and
    :func:`noun_number` leaves open; else ``None``."""
    tokens = analysis.tokens
    if not analysis.sentences:
        return None
    index, last = analysis.sentences[0].first, analysis.sentences[0].last
    while index < last and (is_quote(tokens[index]) or tokens[index].pos == "KON"):
        index += 1
    while index < last and tokens[index].pos == "ADJA":
        index += 1
    if index >= last or tokens[index].pos != "NN":
        return None
    numbers = {a[0] for a in noun_inf.noun_analyses(tokens[index].text) if a[2] == "NOM"}
    if numbers != {"SG", "PL"} or not is_noun_form(tokens[index].text) or noun_number(analysis, index) is not None:
        return None  # not a name german-nouns only guesses (Papademos sagte)
    following = tokens[index + 1] if index + 1 < last else None
    if following is not None and following.pos in ("NN", "NE"):
        return None  # Finanzminister Stephen Timms bestritt: the name is the head
    return index


ATTRIBUTE_TOKENS = frozenset({"ART", "ADJA", "NN", "NE", "APPR", "APPRART", "CARD", "PPOSAT"})


def opening_disagreements(analysis: Analysis, source: str | None) -> list[tuple[int, int]]:
    """(verb, noun) where a bare noun of either number opens the sentence (:func:`_bare_opening_noun`), the
    first finite verb follows it after at most attributes (articles, adjectives, nouns, prepositions: *Vertreter
    des Gesetzgebers traf*), and the verb has no third-person reading in the number of the English subject
    (:func:`english_subject_number`)."""
    noun = _bare_opening_noun(analysis)
    number = english_subject_number(source) if noun is not None else None
    if noun is None or number is None:
        return []
    tokens = analysis.tokens
    verb = noun + 1
    while verb < analysis.sentences[0].last and tokens[verb].pos in ATTRIBUTE_TOKENS:
        verb += 1
    lemma = finite_verbs(analysis).get(verb)
    if verb >= analysis.sentences[0].last or tokens[verb].pos not in FINITE or lemma is None:
        return []
    if lemma in COPULA_LEMMAS and not any(t.pos == "VVPP" for t in tokens[verb: analysis.sentences[0].last]):
        return []  # Veranstalter sind der Förderverein: a copula's predicate may be the subject; not ist … geordnet
    readings = verb_inf.verb_readings(tokens[verb].text, lemma)
    if not readings or any(r.person == 3 and r.number == number for r in readings):
        return []
    return [(verb, noun)]


def settled_sie(analysis: Analysis, source: str | None) -> str | None:
    """:func:`sie_number` where no noun phrase of the German sentence before its first *sie* could be the
    pronoun's antecedent in the other number: *they* does not settle *Die Polizei gibt an, sie sei …* (the
    English refers to the police in the plural, the German to *die Polizei* in the singular), nor *she* a
    *sie* after a plural noun; never a sentence-initial *Sie*, whose antecedent lies outside the sentence."""
    number = sie_number(source)
    tokens = analysis.tokens
    if number is None or (re.search(r"\byou(r|rs|rself)?\b", source or "", re.I) and
                          any(t.text == "Sie" for t in tokens)):
        return None  # Sie may be the polite you
    first = next((t.index for t in tokens if t.text.lower() == "sie" and t.pos == "PPER"), len(tokens))
    if first < len(tokens) and tokens[first].text == "Sie":
        return None  # a sentence-initial Sie refers outside the sentence, where no antecedent can be checked
    for token in tokens[:first]:
        if token.pos not in ("NN", "NE"):
            continue
        other = noun_number(analysis, token.index) or _article_number(analysis, token.index)
        if number == "PL" and other == "SG" and "FEM" in noun_inf.noun_genders(token.text) | _article_genders(
                analysis, token.index):
            return None
        if number == "SG" and other == "PL":
            return None
    return number


def _article_number(analysis: Analysis, index: int) -> str | None:
    """'SG' for a noun or name right after *die*/*eine* (*die Polizei*, *die BBC*), else ``None``."""
    before = analysis.tokens[index - 1] if index > 0 else None
    return "SG" if before is not None and before.text.lower() in ("die", "eine", "diese") else None


def _article_genders(analysis: Analysis, index: int) -> frozenset[str]:
    """The gender an article *die*/*eine* before a name gives it (*die BBC*: feminine, or plural)."""
    return frozenset({"FEM"}) if _article_number(analysis, index) and analysis.tokens[index].pos == "NE" else frozenset()
