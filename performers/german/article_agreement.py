"""Whether a definite article agrees with its head noun, and in which readings, for the agreement
detectors (the ``np-agreement`` Zellig, :mod:`performers.zellig.np_agreement`).

    from performers.german.article_agreement import agreeing_readings, weak_endings

    agreeing_readings("der", head)                  # frozenset({('SG', 'DAT'), ('SG', 'GEN')}) for *Börse*
    agreeing_readings("der", head, ("e",))          # frozenset(): *der ägyptische Regierung*

The head's readings (number, gender, case) come from german-nouns (the compound head for unknown compounds,
also inside a hyphenated name: *Rettungspaket*; a linking *s* the head split swallowed is given back:
*Telekommunikations|amt*); an unknown nominalised infinitive is neuter (*das Funktionieren*), and so is a
noun HanTa reads as an infinitive after *das* or *dem* (*auf dem Gewinnen*); after *die* or *den* a word in
*-s* whose stem is a noun may be a plural name (*die Tigers*, *die Müllers*); an unknown noun with a suffix
that fixes its gender counts (*Anmietung*).  Undecidable (``None``): names, nominalised adjectives, nouns
with two genders, lower-case words the tagger took for nouns.  The weak adjective endings between article
and noun (:func:`weak_endings`) narrow the readings: after a definite article an attributive adjective ends
in *-e* (nominative singular, accusative singular feminine and neuter) or *-en* (everywhere else).
"""

from __future__ import annotations

from performers.german import inflection as inf
from performers.german import noun_inflection as noun_inf
from performers.german.analysis import Token


def _linking_s_analyses(word: str) -> tuple[tuple[str, str | None, str], ...]:
    """Readings of an unknown compound whose head, as found, may swallow a linking *s*
    (*Telekommunikation·s·amt*, not *…·Samt*): those of the head without its *S*."""
    from performers.german.nouns import is_noun_form

    if is_noun_form(word):
        return ()
    split = noun_inf.head_split(word)
    if split is None or not split[1].startswith("S") or len(split[1]) < 4:
        return ()
    shorter = split[1][1].upper() + split[1][2:]
    return noun_inf.noun_analyses(shorter) if is_noun_form(shorter) else ()


def _known_or_compound(word: str) -> bool:
    """german-nouns knows ``word``, or it splits into a known head and a prefix of four letters or more, the
    head of four letters or more unless the prefix has six and ends in a linking *s* (*Telekommunikations|amt*,
    *Verwaltungs|rat*; not *Wa|gen*, *Sty|listen* or *Kompaktwa|gen*, short nouns the lexicon lacks)."""
    from performers.german.nouns import is_noun_form

    if is_noun_form(word):
        return True
    split = noun_inf.head_split(word)
    if split is None:
        return False
    prefix = len(split[0].strip("-"))
    return prefix >= 4 and (len(split[1]) >= 4 or (prefix >= 6 and split[0].endswith("s")))


RELIABLE_SUFFIXES = ("ung", "heit", "keit", "schaft", "tion", "sion", "tät", "ismus", "chen", "lein")


def _head_analyses(head: Token) -> tuple[tuple[str, str | None, str], ...] | None:
    """(number, gender, case) readings of the head noun for the agreement check, ``None`` when its gender
    cannot be trusted.  Known nouns (or compounds with a known head, *Rettungspaket* also when the tagger
    took *700-Milliarden-Dollar-Rettungspaket* for a name) use german-nouns; an unknown nominalised infinitive
    (*das Funktionieren*) is neuter singular; an unknown noun with a derivational suffix that fixes its
    gender (*Anmietung*) is singular of that gender, and, unless feminine, plural too."""
    text = head.text
    if head.pos == "NE" and "-" in text.strip("-"):
        text = text.rpartition("-")[2]
        if not text[:1].isupper() or not _known_or_compound(text):
            return None
    elif head.pos != "NN" or head.xpos == "NNA" or not text[:1].isupper():
        return None
    if noun_inf.has_double_gender(text) or noun_inf.has_double_gender(head.lemma):
        return None
    infinitive: tuple[tuple[str, str | None, str], ...] = ()
    if head.xpos == "NNI" and text.endswith("en"):
        infinitive = tuple(("SG", "NEUT", case) for case in ("NOM", "ACC", "DAT"))
    if _known_or_compound(text):
        analyses = noun_inf.noun_analyses(text)
        return analyses + _linking_s_analyses(text) + infinitive if analyses else None
    if infinitive:
        return infinitive
    suffix = next((s for s in RELIABLE_SUFFIXES if text.lower().endswith(s) and len(text) > len(s) + 2), None)
    gender = noun_inf.suffix_gender(text) if suffix else None
    if gender is None:
        return None
    numbers = ("SG",) if gender == "FEM" else ("SG", "PL")
    return tuple((number, gender, case) for number in numbers for case in inf.CASES)


