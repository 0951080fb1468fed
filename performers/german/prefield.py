"""A verb-first main clause after a sentence-initial prefield that ends with a comma (no parser; STTS heuristics).

    from performers.german.prefield import after_initial_prefield

    after_initial_prefield(analysis, verb)   # True for *können* in *Während …, können kein MP3-Player …*

In *Obwohl der Präsident … kann, können der Kongress …*, *Anfang Juli, als die ÖVP … verließ, hatten die
Volkspartei …*, *Im Zusammenhang mit dem Unfall …, Italien, stellen sich die Frage …* and *Ehrlich gesagt,
haben der Iran …* the first finite verb after a comma is the main clause's: the sentence opens with its
prefield — a subordinate clause (any subordinating conjunction, after opening quotes or a conjunction:
*„Wenn …, gilt …*; *Doch als …*), a prepositional phrase (not a number after *über*, *bis zu*: *Über 500
Gäste, …, haben*), a time expression (*Anfang Juli*, *Mitte der
1990er Jahre*) or a participle phrase (*Ehrlich gesagt*, *Bekannt als …*), with embedded clauses and
appositions after it — so the subject stands after the verb, in the middle field.  The verb qualifies
(:func:`after_initial_prefield`) when it directly follows a comma, no finite verb before it stands in a main
clause (:func:`performers.german.coordination.main_clause`) and no finite verb before it directly follows a
comma.
"""

from __future__ import annotations

from performers.german.analysis import Analysis, Token
from performers.german.coordination import main_clause
from performers.german.syntax import FINITE, finite_verbs, is_quote

TIME_WORDS = frozenset({"Anfang", "Mitte", "Ende", "Tag", "Tage", "Woche", "Wochen", "Monat", "Monate", "Jahr",
                        "Jahre", "Stunde", "Stunden", "Minute", "Minuten", "Zeit", "Mal"})
OPENING_SKIPS = frozenset({"KON", "$(", "ADV"})
PARTICIPLES = frozenset({"VVPP", "ADJD"})


def _opening(tokens: tuple[Token, ...], first: int, end: int) -> Token | None:
    """The first token of the sentence's prefield that is no quote, conjunction or sentence adverb (*Doch*)."""
    for token in tokens[first:end]:
        if is_quote(token) or token.pos in OPENING_SKIPS:
            if token.pos == "ADV" and token.index + 1 < end and tokens[token.index + 1].pos in PARTICIPLES:
                return token  # Ehrlich gesagt, Offen gesagt
            continue
        return token
    return None


def _prefield_opening(tokens: tuple[Token, ...], opening: Token) -> bool:
    """Whether ``opening`` starts a prefield that holds no subject: a subordinating conjunction, a preposition,
    a time expression (*Anfang Juli*, *Wenige Monate nach …*) or a participle phrase (*Ehrlich gesagt*)."""
    following = tokens[opening.index + 1] if opening.index + 1 < len(tokens) else None
    if opening.pos in ("KOUS", "APPR", "APPRART"):
        # not um … zu; not a number after über, um, bis (Über 500 Gäste, …, haben: the subject)
        numeric = following is not None and (following.pos == "CARD" or following.text.lower() == "zu")
        return opening.text.lower() != "um" and not numeric
    if opening.text in TIME_WORDS or (following is not None and following.text in TIME_WORDS
                                      and opening.pos in ("PIAT", "ADJA", "CARD", "PIDAT")):
        return True
    return opening.pos in ("ADV", "ADJD", "VVPP") and following is not None and following.pos in PARTICIPLES


def after_initial_prefield(analysis: Analysis, verb: int) -> bool:
    """Whether the finite ``verb`` opens the main clause after a sentence-initial prefield ending in a comma
    (see the module docstring)."""
    tokens = analysis.tokens
    if verb == 0 or tokens[verb - 1].text != ",":
        return False
    sentence_first = analysis.sentences[tokens[verb].sentence].first
    opening = _opening(tokens, sentence_first, verb)
    if opening is None or not _prefield_opening(tokens, opening):
        return False
    for other in finite_verbs(analysis):
        if other >= verb:
            break
        if other >= sentence_first and (tokens[other - 1].text == "," or main_clause(analysis, other)):
            return False
    return not any(t.pos in FINITE and t.index > sentence_first and tokens[t.index - 1].text == ","
                   for t in tokens[sentence_first:verb])
