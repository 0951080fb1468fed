"""The cases German prepositions govern, for agreement checks that need the case of a noun phrase.

    from performers.german.government import governed_cases

    governed_cases("auf")      # frozenset({'ACC', 'DAT'})
    governed_cases("wegen")    # frozenset({'GEN', 'DAT'})  (the dative is colloquial but common)
    governed_cases("als")      # None: not a preposition with a fixed case

Source: Duden Grammatik (2016) §§ 906-915, the common prepositions only.  Where the standard genitive has
a colloquial dative beside it (*wegen dem*, *trotz dem*, *laut dem*), both are listed, so a check built on
this table never calls a colloquial dative an error.  *Bis*, *als*, *wie* and *entlang* are left out: they
combine with other prepositions or take any case.
"""

from __future__ import annotations

ACCUSATIVE = ("durch", "für", "gegen", "ohne", "um", "wider")
DATIVE = ("aus", "bei", "mit", "nach", "seit", "von", "zu", "gegenüber", "ab", "außer", "entgegen",
          "samt", "nebst", "zufolge")
TWO_WAY = ("an", "auf", "hinter", "in", "neben", "über", "unter", "vor", "zwischen")
GENITIVE = ("wegen", "während", "trotz", "statt", "anstatt", "aufgrund", "infolge", "innerhalb", "außerhalb",
            "laut", "angesichts", "bezüglich", "mittels", "anhand", "hinsichtlich", "oberhalb", "unterhalb",
            "seitens", "dank", "gemäß", "inmitten", "anlässlich", "zugunsten", "abseits", "jenseits", "diesseits")

GOVERNMENT: dict[str, frozenset[str]] = {
    **{word: frozenset({"ACC"}) for word in ACCUSATIVE},
    **{word: frozenset({"DAT"}) for word in DATIVE},
    **{word: frozenset({"ACC", "DAT"}) for word in TWO_WAY},
    **{word: frozenset({"GEN", "DAT"}) for word in GENITIVE},
}


def governed_cases(preposition: str) -> frozenset[str] | None:
    """The cases a noun phrase right after ``preposition`` may have; ``None`` for a word not in the table."""
    return GOVERNMENT.get(preposition.lower())
