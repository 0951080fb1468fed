"""``polarity-affix-ins`` Zellig: insert a negating prefix *un-*.

Source: Sennrich (2017), LingEval97 ``polarity_affix_ins``.

    Die Lage ist klar.              → Die Lage ist unklar.
    Das war eine wichtige Frage.    → Das war eine unwichtige Frage.
    Er hatte Glück.                 → Er hatte Unglück.

One candidate per adjective or noun that takes a negating *un-* (:func:`performers.german.negation.add_un`):
the new word must be attested (wordfreq Zipf ≥ 2), adjectives must be analysed by HanTa as ``un`` +
``PREF_NEG`` + base, and lexicalised *un-* words whose base is no antonym are excluded
(*Fall* ↛ *Unfall*, *Menge* ↛ *Unmenge*, *Kosten* ↛ *Unkosten*).  Words that already start with
*un-* are left alone.
"""

from __future__ import annotations

from performers.german.analysis import Analysis, analyze
from performers.german.frequency import frequency_meta
from performers.german.negation import add_un, strip_un
from performers.zellig.german_base import GermanZellig
from performers.zellig.polarity import Polarity, PolarityZellig, Site
from performers.zellig.spans import replace_token


def antonym_sites(analysis: Analysis, zellig: GermanZellig) -> list[Site]:
    """*un-* prefixed to each adjective or noun that takes a negating *un-*."""
    sites: list[Site] = []
    for token in analysis.tokens:
        initial = token.index == analysis.sentences[token.sentence].first
        new = add_un(token.text, token.pos, sentence_initial=initial, backend=zellig.backend)
        if new is not None:
            meta = {"position": token.index, "word": token.text, **frequency_meta(zellig.counts, token.text)}
            sites.append(([replace_token(analysis, token, new)], meta))
    return sites


def has_un_word(zellig: PolarityZellig, text: str, source: str) -> bool:
    """The translation has a word with a negating *un-* (*unwichtig*)."""
    return any(strip_un(token.text, token.pos) is not None for token in analyze(text, zellig.backend).tokens)


class PolarityAffixInsZellig(GermanZellig, PolarityZellig):
    """Prefix *un-* to one adjective or noun (one candidate per such word)."""

    version = "1"
    polarity = Polarity("affix", "ins", antonym_sites, has_un_word)
