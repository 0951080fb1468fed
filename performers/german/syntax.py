"""Shallow German syntax over an :class:`~performers.german.analysis.Analysis`: noun-phrase heads, clauses,
finite verbs and their subjects, words between two tokens.

There is no German parser offline here (stanza and spaCy have no German model in this project), so these
are explicit, documented heuristics over STTS tags; every Zellig that uses them says so.

- :func:`np_head` — from an article word, the head noun: the first ``NN``/``NE`` after any adjectives,
  adverbs, numbers, truncations and quotation marks (``die " Naivität "``, ``des gesamten Systems``,
  ``der deutschen und französischen Regierung``) and after an extended modifier that ends in an
  attributive adjective (``die von Deutschland angebotene Hilfe``, ``der sich öffnenden Industrie``);
  ``None`` when something else intervenes.
- :func:`clause_bounds` — the token range of the clause around a token: delimited by sentence
  boundaries, clause punctuation (comma, colon, semicolon, dash, brackets) and subordinating conjunctions.
- :func:`subject_of` — the subject of a finite verb: a nominative personal pronoun next to the verb (at most
  one word between) or opening a verb-final clause (*wenn sie … agieren*), else the nearest noun-phrase head
  in the clause that is not inside a prepositional phrase and whose article word (if any) can be
  nominative, preceding nouns first, else any nominative pronoun of the clause.
- :func:`distance` — LingEval97's distance: the difference of the two words' positions counted in words
  (punctuation tokens are not words), so adjacent words are at distance 1 (*Die Prager Börse*: 2).
"""

from __future__ import annotations

from dataclasses import dataclass

from performers.german.analysis import Analysis, Token

FINITE = frozenset({"VVFIN", "VAFIN", "VMFIN"})
NOUNS = frozenset({"NN", "NE"})
NP_INNER = frozenset({"ADJA", "ADJD", "ADV", "CARD", "PIAT", "PIDAT", "TRUNC"})
QUOTES = frozenset("\"„“”«»‚‘’'")
CLAUSE_PUNCTUATION = frozenset(",;:–—-()[]")
NOMINATIVE_PRONOUNS = {"ich": 1, "du": 2, "er": 3, "sie": 3, "es": 3, "wir": 1, "ihr": 2, "man": 3}


def is_punctuation(token: Token) -> bool:
    return token.pos.startswith("$")


def is_quote(token: Token) -> bool:
    """A quotation mark token (HanTa tags some, such as „, ``FM``, so the text decides)."""
    return bool(token.text) and all(char in QUOTES for char in token.text)


EXTENDED_INNER = frozenset(
    {
        "APPR",
        "APPRART",
        "ART",
        "NN",
        "NE",
        "ADV",
        "PRF",
        "CARD",
        "ADJD",
        "PPOSAT",
        "PIAT",
        "PDAT",
        "PTKNEG",
        "PTKA",
        "ADJA",
        "KON",
        "PIS",
        "PPER",
    }
)


def _extended_modifier(tokens: tuple[Token, ...], index: int, limit: int) -> int | None:
    """Start of the last adjective of an extended modifier (*die [von Deutschland] angebotene Hilfe*,
    *der [sich] öffnenden Industrie*) beginning at ``index``: the first ``ADJA`` directly followed by a noun
    (or by more adjectives and a noun), reached without a verb or clause punctuation; else ``None``."""
    sentence = tokens[index].sentence
    for k in range(index, min(limit, len(tokens))):
        token = tokens[k]
        if token.sentence != sentence or (token.pos not in EXTENDED_INNER and not is_quote(token)):
            return None
        if token.pos == "ADJA" and k > index:
            follows = k + 1
            while follows < len(tokens) and tokens[follows].pos == "ADJA":
                follows += 1
            if follows < len(tokens) and tokens[follows].pos in NOUNS:
                return k
    return None


_NOUNLIKE_MISTAGS = frozenset({"VVFIN", "VVPP", "VVINF", "VAFIN", "ADJA", "ADJD", "ADV", "FM", "XY"})


def _mistagged_noun(tokens: tuple[Token, ...], index: int) -> bool:
    """A capitalised word inside a sentence that the tagger took for a verb or adjective but german-nouns
    knows as a noun form (*gemäß dem Brauche*, *den Geboten*)."""
    from performers.german.nouns import is_noun_form

    token = tokens[index]
    if token.pos not in _NOUNLIKE_MISTAGS or not token.text[:1].isupper() or index == 0:
        return False
    previous = tokens[index - 1]
    if previous.sentence != token.sentence or previous.pos == "$." or is_quote(previous):
        return False
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if following is not None and (following.pos in NOUNS or following.pos == "ADJA"):
        return False  # attributive: die Prager Börse
    return is_noun_form(token.text)


def _place_adjective(tokens: tuple[Token, ...], index: int) -> bool:
    """*Genfer*, *Londoner*, *Madrider*: a capitalised word in *-er* tagged as a noun, directly followed by
    a noun, that german-nouns does not know as a noun."""
    from performers.german.nouns import is_noun_form

    token = tokens[index]
    if token.pos not in NOUNS or not token.text.endswith("er") or not token.text[:1].isupper():
        return False
    if index + 1 >= len(tokens) or tokens[index + 1].pos != "NN":
        return False
    return not is_noun_form(token.text)