def agreeing_readings(article: str, head: Token, endings: tuple[str, ...] = ()) -> frozenset[tuple[str, str]] | None:
    """The (number, case) readings in which the definite ``article`` agrees with the noun ``head`` on some
    gender (empty: on none); ``None`` when that cannot be decided (an unknown noun, a name, a nominalised
    adjective, a noun with two genders, a lower-case word the tagger took for a noun).  ``endings`` are the
    weak endings (*e*, *en*) of the attributive adjectives between them: a reading counts only where each
    is the weak ending it needs (*der ägyptische Regierung*: *der … -e* is only a masculine nominative)."""
    analyses = _head_analyses(head)
    if analyses is None:
        return None
    found = set()
    for number, gender, case in analyses:
        if number == "PL":
            slot = case
        elif gender is None:
            continue
        else:
            slot = f"{gender}.{case}"
        if inf.article(f"{number}.DEF.{slot}") != article:
            continue
        if all(inf.adjective_ending(f"WEAK.{number}.{slot}") == ending for ending in endings):
            found.add((number, case))
    if not found and article in ("das", "dem") and _nominalised_infinitive(head.text):
        found = {("SG", case) for case in ("NOM", "ACC", "DAT") if inf.article(f"SG.DEF.NEUT.{case}") == article}
    if not found and article in ("die", "den") and _s_plural(head.text):
        found = {("PL", case) for case in inf.CASES if inf.article(f"PL.DEF.{case}") == article}
    return frozenset(found)


def _s_plural(word: str) -> bool:
    """Whether ``word`` may be an *-s* plural of a name or borrowing whose stem german-nouns knows (*die
    Tigers*, *die Müllers*, *den Rangers*): after *die* or *den* the genitive singular in *-s* cannot be
    meant, so no agreement error of the kind a changed article makes."""
    from performers.german.nouns import is_noun_form

    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss") or not is_noun_form(word[:-1]):
        return False
    return not any(case == "NOM" for _, _, case in noun_inf.noun_analyses(word))  # not *Haus* (Hau + s)


def _nominalised_infinitive(word: str) -> bool:
    """Whether ``word`` may be a nominalised infinitive, neuter whatever noun it also is (*auf dem Gewinnen*,
    not the plural of *Gewinn*): HanTa reads its lower-case form as an infinitive."""
    from performers.german.verb_inflection import _is_infinitive

    return word.endswith("en") and _is_infinitive(word.lower())


def agreeing_cases(article: str, head: Token, endings: tuple[str, ...] = ()) -> frozenset[str] | None:
    """The cases of :func:`agreeing_readings` (empty: no agreement; ``None``: undecidable)."""
    readings = agreeing_readings(article, head, endings)
    return None if readings is None else frozenset(case for _, case in readings)


def weak_endings(tokens: tuple[Token, ...], start: int, head: int) -> tuple[str, ...]:
    """The weak ending (*e* or *en*) of the attributive adjectives between an article and its head noun,
    as a one-element tuple; other endings (*Prager*, *lila*) say nothing.  None at all (``()``) where the
    article may be a pronoun before a strong adjective (after a comma or a conjunction: *…, die kräftige
    Regenfälle bringt*), where a capitalised or hyphenated adjective may be a name or a noun (*die
    Deutschen selbstfahrende Autos*, *der Frankfurter Deutsche Immobilien-Gruppe*), where a conjunction
    may join an adjective without its noun (*der schnellste und erbrachte Einschätzungen*), where a
    quantifier follows the article (*die meisten ähnliche Tendenzen*), where another noun follows the head
    (*Der 19-jährige Community College-Student*), or where the adjectives disagree among themselves (*die
    lange befürchteten Ereignisse*: *lange* is an adverb)."""
    inner = tokens[start + 1 : head]
    before = tokens[start - 1].text.lower() if start > 0 else ""
    after = tokens[head + 1].pos if head + 1 < len(tokens) else ""
    if before in (",", "–", "-", "(", "und", "oder", "aber") or after in ("NN", "NE"):
        return ()
    if any(t.pos in ("KON", "PIAT", "PIDAT") or (t.pos == "ADJA" and not t.text.islower()) for t in inner):
        return ()
    found = set()
    for token in inner:
        if token.pos != "ADJA":
            continue
        if token.text.endswith("en"):
            found.add("en")
        elif token.text.endswith("e"):
            found.add("e")
    return tuple(found) if len(found) == 1 else ()


def article_agrees(article: str, head: Token) -> bool | None:
    """Whether the definite ``article`` agrees with the noun ``head`` on some (number, gender, case) reading;
    ``None`` when that cannot be decided (see :func:`agreeing_cases`)."""
    cases = agreeing_cases(article, head)
    return None if cases is None else bool(cases)
