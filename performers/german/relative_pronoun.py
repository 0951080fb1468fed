"""Whether an article word after a comma may be a relative pronoun (*…, in dem Geld lag*), for agreement
checks that must not read a relative pronoun and the noun after it as one noun phrase.

    from performers.german.relative_pronoun import relative_pronoun_position

    relative_pronoun_position(tokens, index)   # True for *dem* in *Sie verließ das Haus, in dem Geld lag.*

A relative pronoun follows a comma (or a comma and a preposition), refers to a noun of its number and gender
before the comma (:data:`RELATIVE_REFERENTS`: *dem* to a masculine or neuter singular, *des* to none, the
genitive being *dessen*), and opens a verb-final clause: a finite verb right after the noun phrase with more
words after it makes a main clause (*Er sagte, das Distrikt müsse …*), and a verb other than a
*zu*-infinitive must follow before the clause ends, unless the noun after the word is only plural (*…, bei dem
Raumsonden …*: *dem* cannot be its article).  After *dem*, *den*, *des* an attributive
adjective ends in *-en*; one in *-e* shows the word is a pronoun before a strong adjective (*bei dem letzte
Woche …*, :func:`adjectives_fit`).
"""

from __future__ import annotations

from performers.german.analysis import Token
from performers.german.syntax import FINITE, is_quote, np_head

CLAUSE_END = frozenset({",", ".", ";", ":", "!", "?", "(", ")", "–", "-"})


def relative_pronoun_position(tokens: tuple[Token, ...], index: int) -> bool:
    """Whether the article word at ``index`` may be a relative pronoun: it stands after a comma, or after a
    comma and a preposition (*…, bei dem letzte Woche …*), a noun the pronoun may refer to precedes the comma
    (:func:`may_have_antecedent`), the finite verb does not follow the noun phrase in second place
    (:func:`_verb_second`), and a verb other than a *zu*-infinitive follows before the clause ends (*…, die
    Langholz transportieren*; a relative clause has a finite verb, while *…, dem Genre oder der Bewertung …*,
    *…, in dem Hoffnung, …* and *…, mit dem Presse zu sprechen* have none)."""
    previous = index - 1
    comma = previous - 1 if previous >= 1 and tokens[previous].pos in ("APPR", "APPRART") else previous
    if comma < 0 or tokens[comma].text not in (",", "–", "-", "("):
        return False
    if not may_have_antecedent(tokens, comma, tokens[index].text.lower()) or _verb_second(tokens, index):
        return False
    if tokens[index].text.lower() != "die" and _bare_plural(tokens, index):
        return True  # …, bei dem Raumsonden …: a singular article word before a plural is the pronoun
    for after in tokens[index + 1 :]:
        if after.text in CLAUSE_END and not _list_continues(tokens, after.index):
            return False
        if after.pos.startswith("V") and after.pos != "VVIZU" and tokens[after.index - 1].pos != "PTKZU":
            return True
    return False


def _bare_plural(tokens: tuple[Token, ...], index: int) -> bool:
    """Whether the noun after the article word at ``index`` is only plural (*Raumsonden*, *Gäste*)."""
    from performers.german import noun_inflection as noun_inf

    head = np_head(tokens, index, extended=False)
    analyses = noun_inf.noun_analyses(tokens[head].text) if head is not None else ()
    return bool(analyses) and all(number == "PL" for number, _, _ in analyses)


def _list_continues(tokens: tuple[Token, ...], comma: int) -> bool:
    """Whether the comma at ``comma`` joins items of a list rather than ending the clause (*…, aus der Sterne,
    Planeten und Lebewesen bestehen*): a noun, name, adjective or number follows it."""
    following = tokens[comma + 1] if comma + 1 < len(tokens) else None
    return tokens[comma].text == "," and following is not None and following.pos in ("NN", "NE", "ADJA", "CARD")


def _verb_second(tokens: tuple[Token, ...], index: int) -> bool:
    """Whether the noun phrase opened at ``index`` is directly followed by a finite verb that more words
    follow before the clause ends: a main clause (*Er sagte, das Distrikt müsse weiterhin …*), not a
    verb-final relative clause."""
    head = np_head(tokens, index, extended=False)
    if head is None or head + 2 >= len(tokens) or tokens[head + 1].pos not in FINITE:
        return False
    return tokens[head + 2].text not in CLAUSE_END and not is_quote(tokens[head + 2])


# the (number, gender) a relative pronoun of this form refers to (*des* is none: the genitive is *dessen*)
RELATIVE_REFERENTS: dict[str, frozenset[tuple[str, str | None]]] = {
    "der": frozenset({("SG", "MASC"), ("SG", "FEM")}),
    "die": frozenset({("SG", "FEM"), ("PL", None)}),
    "das": frozenset({("SG", "NEUT")}),
    "den": frozenset({("SG", "MASC")}),
    "dem": frozenset({("SG", "MASC"), ("SG", "NEUT")}),
}


def may_have_antecedent(tokens: tuple[Token, ...], comma: int, pronoun: str) -> bool:
    """Whether a relative pronoun ``pronoun`` after the comma at ``comma`` may have an antecedent: one of the
    last three nouns before it is a name, unknown, or has the pronoun's number and gender (*der Titel des
    Albums, dem …*; not *die Möglichkeit, den tägliche Erschöpfung …*), or there is none."""
    from performers.german import noun_inflection as noun_inf

    referents = RELATIVE_REFERENTS.get(pronoun)
    if referents is None or comma == 0:
        return False
    nouns = [t for t in tokens[max(0, comma - 8) : comma] if t.pos in ("NN", "NE", "FM")][-3:]
    if not nouns:
        return True
    for noun in nouns:
        analyses = noun_inf.noun_analyses(noun.text) if noun.pos == "NN" else ()
        if not analyses or any((number, gender if number == "SG" else None) in referents for number, gender, _ in analyses):
            return True
    return False


def adjectives_fit(article: str, tokens: tuple[Token, ...], start: int, head: int) -> bool:
    """After *dem, den, des* an attributive adjective ends in *-en*; one ending in *-e* shows the article is
    not this noun phrase's (*bei dem letzte Woche …*: a relative pronoun)."""
    if article not in ("dem", "den", "des"):
        return True
    return not any(t.pos == "ADJA" and t.text.endswith("e") for t in tokens[start + 1 : head])