def np_head(tokens: tuple[Token, ...], start: int, window: int = 8, extended: bool = True) -> int | None:
    """Index of the head noun of the noun phrase whose article word is ``tokens[start]``, or ``None``;
    with ``extended`` an extended modifier (*die von Deutschland angebotene Hilfe*) is skipped."""
    index = start + 1
    sentence = tokens[start].sentence
    while index < len(tokens) and index <= start + window and tokens[index].sentence == sentence:
        token = tokens[index]
        if _place_adjective(tokens, index):
            index += 1  # die Genfer Konvention: an invariable place adjective tagged as a name
            continue
        if token.pos in NOUNS or _mistagged_noun(tokens, index):
            return index
        follows = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.pos in NP_INNER or is_quote(token):
            index += 1
            continue
        if token.pos in ("KON", "$,") and follows is not None and follows.pos == "ADJA":
            index += 1
            continue
        if extended and token.pos in ("APPR", "APPRART", "PRF", "ADV", "PTKNEG", "PTKA"):
            resume = _extended_modifier(tokens, index, start + window + 4)
            if resume is not None:
                index = resume
                continue
        return None
    return None


def clause_bounds(analysis: Analysis, index: int) -> tuple[int, int]:
    """``[first, last)`` token range of the clause containing token ``index``."""
    tokens = analysis.tokens
    sentence = analysis.sentences[tokens[index].sentence]

    def boundary(token: Token) -> bool:
        return (is_punctuation(token) and not is_quote(token) and any(c in CLAUSE_PUNCTUATION for c in token.text)) or (
            token.pos in ("KOUS", "PRELS", "PWAV", "KOUI")
        )

    first = index
    while first > sentence.first and not boundary(tokens[first - 1]):
        first -= 1
    if first > sentence.first and tokens[first - 1].pos in ("KOUS", "KOUI"):
        first -= 1  # the conjunction belongs to its clause
    last = index + 1
    while last < sentence.last and not boundary(tokens[last]):
        last += 1
    return first, last


def words_between(analysis: Analysis, first: int, second: int) -> int:
    """Number of word tokens (not punctuation) strictly between tokens ``first`` and ``second``."""
    low, high = sorted((first, second))
    return sum(1 for token in analysis.tokens[low + 1 : high] if not is_punctuation(token))


def distance(analysis: Analysis, first: int, second: int) -> int:
    """LingEval97 distance between two tokens: their difference in word positions (adjacent words: 1)."""
    return words_between(analysis, first, second) + 1


@dataclass(frozen=True)
class Subject:
    """A verb's subject as found by :func:`subject_of`: token index, grammatical person (1, 2, 3) and
    number (``SG``/``PL``/``None`` when unknown); ``formal`` for polite *Sie*."""

    index: int
    person: int
    number: str | None
    formal: bool = False


def _pronoun_subject(token: Token, sentence_initial: bool, after_preposition: bool = False) -> Subject | None:
    word = token.text
    lower = word.lower()
    if token.pos != "PPER" or lower not in NOMINATIVE_PRONOUNS or after_preposition:
        return None
    if word == "Sie" and not sentence_initial:
        return Subject(token.index, 3, "PL", formal=True)
    if lower == "sie":
        return Subject(token.index, 3, None)
    number = "PL" if lower in ("wir", "ihr") else "SG"
    return Subject(token.index, NOMINATIVE_PRONOUNS[lower], number)


def _in_pp(tokens: tuple[Token, ...], head: int, lower_bound: int) -> bool:
    """Whether the noun at ``head`` is inside a prepositional phrase (a preposition before its article/adjectives)."""
    index = head - 1
    while index >= lower_bound and (
        tokens[index].pos in NP_INNER
        or tokens[index].pos in ("ART", "PPOSAT", "PDAT", "PIAT")
        or is_quote(tokens[index])
    ):
        index -= 1
    return index >= lower_bound and tokens[index].pos in ("APPR", "APPRART", "APPO")


def _can_be_nominative(tokens: tuple[Token, ...], head: int, lower_bound: int) -> bool:
    from performers.german.inflection import determiner_readings

    index = head - 1
    while index >= lower_bound and (tokens[index].pos in NP_INNER or is_quote(tokens[index])):
        index -= 1
    if index >= lower_bound and tokens[index].pos in ("ART", "PPOSAT", "PDAT", "PIAT"):
        readings = determiner_readings(tokens[index].text)
        return not readings or any(r.case == "NOM" for r in readings)
    # a genitive attribute (des Landes) directly after another noun is not a subject
    return True


