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

from arena.sdk import Instance, Variant, make_variant
from performers.german.analysis import analyze
from performers.german.frequency import frequency_meta
from performers.german.negation import add_un, negation_free, strip_un
from performers.zellig.german_base import GermanZellig
from performers.zellig.spans import replace_token

PHENOMENON = "polarity_affix_ins"


class PolarityAffixInsZellig(GermanZellig):
    """Prefix *un-* to one adjective or noun (one candidate per such word)."""

    version = "1"

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants = []
        for token in analysis.tokens:
            initial = token.index == analysis.sentences[token.sentence].first
            new = add_un(token.text, token.pos, sentence_initial=initial, backend=self.backend)
            if new is None:
                continue
            meta = {"position": token.index, "word": token.text, **frequency_meta(self.counts, token.text)}
            variants.append(make_variant(instance, [replace_token(analysis, token, new)], PHENOMENON, meta))
        return variants

    def applies(self, source: str | None) -> bool:
        """The source negates nothing (no *not*, *no*, *never*, *un-* word, ...)."""
        return negation_free(source)

    def detect(self, text: str, source: str | None = None) -> bool:
        """The source negates nothing and the translation has a word with a negating *un-* (*unwichtig*)."""
        return self.applies(source) and any(
            strip_un(token.text, token.pos) is not None for token in analyze(text, self.backend).tokens
        )
