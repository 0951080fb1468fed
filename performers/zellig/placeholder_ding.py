"""``placeholder-ding`` Zellig: replace one common noun by uninflected *Ding*.

Source: Vamvas & Sennrich (2021), "On the Limits of Minimal Pairs in Contrastive Evaluation",
DistilLingEval ``placeholder_ding`` (an *implausible* hypothesis: MT systems rarely produce it).

    Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.
    → Die Prager Börse stürzt gegen Ding ins Minus.

One candidate per common noun (STTS ``NN``, including HanTa's nominalised ``NNA``/``NNI``, and capitalised
adjectives inside a sentence that head their phrase — nominalisations HanTa tags as adjectives: *das
Gleiche*, not *die Prager Börse*), whatever its case and number — *des amerikanischen
Repräsentantenhauses* → *des amerikanischen Ding*, *die Dinge* → *die Ding* — so the rest of the
sentence is left exactly as it is.  Proper names (``NE``)
are left alone unless german-nouns knows the word as a common noun (HanTa tags some nouns such as
*Essen* ``NE``).  *Ding* itself, words written with digits or without a lower-case letter (*EU*, *USA*)
and truncated first parts (*Finanz-*, ``TRUNC``) are skipped.

With ``placeholder: length-matched`` (issue 25, item 6) the placeholder is a semantically empty noun
of the replaced noun's gender and inflection and of the closest length instead (*Sache* for *Börse*,
*Sachverhalt* for *Geschäftsschluss*, *Stück* for *Minus*; :mod:`performers.zellig.placeholders`).

``detect(text, source)``: the text contains a form of *Ding* while the source (when given) has no
*thing(s)* — the generative rate of this implausible hypothesis (also with length-matched
placeholders: *Sache* or *Teil* in a translation is no sign of it).
"""

from __future__ import annotations

import re
from typing import Literal

from arena.sdk import ExistingFile, Instance, Variant, make_variant
from performers.german.analysis import DEFAULT_BACKEND, Analysis, Token, analyze
from performers.german.frequency import frequency_meta
from performers.zellig.german_base import GermanZellig
from performers.zellig.placeholders import length_matched
from performers.zellig.spans import replace_token, sentence_initial

PHENOMENON = "placeholder_ding"
DING_FORMS = frozenset({"Ding", "Dinge", "Dinges", "Dings", "Dingen", "Dinger", "Dingern"})
THING = re.compile(r"\bthings?\b", re.IGNORECASE)
_NAME_CATEGORIES = frozenset({"Vorname", "Nachname", "Familienname", "Eigenname", "Toponym", "Straßenname"})


def _common_noun_in_lexicon(word: str) -> bool:
    from performers.german.nouns import noun_entries, noun_readings

    lemmas = {reading.lemma for reading in noun_readings(word)}
    for lemma in lemmas:
        for entry in noun_entries(lemma):
            if "Substantiv" in entry.pos and not _NAME_CATEGORIES.intersection(entry.pos):
                return True
    return False


def is_common_noun(token: Token, sentence_initial: bool = False, following: Token | None = None) -> bool:
    """Whether ``token`` is a common noun *Ding* may replace: ``NN``; an ``NE`` that german-nouns knows as a
    common noun; a capitalised adjective inside a sentence that heads its phrase — no noun or adjective
    follows — (a nominalisation HanTa tags ``ADJA``/``ADJD``: *das Gleiche*, *nichts Einfacheres*; but not
    *Prager* in *die Prager Börse*)."""
    word = token.text
    if word == "Ding" or not any(c.islower() for c in word) or any(c.isdigit() for c in word):
        return False
    if not word[:1].isupper():
        return False
    if token.pos == "NN":
        return True
    if token.pos in ("ADJA", "ADJD"):
        return not sentence_initial and (following is None or following.pos not in ("NN", "NE", "ADJA", "TRUNC"))
    return token.pos == "NE" and _common_noun_in_lexicon(word)


Placeholder = Literal["ding", "length-matched"]


class PlaceholderDingZellig(GermanZellig):
    """Replace each common noun, one at a time, by *Ding* (one candidate per noun).

    ``placeholder``: ``ding`` (DistilLingEval's uninflected *Ding*, the default) or ``length-matched``
    (a semantically empty noun of the replaced noun's gender, number and case whose length is closest
    to it, :mod:`performers.zellig.placeholders`: *gegen Geschäftsschluss* → *gegen Sachverhalt*; a
    noun german-nouns cannot place gets no candidate; the variant's ``meta`` names the ``placeholder``).
    It takes away the length cue (a 4-letter *Ding* for a longer noun in about nine pairs of ten)
    without changing the hypothesis: a semantically empty noun where the source has a content word.
    """

    version = "1"

    def __init__(self, training_corpus: ExistingFile | None = None, backend: str = DEFAULT_BACKEND,
                 placeholder: Placeholder = "ding") -> None:
        super().__init__(training_corpus, backend)
        self.placeholder = placeholder

    def _replacement(self, analysis: Analysis, token: Token) -> str | None:
        if self.placeholder == "ding":
            return "Ding"
        previous = analysis.tokens[token.index - 1].text if token.index > 0 else None
        return length_matched(token.text, previous)

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants = []
        for token in analysis.tokens:
            following = analysis.tokens[token.index + 1] if token.index + 1 < len(analysis.tokens) else None
            if not is_common_noun(token, sentence_initial(analysis, token), following):
                continue
            replacement = self._replacement(analysis, token)
            if replacement is None:
                continue
            meta = {"position": token.index, "word": token.text, **frequency_meta(self.counts, token.text)}
            if self.placeholder != "ding":
                meta["placeholder"] = replacement
            variants.append(make_variant(instance, [replace_token(analysis, token, replacement)], PHENOMENON, meta))
        return variants

    def detect(self, text: str, source: str | None = None) -> bool:
        """A form of *Ding* in ``text`` that ``source`` (when given) does not motivate with *thing(s)*."""
        if (source is not None and THING.search(source)) or "Ding" not in text:
            return False  # every form contains "Ding": a text without it needs no analysis
        return any(token.text in DING_FORMS for token in analyze(text, self.backend).tokens)
