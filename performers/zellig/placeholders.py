"""Length-matched placeholder nouns for ``placeholder-ding`` (issue 25, item 6).

DistilLingEval's placeholder is always uninflected *Ding* (4 characters), which replaces a longer noun
in about nine pairs of ten: a Claude that only counts characters solves the set (0.94).  The
length-matched placeholder is a semantically empty German noun (:data:`PLACEHOLDERS`) of the replaced
noun's gender, inflected for its number and case, whose length is closest to the replaced word's:

    Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.
    → Die Prager Sache stürzt ...          (Börse: feminine singular, 5 letters → Sache, 5)
    → ... gegen Sachverhalt ins Minus.     (Schluss, the compound's head: masculine → Sachverhalt, 11)
    → ... ins Stück.                       (Minus: neuter → Stück, 5)

Gender, number and case come from german-nouns (:mod:`performers.german.nouns`): the readings of the
word (or, for an unknown compound, of its head, :func:`performers.german.compounds.split_compound`)
whose form is the main form of its cell (so the archaic dative *Tage* does not make *Tage* ambiguous);
a placeholder form is used only if it fits *every* remaining reading — in the plural, where articles
show no gender, a placeholder of any gender — and where none does, the case is narrowed by the word
before the noun (genitive after *des*, *eines* ...; else not genitive: *ins Minus* → *ins Stück*).
Its main form is taken (and both standard genitives, *Gegenstands* and *Gegenstandes*).  A noun whose gender and number german-nouns cannot tell, or whose readings no
placeholder fits, gets no length-matched candidate.  Ties in length go to the first placeholder of
the list.  Nouns longer than the longest placeholder of their gender stay longer (*Angelegenheiten*,
15 letters, is the longest form).
"""

from __future__ import annotations

from functools import lru_cache

# semantically empty nouns by gender (german-nouns genders), shortest first
PLACEHOLDERS: dict[str, tuple[str, ...]] = {
    "MASC": ("Teil", "Kram", "Aspekt", "Umstand", "Gegenstand", "Sachverhalt"),
    "FEM": ("Sache", "Einheit", "Entität", "Gegebenheit", "Angelegenheit"),
    "NEUT": ("Ding", "Zeug", "Stück", "Objekt", "Element", "Gebilde", "Phänomen"),
}


def _readings(word: str) -> list[tuple[str | None, str, str]]:
    """``(gender, number, case)`` of the word's readings (gender ``None`` in the plural, where it does
    not show), those whose form is the main form of its cell when there are any; singular readings
    without a gender are dropped."""
    from performers.german.compounds import split_compound
    from performers.german.nouns import decline, noun_readings

    found = noun_readings(word)
    if not found:
        parts = split_compound(word)
        if parts:
            head = parts[-1][:1].upper() + parts[-1][1:]
            found, word = noun_readings(head), head
    readings = [r for r in found if r.gender is not None or r.number == "PL"]
    main = [r for r in readings if decline(r.lemma, r.case, r.number, r.gender)[:1] == (word,)]
    return sorted({(r.gender if r.number == "SG" else None, r.number, r.case) for r in (main or readings)},
                  key=lambda reading: (reading[0] or "", reading[1], reading[2]))


@lru_cache(maxsize=256)
def _forms(lemma: str, number: str, case: str) -> frozenset[str]:
    """The forms of a placeholder in a cell: the main form, and every standard genitive."""
    from performers.german.nouns import decline

    forms = decline(lemma, case, number)
    return frozenset(forms if case == "GEN" else forms[:1])


@lru_cache(maxsize=64)
def _genders(lemma: str) -> frozenset[str]:
    from performers.german.nouns import genders

    return genders(lemma)


GENITIVE_WORDS = frozenset({"des", "eines", "dieses", "jenes", "jedes", "keines", "meines", "deines", "seines",
                            "ihres", "unseres", "eures", "welches"})


def _fitting(readings: list[tuple[str | None, str, str]]) -> list[str]:
    wanted = {gender for gender, _, _ in readings if gender is not None}
    result: list[str] = []
    for lemma in (lemma for names in PLACEHOLDERS.values() for lemma in names):
        if not wanted <= _genders(lemma):
            continue
        common = frozenset.intersection(*(_forms(lemma, number, case) for _, number, case in readings))
        result += sorted(common, key=len)
    return list(dict.fromkeys(result))


def fitting_forms(word: str, previous: str | None = None) -> list[str]:
    """Every placeholder form that fits all readings of ``word`` (in list order): a placeholder of
    every gender its singular readings have (*Teil* is masculine and neuter), in every reading's cell.
    Where no form fits all readings the case is narrowed by the word before it (``previous``): the
    genitive after *des*, *eines*, *dieses* ..., otherwise every case but the genitive (*ins Minus*:
    not *ins Dings*)."""
    readings = _readings(word)
    if not readings:
        return []
    forms = _fitting(readings)
    if not forms:
        genitive = previous is not None and previous.lower() in GENITIVE_WORDS
        narrowed = [r for r in readings if (r[2] == "GEN") == genitive]
        forms = _fitting(narrowed) if narrowed and narrowed != readings else []
    return [form for form in forms if form != word]


def length_matched(word: str, previous: str | None = None) -> str | None:
    """The fitting placeholder form closest in length to ``word`` (the first of the list on a tie),
    or ``None`` if none fits."""
    forms = fitting_forms(word, previous)
    if not forms:
        return None
    return min(forms, key=lambda form: abs(len(form) - len(word)))
