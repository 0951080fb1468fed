"""The grammatical number of the words that may be a finite verb's subject, where it is certain.

    from performers.german.subject_number import noun_number, pronoun_candidates, antecedent_number

    noun_number(analysis, index)        # 'SG', 'PL' or None for the noun or name at token ``index``
    pronoun_candidates(analysis, verb)  # [(index, number or None, certainly nominative)] of the verb's clause
    antecedent_number(analysis, token)  # the number of a relative pronoun der/die/das from the noun before it

A noun's number comes from its german-nouns readings in the nominative, narrowed by its article word (*die
Vertreter*: plural; *der Auftragnehmer*, unknown to german-nouns: the article alone) or, without any article
word, by the strong ending of its adjective (*virtuelle Betreiber*: -e on a masculine noun, plural; *weißer
Asbest*: singular); plural quantifiers (*einige*, *viele*) and *Tausende* make it plural; a word the tagger
took for a nominalised adjective keeps german-nouns' number where that is plural only (*die
Zinsdifferenziale*). It is left open (``None``) where the verb need not follow it: after a number (*zwei
Jahre*, *2,15 Promille*; but *214 Radfahrer*, *10.000 Menschen*: plural), for quantity nouns before their
complement (*die Hälfte der Bürger*; *Ihre Gruppe reichte*: singular), in a coordination or a comma list
closed by *und* (not *der Mann und lächelt*: *und* joins two verbs), before *von* for quantities and names
(*Tausende von Angestellten*, *Sterling Nesbitt von der University … und Kollegen*; not *Die Nachricht von der
Wahl*), after a preposition, after another noun (but after a prenominal genitive without an article:
*Polanskis Anwalt*, *Gottes Stimme*). A genitive attribute follows a noun, a number, a percentage or an
indefinite pronoun (*drei der fünf Bürgermeister*). A name's number comes from
:mod:`performers.german.name_number`; a name after its common noun takes that noun's number where singular
(*die Nachrichtenagentur Reuters*, *Außenministerin Clinton*).  Used by
:mod:`performers.german.verb_agreement`; shallow heuristics over STTS tags like :mod:`performers.german.syntax`.
"""

from __future__ import annotations

from performers.german import inflection as inf
from performers.german import noun_inflection as noun_inf
from performers.german.analysis import Analysis, Token
from performers.german.name_number import ARTICLE_WORDS, name_number
from performers.german.syntax import FINITE, NP_INNER, clause_bounds, is_quote

COORDINATION = frozenset({"KON", "$,"})


PLURAL_QUANTIFIERS = frozenset({"einige", "wenige", "viele", "mehrere", "alle", "beide", "zahlreiche", "manche",
                                "etliche", "verschiedene", "sämtliche"})


QUANTITY_NOUNS = frozenset({"Hälfte", "Mehrheit", "Minderheit", "Reihe", "Anzahl", "Zahl", "Teil", "Drittel", "Viertel",
                            "Prozent", "Dutzend", "Großteil", "Gruppe", "Menge", "Paar", "Million", "Milliarde",
                            "Tausend", "Hundert", "Handvoll", "Rest", "Vielzahl", "Masse"})


COUNTED = frozenset({"Prozent", "Dutzend", "Paar", "Million", "Milliarde", "Tausend", "Hundert", "Drittel", "Viertel"})


def _has_complement(tokens: tuple[Token, ...], index: int) -> bool:
    """Whether a noun phrase or *von* follows the quantity noun at ``index`` (*die Hälfte der Bürger*, *eine
    Gruppe von Abgeordneten*, *eine Reihe republikanischer Senatoren*): without one (*Die Gruppe reichte
    Klage ein*) the quantity noun is an ordinary singular."""
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    return following is not None and (following.pos in ARTICLE_WORDS or following.pos in NP_INNER or
                                      following.pos in ("NN", "NE", "APPR", "APPRART") or following.text == "von")


PLURAL_AMOUNTS = frozenset({"Tausende", "Hunderte", "Dutzende", "Zehntausende", "Hunderttausende"})


