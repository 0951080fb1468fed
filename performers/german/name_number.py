"""The number of a proper name as a subject, for :mod:`performers.german.subject_number`.

    from performers.german.name_number import name_number

    name_number(analysis, index, start)   # 'SG' or None for the name at ``index`` whose phrase starts at ``start``

A name is singular (*Paula Radcliffe hält*, *Japan ist*, *die Türkei*, *das FBI*, bare *GM*) unless it is a
known plural name or abbreviation (*Philippinen*, *USA*), german-nouns knows it as a noun with a plural
reading (the tagger's names include *Abtreibungsgegner*, *Infineon-Aktien*; not after a first name: *Joschka
Fischer*), or after *die* it ends like a plural (*die Lakers*, *die Grünen*); after another article word
(*diese*, *ihre*) it is left open, as is a word mixing Latin and Greek letters (*Auβerdem*: a mis-encoded ß).
"""

from __future__ import annotations

from performers.german import noun_inflection as noun_inf
from performers.german.analysis import Analysis

ARTICLE_WORDS = frozenset({"ART", "PPOSAT", "PDAT", "PIAT"})


PLURAL_ABBREVIATIONS = frozenset({"USA", "US", "UN", "VAE", "UAE", "GUS", "NGOs", "KMU"})


PLURAL_NAMES = frozenset({"Niederlande", "Philippinen", "Malediven", "Seychellen", "Bahamas", "Staaten", "Emirate",
                          "Kanaren", "Alpen", "Anden", "Azoren", "Brothers", "Nationen", "Beatles", "Stones"})


def name_number(analysis: Analysis, index: int, start: int) -> str | None:
    """A proper name as a subject is singular (*Paula Radcliffe hält*, *Japan ist*, *die Türkei*, *die
    DGAC*) unless it is a known plural name or abbreviation (*Philippinen*, *die USA*), german-nouns knows it
    as a noun with a plural reading (the tagger's names include *Abtreibungsgegner*, *Infineon-Aktien*), or
    after *die* it ends like a plural (*die Lakers*, *die Grünen*); after another article word it is left open."""
    tokens = analysis.tokens
    word = tokens[index].text
    before = tokens[start - 1] if start > 0 else None
    if word in PLURAL_NAMES or word in PLURAL_ABBREVIATIONS or not word[:1].isupper():
        return None
    if any("\u0370" <= c <= "\u03ff" for c in word) and any("a" <= c <= "z" for c in word):
        return None  # Auβerdem: Greek beta for ß, a mis-encoded word the tagger took for a name
    first_name = index > 0 and tokens[index - 1].pos == "NE"  # Joschka Fischer: a person
    if not first_name and any(a[0] == "PL" and a[2] == "NOM" for a in noun_inf.noun_analyses(word)):
        return None  # Abtreibungsgegner, Infineon-Aktien, Richter: the tagger's name may be a plural noun
    if before is not None and before.pos in ARTICLE_WORDS:
        determiner = before.text.lower()
        if determiner in ("der", "das", "ein"):
            return "SG"
        plural_like = word.endswith(("s", "n", "er", "e")) and not word.isupper()  # die Bayern, die Lakers
        return "SG" if determiner == "die" and not plural_like else None
    return "SG"