def noun_subject_candidates(analysis: Analysis, verb: int) -> list[int]:
    """Indices of the nouns in the clause of the finite verb at ``verb`` that may be its subject: noun-phrase
    heads (the last noun of a close apposition) outside prepositional phrases whose article word, if any, can
    be nominative."""
    tokens = analysis.tokens
    first, last = clause_bounds(analysis, verb)
    candidates = []
    for index in range(first, last):
        token = tokens[index]
        if token.pos not in NOUNS or index == verb:
            continue
        if index + 1 < last and tokens[index + 1].pos in NOUNS:
            continue  # only the last noun of a close apposition (Präsident Obama) is the head
        if _in_pp(tokens, index, first) or not _can_be_nominative(tokens, index, first):
            continue
        candidates.append(index)
    return candidates


def subject_of(analysis: Analysis, verb: int) -> Subject | None:
    """The subject of the finite verb at token ``verb`` by the heuristics in the module docstring."""
    tokens = analysis.tokens
    first, last = clause_bounds(analysis, verb)
    sentence_first = analysis.sentences[tokens[verb].sentence].first
    pronouns = []
    for index in range(first, last):
        if index == verb:
            continue
        initial = index == sentence_first or (index > 0 and is_quote(tokens[index - 1]))
        after_preposition = index > 0 and tokens[index - 1].pos in ("APPR", "APPRART")
        subject = _pronoun_subject(tokens[index], initial, after_preposition)
        if subject is not None:
            pronouns.append(subject)

    def close(subject: Subject) -> bool:
        # next to the verb (*hat sie*, *sie hat*, *hat sich sie*) or opening a verb-final clause (*wenn sie …*)
        if words_between(analysis, subject.index, verb) <= 1:
            return True
        previous = tokens[subject.index - 1] if subject.index > 0 else None
        return previous is not None and previous.pos in VERB_FINAL_OPENERS and subject.index < verb

    near = [subject for subject in pronouns if close(subject)]
    if near:
        return min(near, key=lambda s: (abs(s.index - verb), s.index > verb))
    candidates = noun_subject_candidates(analysis, verb)
    if not candidates:
        return min(pronouns, key=lambda s: (abs(s.index - verb), s.index > verb)) if pronouns else None
    before = [index for index in candidates if index < verb]
    chosen = max(before) if before else min(candidates)
    return Subject(chosen, 3, None)


VERB_FINAL_OPENERS = frozenset({"KOUS", "PRELS", "PWAV", "PRELAT", "PWS"})
_RECOVERABLE = frozenset({"VVINF", "VAINF", "VMINF", "VVPP", "ADJD", "ADJA"})


def finite_verbs(analysis: Analysis) -> dict[int, str]:
    """Finite verbs of ``analysis``: token index → verb lemma.

    The tagger's ``VVFIN``/``VAFIN``/``VMFIN`` tokens, plus one recovered verb in each clause that has none:
    HanTa sometimes tags a clause's only finite verb as an infinitive (*Die Schwergewichte kommen.*,
    *dass Astronomen … entdeckt haben*), a participle (*die ihre Position missbraucht*) or an adjective
    (*Die Datenbank umfasst 1.034 Fahrzeuge*).  The recovered verb is the last candidate of a verb-final
    clause (one opened by a subordinating conjunction or a relative or interrogative word), else the first,
    and it must have a finite reading (:func:`performers.german.verb_inflection.verb_readings`, with the lemma
    guessed from the form where the tagger's lemma is an adjective's).  Infinitives with *zu* and clauses
    opened by *um*, *ohne*, *statt* are never used.
    """
    from performers.german.verb_inflection import guess_verb_lemmas, verb_readings

    tokens = analysis.tokens
    found: dict[int, str] = {token.index: token.lemma for token in tokens if token.pos in FINITE}
    seen: set[tuple[int, int]] = set()
    for token in tokens:
        if token.pos not in _RECOVERABLE:
            continue
        bounds = clause_bounds(analysis, token.index)
        if bounds in seen:
            continue
        seen.add(bounds)
        first, last = bounds
        clause = tokens[first:last]
        if any(t.pos in FINITE or t.pos in ("KOUI", "PTKZU", "VVIZU") for t in clause):
            continue
        verb_final = clause[0].pos in VERB_FINAL_OPENERS or (first > 0 and tokens[first - 1].pos in VERB_FINAL_OPENERS)
        ordered = list(reversed(clause)) if verb_final else list(clause)
        for candidate in ordered:
            if candidate.pos not in _RECOVERABLE:
                continue
            previous = tokens[candidate.index - 1] if candidate.index > 0 else None
            if (
                candidate.pos == "ADJA"
                and previous is not None
                and previous.pos not in ("NN", "NE", "PPER", "PIS", "KON")
            ):
                continue  # an attributive adjective (den modernen …), not a mis-tagged verb
            following = tokens[candidate.index + 1] if candidate.index + 1 < len(tokens) else None
            if candidate.pos == "ADJA" and previous is None and following is not None and following.pos == "NN":
                continue  # Bestimmte Arten von …: an adjective opening the text before its noun
            lemma = candidate.lemma if candidate.pos.startswith("V") else ""
            if not (lemma and verb_readings(candidate.text, lemma)):
                guesses = guess_verb_lemmas(candidate.text)
                lemma = guesses[0] if guesses else ""
            if lemma:
                found[candidate.index] = lemma
                break
    return dict(sorted(found.items()))