def _coordinating(tokens: tuple[Token, ...], token: Token) -> bool:
    """Whether ``token`` before a noun phrase may join it to another: a comma, or a conjunction other than
    one opening the sentence (*Doch der Präsident lehnten ab*; but *Sowohl Obama als auch …*)."""
    if token.pos not in COORDINATION:
        return False
    if token.pos == "KON":
        previous = tokens[token.index - 1] if token.index > 0 else None
        opening = previous is None or previous.pos == "$." or is_quote(previous)
        return not opening or token.text.lower() in ("sowohl", "weder", "entweder")
    return True


def _joins_noun_phrases(tokens: tuple[Token, ...], after: Token | None) -> bool:
    """Whether the conjunction ``after`` a noun phrase may join it to another noun phrase: not when a
    finite verb follows it (*der junge Mann und lächelt*: two verbs share the subject)."""
    if after is None or after.pos not in COORDINATION or after.text == ",":
        return False
    following = tokens[after.index + 1] if after.index + 1 < len(tokens) else None
    return following is None or following.pos not in FINITE


MEASURE_NOUNS = frozenset({"Prozent", "Euro", "Dollar", "Cent", "Pfund", "Franken", "Krone", "Kronen", "Meter",
                           "Kilometer", "Zentimeter", "Millimeter", "Kilo", "Kilogramm", "Gramm", "Tonne", "Tonnen",
                           "Liter", "Grad", "Stunde", "Stunden", "Minute", "Minuten", "Sekunde", "Sekunden", "Tag",
                           "Tage", "Woche", "Wochen", "Monat", "Monate", "Jahr", "Jahre", "Jahrzehnt", "Jahrzehnte",
                           "Punkt", "Punkte", "Mal", "Seite", "Seiten", "Stück", "Prozentpunkte", "Einwohner", "Promille",
                           "Lichtjahr", "Lichtjahre", "Quadratmeter", "Hektar", "Meilen", "Meile"})


def _nominalised_adjective_number(word: str, article: Token | None) -> str | None:
    """The number of a nominalised adjective as a subject from its ending and article: *der/die/das
    Reisende* singular, *die Reisenden* and a bare *Freiwillige* plural, *Abgeordneter* singular."""
    determiner = article.text.lower() if article is not None else None
    if determiner in ("der", "die", "das", "ein", "eine", "dieser", "diese", "dieses", "jeder", "jede", "jedes"):
        if word.endswith("e"):
            return "SG"
        return "PL" if word.endswith("en") and determiner in ("die", "diese") else None
    if determiner is None:
        return "PL" if word.endswith("e") else "SG" if word.endswith("er") else None
    return None


def _after_noun(tokens: tuple[Token, ...], before: Token, article: Token | None) -> bool:
    """Whether the noun phrase follows another noun (a genitive attribute, an apposition: its number need
    not be the verb's); not after a prenominal genitive without an article (*Polanskis Anwalt*, *Gottes
    Stimme*)."""
    if before.pos not in ("NN", "NE"):
        return False
    if article is not None or not before.text.endswith("s") or not before.text[:1].isupper():
        return True
    owner_start = before.index  # Gottes Stimme, Deutschlands Bürger: a genitive without its own article
    return owner_start > 0 and tokens[owner_start - 1].pos in ARTICLE_WORDS


LIST_CONJUNCTIONS = frozenset({"und", "sowie", "oder"})


def _listed(analysis: Analysis, after: Token | None) -> bool:
    """Whether the comma ``after`` a noun phrase opens the next item of a list that a conjunction closes
    (*das Hacksteak, der Thunfisch … und der Kaugummi*; *Goldman Sachs, JP Morgan Chase und Morgan Stanley*):
    a noun phrase follows the comma and *und*, *sowie* or *oder* comes before the next finite verb."""
    tokens = analysis.tokens
    if after is None or after.text != "," or after.index + 1 >= len(tokens):
        return False
    following = tokens[after.index + 1]
    if following.pos not in ("ART", "PPOSAT", "ADJA", "NN", "NE", "CARD"):
        return False
    last = analysis.sentences[after.sentence].last
    for token in tokens[after.index + 1 : last]:
        if token.pos in FINITE or token.pos in ("PRELS", "KOUS"):
            return False
        if token.text.lower() in LIST_CONJUNCTIONS:
            return True
    return False


STRONG_ENDINGS = {"e": (("SG", "FEM"), ("PL", None)), "er": (("SG", "MASC"),), "es": (("SG", "NEUT"),)}


