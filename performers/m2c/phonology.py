"""Computed dimensions: features read off a surface form (M2C's callable dimensions).

English and French ``STARTSWITH`` (*a*/*an*, *le*/*l'*) and Italian ``STARTSWITH``
with its ``CONS2`` class (*lo studente*, *gli gnomi*), as M2C defines them.  An empty
form has no feature (``None``).
"""

from __future__ import annotations

from performers.m2c.registry import register_dimension


def starts_with_vowel(form: str) -> str | None:
    """``VOW`` if the first character (lower-cased) is one of ``aeiouyéè``, else ``CONS``."""
    if not form:
        return None
    return "VOW" if form[0].lower() in "aeiouyéè" else "CONS"


def italian_onset(form: str) -> str | None:
    """``VOW``; ``CONS2`` for *gn*, *ps*, *z* and *s* + consonant; else ``CONS``."""
    if not form:
        return None
    if form[0].lower() in "aeiouy":
        return "VOW"
    if form.startswith(("gn", "ps")) or form[0] == "z" or (len(form) > 1 and form[0] == "s" and form[1].lower() not in "aeiouy"):
        return "CONS2"
    return "CONS"


register_dimension("STARTSWITH", language="en", fn=starts_with_vowel)
register_dimension("STARTSWITH", language="fr", fn=starts_with_vowel)
register_dimension("STARTSWITH", language="it", fn=italian_onset)
