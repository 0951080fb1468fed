"""``polarity-affix-del`` Zellig: delete a negating prefix *un-*.

Source: Sennrich (2017), LingEval97 ``polarity_affix_del``; Vamvas & Sennrich (2021), DistilLingEval
``polarity_affix_del`` (a *plausible* hypothesis: MT systems do drop negation).

    Das Timing für die Rettungsaktion ist unsicher.  → Das Timing für die Rettungsaktion ist sicher.
    Auch herrscht Unklarheit darüber.               → Auch herrscht Klarheit darüber.

One candidate per adjective, adverb, participle or noun whose *un-* is a negation prefix and whose rest
is an attested word (:func:`performers.german.negation.strip_un`); never *Unterschied*, *Union*,
*unter*, *Unternehmen*, *und*, *unser*, nor lexicalised *Unfall*, *Unmenge*, *Unkosten* ...  A
capitalised word stays capitalised (*Unklar ist* → *Klar ist*).

``detect(text, source)``: given the English source, a *missing* negation is decided only where it can
be: the source has a word with a negating *un-*/*non-* (*unclear*, *non-binding*) and the German text
has no negation at all (no *un-* word, *nicht*, *kein-*, *nie*, *ohne*, ...), and the text is not
garbage (:func:`performers.german.garbled.garbled`: a loop, the source copied through, a fragment):
garbled output has no negation either, and about a quarter of this detector's hits on the toy model's
1-best translations were garbage before version 2.  Without a source it returns ``False``
(undecidable).
"""

from __future__ import annotations

from performers.german.analysis import Analysis, analyze
from performers.german.frequency import frequency_meta
from performers.german.garbled import garbled
from performers.german.negation import english_un_words, negation_count, strip_un
from performers.zellig.german_base import GermanZellig
from performers.zellig.polarity import Polarity, PolarityZellig, Site
from performers.zellig.spans import replace_token


def un_sites(analysis: Analysis, zellig: GermanZellig) -> list[Site]:
    """*un-* deleted from each word whose *un-* negates."""
    sites: list[Site] = []
    for token in analysis.tokens:
        rest = strip_un(token.text, token.pos)
        if rest is not None:
            meta = {"position": token.index, "word": token.text, **frequency_meta(zellig.counts, token.text)}
            sites.append(([replace_token(analysis, token, rest)], meta))
    return sites


def no_negation_nor_garbage(zellig: PolarityZellig, text: str, source: str) -> bool:
    """The translation has no negation at all and is no garbage."""
    return garbled(text, source) is None and negation_count(analyze(text, zellig.backend)) == 0


class PolarityAffixDelZellig(GermanZellig, PolarityZellig):
    """Delete *un-* from one negated word (one candidate per such word)."""

    version = "2"
    polarity = Polarity("affix", "del", un_sites, no_negation_nor_garbage,
                        source_negates=lambda source: bool(english_un_words(source)))