def _strong_adjective_filter(tokens: tuple[Token, ...], start: int, index: int,
                             analyses: list[tuple[str, str | None, str]]) -> list[tuple[str, str | None, str]]:
    """Without an article word the adjective before the noun ends strong, and in the nominative that
    ending names gender and number: *virtuelle Betreiber* (-e on a masculine noun: plural), *weißer
    Asbest* (singular masculine), *neues Gesetz*.  The noun's nominative readings that fit the ending of
    its last adjective (all of them without one)."""
    adjective = next((t for t in reversed(tokens[start:index]) if t.pos == "ADJA"), None)
    if adjective is None or any(t.pos in ARTICLE_WORDS or t.pos == "PIDAT" for t in tokens[start:index]):
        return analyses  # jeder zweite lebenslange Raucher: a determiner makes the adjective weak
    ending = next((e for e in ("er", "es", "e") if adjective.text.endswith(e)), None)
    if ending is None:
        return []  # -en, -em: no nominative
    allowed = STRONG_ENDINGS[ending]
    return [a for a in analyses if any(a[0] == n and (g is None or a[1] == g) for n, g in allowed)]


def _more_than_one(word: str) -> bool:
    """Whether the cardinal ``word`` counts other than one (*214*, *10.000*, *acht*; not *1*, *eins*, *2008*)."""
    if word.isdigit() and len(word) == 4 and word.startswith(("19", "20")):
        return False  # a year
    whole, _, fraction = word.replace(".", "").partition(",")
    if whole.isdigit() and (not fraction or fraction.isdigit()):  # 10.000 Menschen, 2,5 Kinder: all but one plural
        return int(whole) != 1 or int(fraction or "0") != 0
    return word.lower() in NUMBER_WORDS


NUMBER_WORDS = frozenset({"zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf",
                          "zwanzig", "dreißig", "vierzig", "fünfzig", "hundert", "tausend", "beiden"})


def _common_noun_number(analysis: Analysis, index: int, start: int, article: Token | None) -> str | None:
    """The number of the common noun at ``index`` whose noun phrase starts at ``start`` (after ``article``):
    a plural quantifier, a cardinal, the article's readings, or a strong adjective's ending narrow the
    noun's nominative readings."""
    tokens = analysis.tokens
    head = tokens[index]
    if head.text in PLURAL_AMOUNTS:
        return "PL"
    if head.xpos == "NNA":
        known = {a[0] for a in noun_inf.noun_analyses(head.text) if a[2] == "NOM"}
        plural_article = article is not None and any(r.number == "PL" and r.case == "NOM"
                                                     for r in inf.determiner_readings(article.text))
        if known == {"PL"} and plural_article:  # die Zinsdifferenziale, tagged as a nominalised adjective
            return "PL"
        inner = next((t for t in tokens[start:index] if t.pos in ("PIAT", "PIDAT")), None)  # jeder vierte Jugendliche
        return _nominalised_adjective_number(head.text, article or inner)
    quantifier = next((t for t in tokens[start:index] if t.text.lower() in PLURAL_QUANTIFIERS), None)
    if quantifier is not None or (article is not None and article.text.lower() in PLURAL_QUANTIFIERS):
        return "PL" if any(a[0] == "PL" for a in noun_inf.noun_analyses(head.text)) else None
    analyses = [a for a in noun_inf.noun_analyses(head.text) if a[2] == "NOM"]
    if any(t.pos == "CARD" for t in tokens[start:index]):  # 4500 Soldaten, acht Tunnel; but zwei Jahre: measures
        counts = [t for t in tokens[start:index] if t.pos == "CARD"]
        plural = any(a[0] == "PL" for a in analyses) and all(_more_than_one(t.text) for t in counts)
        return "PL" if plural and head.lemma not in MEASURE_NOUNS and head.text not in MEASURE_NOUNS else None
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
    elif article is None:
        analyses = _strong_adjective_filter(tokens, start, index, analyses)
    numbers = {number for number, _, _ in analyses}
    return numbers.pop() if len(numbers) == 1 else None


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
    if head.text in QUANTITY_NOUNS and (head.text in COUNTED or _has_complement(tokens, index)):
        return None  # 50 Prozent, drei Viertel, die Hälfte der Bürger: the number may follow the complement
    article = tokens[start - 1] if start > 0 and tokens[start - 1].pos in ARTICLE_WORDS else None
    first = start - 1 if article is not None else start
    before = tokens[first - 1] if first > 0 else None
    following = index + 1
    while following < len(tokens) and tokens[following].pos == "ADV":
        following += 1  # die Bank selbst und …
    after = tokens[following] if following < len(tokens) else None
    if before is not None and (_coordinating(tokens, before) or _after_noun(tokens, before, article)):
        return None
    if before is not None and before.pos in ("APPR", "APPRART"):
        return None  # in Richtung Basel: a prepositional object is no subject
    if _joins_noun_phrases(tokens, after) or _listed(analysis, after):
        return None
    if after is not None and after.text == "von" and (head.pos == "NE" or head.text in QUANTITY_NOUNS or
                                                      head.text in PLURAL_AMOUNTS or head.text in MEASURE_NOUNS):
        return None  # Tausende von Angestellten; Sterling Nesbitt von der University … und Kollegen, eine Reihe von Fragen: the number may follow the complement
    if head.pos == "NE":
        if (index + 1 < len(tokens) and tokens[index + 1].pos in ("NE", "NN", "ADJA")) or \
                any(t.pos in ("PIAT", "PIDAT", "CARD") for t in tokens[start:index]):
            return None  # die BBC Music Awards, New Yorker: not the head; die beiden Guttenberg: plural
        title = next((t.index for t in reversed(tokens[start:index]) if t.pos == "NN"), None)
        if title is not None:  # die Nachrichtenagentur Reuters, Außenministerin Clinton: the common noun's number
            number = _common_noun_number(analysis, title, start, article)
            readings = {a[0] for a in noun_inf.noun_analyses(tokens[title].text) if a[2] == "NOM"}
            bare = article is None and title == start and "SG" in readings  # Bürgermeister Jens Häußler
            return "SG" if number == "SG" or (number is None and bare) else None
        return name_number(analysis, index, start)
    return _common_noun_number(analysis, index, start, article)


