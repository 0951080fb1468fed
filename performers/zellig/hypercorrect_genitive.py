"""``hypercorrect-genitive`` Zellig: after a preposition that governs the dative, put the noun phrase
into the genitive (an *implausible* hypothesis: the genitive is a hypercorrection here).

Source: Vamvas & Sennrich (2021), "On the Limits of Minimal Pairs in Contrastive Evaluation",
DistilLingEval ``hypercorrect_genitive``.

    Seit dem Tag ist nichts mehr wie zuvor.  →  Seit des Tags ist nichts mehr wie zuvor.
    Er lebt seit einem Jahr in Berlin.       →  Er lebt seit eines Jahres in Berlin.
    gemäß den Regeln                         →  gemäß der Regeln

Where it applies: a preposition of ``data/hypercorrect_genitive.yaml`` (*seit, gegenüber, gemäß, nahe,
samt, mitsamt, nebst, entsprechend, entgegen*), optionally followed by a degree adverb (*seit fast einem
Jahr*), then a noun phrase with an article word in the dative (*dem, einem, den, diesem, meinem, keinem*
...) and a head noun (:func:`performers.german.syntax.np_head`); for the prepositions that can follow
their noun phrase (*dem Publikum gegenüber*, *dem Plan entsprechend*) also the noun phrase before them.

What it changes: the article word to its genitive form (same lemma, number and gender), attributive
adjectives to the genitive ending of their declension (after an article word dative and genitive endings
are both *-en*, so they stay), and the head noun to its genitive (german-nouns; the head of an unknown
compound; regular endings otherwise): *dem Tag* → *des Tages* and *des Tags*, one candidate for each
standard genitive form german-nouns lists; plurals lose the dative *-n* (*den Morden* → *der Morde*).
Feminine singulars have identical dative and genitive (*seit der Wahl*), so nothing changes and no
candidate is made.

``detect(text, source=None)``: whether ``text`` has a genitive noun phrase (an article word and noun
whose only common reading is genitive) right after (or, for the post-positions, before) one of these
prepositions; ``source`` is not needed.

Metadata: ``preposition``, ``head``, ``distance`` (preposition to head noun), ``zipf_frequency`` (and
``frequency`` with a ``training_corpus``) of the head noun.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from arena.sdk import DataError, Edit, Instance, Variant, make_variant
from performers.german import inflection as inf
from performers.german import noun_inflection as noun_inf
from performers.german.analysis import Analysis, Token, analyze
from performers.german.frequency import frequency_meta
from performers.german.syntax import NOUNS, NP_INNER, distance, is_quote, np_head
from performers.zellig.german_base import GermanZellig

PHENOMENON = "hypercorrect_genitive"
DATA_FILE = Path(__file__).resolve().parents[1] / "german" / "data" / "hypercorrect_genitive.yaml"
DETERMINER_TAGS = frozenset({"ART", "PPOSAT", "PDAT", "PIAT", "PWAT"})


@lru_cache(maxsize=4)
def load_prepositions(path: str = str(DATA_FILE)) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """``({preposition: positions}, adverbs)`` from the data file; errors name the file and key."""
    from arena.sdk import load_yaml

    data = load_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("prepositions"), dict):
        raise DataError(f"{path}: expected a mapping with key 'prepositions'")
    prepositions: dict[str, frozenset[str]] = {}
    for word, positions in data["prepositions"].items():
        if not isinstance(positions, list) or not positions or not set(positions) <= {"pre", "post"}:
            raise DataError(f"{path}: prepositions.{word}: expected a list of 'pre'/'post', got {positions!r}")
        prepositions[str(word).lower()] = frozenset(positions)
    adverbs = data.get("adverbs", [])
    if not isinstance(adverbs, list):
        raise DataError(f"{path}: adverbs: expected a list")
    return prepositions, frozenset(str(word).lower() for word in adverbs)


def _is_determiner(token: Token) -> bool:
    """An article word: by tag, or by form where the tagger erred (*gemäß einem* tagged ``CARD``)."""
    return token.pos in DETERMINER_TAGS or (
        token.pos in ("CARD", "PIS", "PDS") and bool(inf.determiner_readings(token.text))
    )


def _np_readings(determiner: Token, head: Token) -> list[tuple[inf.DeterminerReading, str | None]]:
    """Readings (determiner reading, noun gender) on which the article word and the noun agree."""
    noun: tuple[tuple[str, str | None, str], ...]
    if head.xpos == "NNI":  # a nominalised infinitive: seit dem Aufstehen
        noun, genders = (), frozenset({"NEUT"})
    else:
        noun = noun_inf.noun_analyses(head.text)
        genders = noun_inf.noun_genders(head.text) if not noun else frozenset()
        if not noun and not genders and head.text.endswith("en"):
            genders = frozenset({"NEUT"})
    out = []
    for reading in inf.determiner_readings(determiner.text):
        if noun:
            for number, gender, case in noun:
                if number != reading.number or case != reading.case:
                    continue
                if number == "SG" and gender != reading.gender:
                    continue
                out.append((reading, gender))
        elif reading.number == "PL" or not genders or reading.gender in genders:
            out.append((reading, reading.gender))
    return out


def _np_before(tokens: tuple[Token, ...], index: int) -> tuple[int, int] | None:
    """(article word, head noun) of a noun phrase ending right before token ``index`` (post-positions)."""
    head = index - 1
    if head < 0 or tokens[head].pos not in NOUNS:
        return None
    start = head - 1
    while start >= 0 and (tokens[start].pos in NP_INNER or is_quote(tokens[start])) and head - start < 6:
        start -= 1
    if start >= 0 and _is_determiner(tokens[start]) and np_head(tokens, start) == head:
        return start, head
    return None


def governed_phrases(analysis: Analysis) -> list[tuple[int, int, int]]:
    """(preposition, article word, head noun) token indices of the noun phrases the prepositions govern."""
    prepositions, adverbs = load_prepositions()
    tokens = analysis.tokens
    out = []
    for token in tokens:
        positions = prepositions.get(token.text.lower())
        if positions is None:
            continue
        if "pre" in positions:
            index = token.index + 1
            while index < len(tokens) and index <= token.index + 2 and tokens[index].text.lower() in adverbs:
                index += 1
            if index < len(tokens) and _is_determiner(tokens[index]):
                head = np_head(tokens, index, extended=False)
                if head is not None:
                    out.append((token.index, index, head))
                    continue
        if "post" in positions:
            found = _np_before(tokens, token.index)
            if found is not None:
                out.append((token.index, *found))
    return out


def governed_genitives(analysis: Analysis) -> list[tuple[int, int, int]]:
    """The :func:`governed_phrases` whose article word and noun can only be genitive (not dative)."""
    found = []
    for phrase in governed_phrases(analysis):
        readings = _np_readings(analysis.tokens[phrase[1]], analysis.tokens[phrase[2]])
        cases = {reading.case for reading, _ in readings}
        if "GEN" in cases and "DAT" not in cases:
            found.append(phrase)
    return found


class HypercorrectGenitiveZellig(GermanZellig):
    """Turn the dative noun phrase after a dative preposition into the genitive (one candidate per
    genitive noun form)."""

    version = "1"

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        tokens = analysis.tokens
        variants: list[Variant] = []
        seen: set[str] = set()
        for preposition, determiner_index, head_index in governed_phrases(analysis):
            determiner = tokens[determiner_index]
            head = tokens[head_index]
            for reading, gender in _np_readings(determiner, head):
                if reading.case != "DAT":
                    continue
                genitive_slot = ".".join(p for p in (reading.number, reading.gender, "GEN") if p)
                new_determiner = inf.determiner(reading.lemma, genitive_slot)
                if new_determiner is None:
                    continue
                new_determiner = inf.match_case(determiner.text, new_determiner)
                adjective_edits = self._adjective_edits(analysis, determiner_index, head_index, reading)
                for new_noun in noun_inf.to_genitive(head.text, reading.number, gender):
                    edits = list(adjective_edits)
                    if new_determiner != determiner.text:
                        edits.append(Edit(determiner.start, determiner.end, determiner.text, new_determiner))
                    if new_noun != head.text:
                        edits.append(Edit(head.start, head.end, head.text, new_noun))
                    if not edits:
                        continue
                    variant = make_variant(
                        instance,
                        edits,
                        PHENOMENON,
                        {
                            "preposition": tokens[preposition].text,
                            "head": head.text,
                            "distance": distance(analysis, preposition, head_index),
                            **frequency_meta(self.counts, head.text),
                        },
                    )
                    if variant.text not in seen:
                        seen.add(variant.text)
                        variants.append(variant)
        return variants

    @staticmethod
    def _adjective_edits(
        analysis: Analysis, determiner_index: int, head_index: int, reading: inf.DeterminerReading
    ) -> list[Edit]:
        declension = inf.adjective_declension(reading.lemma)
        slot = ".".join(p for p in (reading.number, reading.gender) if p)
        dative = inf.adjective_ending(f"{declension}.{slot}.DAT")
        genitive = inf.adjective_ending(f"{declension}.{slot}.GEN")
        edits = []
        for token in analysis.tokens[determiner_index + 1 : head_index]:
            if token.pos == "ADJA" and dative != genitive and token.text.endswith(dative):
                new = token.text[: len(token.text) - len(dative)] + genitive
                edits.append(Edit(token.start, token.end, token.text, new))
        return edits

    def detect(self, text: str, source: str | None = None) -> bool:
        """Whether ``text`` has a genitive noun phrase governed by one of the dative prepositions."""
        return bool(governed_genitives(analyze(text, self.backend)))