def genitive_attribute(analysis: Analysis, index: int) -> bool:
    """Whether the noun at ``index`` is a genitive attribute of the noun before its article (*die Barreserve
    der Bank*, *der Rest des Tages*): an article word with a genitive reading right after another noun."""
    tokens = analysis.tokens
    start = index
    while start > 0 and (tokens[start - 1].pos in NP_INNER or is_quote(tokens[start - 1])):
        start -= 1
    if start < 2 or tokens[start - 1].pos not in ARTICLE_WORDS:
        return False
    owner = tokens[start - 2]  # die Barreserve der Bank; 11 % der Bürger, drei der fünf Bürgermeister, einige der
    if owner.pos not in ("NN", "NE", "CARD", "PIS") and owner.text != "%":
        return False
    if tokens[start - 2].text in QUANTITY_NOUNS:
        return False
    return any(r.case == "GEN" for r in inf.determiner_readings(tokens[start - 1].text))


def np_start(analysis: Analysis, noun: int) -> int:
    """Index of the first token of the noun phrase headed by ``noun`` (its article word, adjectives, ...)."""
    tokens = analysis.tokens
    start = noun
    name = tokens[noun].pos == "NE"  # New York City, Außenministerin Hillary Clinton
    while start > 0 and (tokens[start - 1].pos in NP_INNER or is_quote(tokens[start - 1]) or
                         (name and tokens[start - 1].pos in ("NE", "NN"))):
        start -= 1
    return start - 1 if start > 0 and tokens[start - 1].pos in ARTICLE_WORDS else start


def certain_nominative(analysis: Analysis, noun: int) -> bool:
    """Whether the noun phrase of ``noun`` can only be nominative: its article word agrees with the noun in
    the nominative only (*der Investor*, *ein Mann*)."""
    tokens = analysis.tokens
    start = np_start(analysis, noun)
    if tokens[start].pos not in ARTICLE_WORDS:
        return False
    analyses = noun_inf.noun_analyses(tokens[noun].text)
    readings = [r for r in inf.determiner_readings(tokens[start].text)
                if any(a[0] == r.number and a[2] == r.case and (r.number == "PL" or a[1] == r.gender) for a in analyses)]
    return bool(readings) and all(r.case == "NOM" for r in readings)


def coordinated_before(analysis: Analysis, noun: int, verb: int) -> bool:
    """Whether a coordinating conjunction stands between a noun before the verb and the verb (*Ein Mann aus
    Malta und ein anderer aus Brasilien wollen*): the subject may be the coordination."""
    return noun < verb and any(t.pos == "KON" for t in analysis.tokens[noun + 1 : verb])


RELATIVE_PRONOUNS = {"der": ("MASC",), "das": ("NEUT",), "die": ("FEM", "PL")}


def antecedent_number(analysis: Analysis, pronoun: Token) -> str | None:
    """The number of the relative pronoun *der*, *die* or *das* right after a comma, from the noun before
    the comma it agrees with (*Kučera, der* SG; *die Anleger, die* PL; *die Tafel, die* SG), where certain:
    not where that noun is a genitive or prepositional attribute of a noun the pronoun could refer to in the
    other number (*die Analyse der Märkte, die*; *Sitzen in der Touristenklasse, die*), nor after a
    coordination (*E-Mails und Instant Messages, die*)."""
    tokens = analysis.tokens
    if pronoun.index < 2 or tokens[pronoun.index - 1].text != ",":
        return None
    antecedent = tokens[pronoun.index - 2]
    allowed = RELATIVE_PRONOUNS.get(pronoun.text.lower())
    if allowed is None or antecedent.pos not in ("NN", "NE") or not antecedent.text[:1].isupper():
        return None
    if antecedent.pos == "NE":
        return "SG" if name_number(analysis, antecedent.index, antecedent.index) and "PL" not in allowed else None
    numbers = _noun_numbers_for(antecedent.text, allowed, pronoun.text.lower())
    if numbers is None or len(numbers) != 1:
        return None
    if genitive_attribute(analysis, antecedent.index):  # die Analyse der Märkte, die: which noun is meant?
        start = np_start(analysis, antecedent.index)
        owner = tokens[start - 1]
        if owner.pos != "NN" or _noun_numbers_for(owner.text, allowed, pronoun.text.lower()) != numbers:
            return None
    start = np_start(analysis, antecedent.index)
    if _coordinated_before(tokens, start):
        return None  # E-Mails und Instant Messages, die: the pronoun may refer to the coordination
    if start >= 2 and tokens[start - 1].pos in ("APPR", "APPRART") and tokens[start - 2].pos == "NN":
        # Sitzen in der Touristenklasse, die … sind: the pronoun may refer to the noun the phrase modifies
        other = _noun_numbers_for(tokens[start - 2].text, allowed, pronoun.text.lower())
        if other is None or (other and other != numbers):
            return None
    return numbers.pop()


def _coordinated_before(tokens: tuple[Token, ...], start: int, window: int = 8) -> bool:
    """Whether *und*, *oder* or *sowie* stands within ``window`` tokens before ``start`` with no comma or
    sentence end between (*die Gewürze oder die Art der Zubereitung, die*)."""
    for token in reversed(tokens[max(0, start - window) : start]):
        if token.text in (",", ";", ":") or token.pos == "$.":
            return False
        if token.text.lower() in LIST_CONJUNCTIONS:
            return True
    return False


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


PRONOUN_NUMBERS = {
    "ich": "SG", "du": "SG", "er": "SG", "wir": "PL", "man": "SG", "niemand": "SG", "jemand": "SG", "jeder": "SG",
    "jede": "SG", "jedes": "SG", "keiner": "SG", "keine": None, "etwas": "SG", "nichts": "SG", "alles": "SG",
    "dies": "SG", "dieses": "SG", "dieser": "SG", "jener": "SG", "einer": "SG", "eine": "SG", "eines": "SG",
    "einige": "PL", "viele": "PL", "wenige": "PL", "mehrere": "PL", "alle": "PL", "beide": "PL", "andere": "PL",
    "manche": "PL", "beides": "SG",
}


NOMINATIVE_FORMS = frozenset({"ich", "du", "er", "sie", "es", "wir", "ihr", "man"})


def pronoun_candidates(analysis: Analysis, verb: int) -> list[tuple[int, str | None, bool]]:
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
