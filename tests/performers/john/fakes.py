"""Small performers for the John tests: a word-replacing Zellig and scoring/translating
Claudes whose numbers follow from the texts, so that tests need no model."""

from __future__ import annotations

import re
from collections.abc import Sequence

from arena.edits import make_variant
from arena.records import Edit, Instance, Judgement, Pair, SequenceScore, Variant

CALLS: dict[str, int] = {"translate": 0}


class WordZellig:
    """Replaces each whole-word occurrence of a key of ``words`` by its value, one
    variant per occurrence; ``phenomenon`` labels them (``by_word`` labels each by
    ``<phenomenon>:<word>`` instead).  Deleting a word: map it to ``""``."""

    version = "1"

    def __init__(self, words: dict[str, str] | None = None, phenomenon: str = "fake", by_word: bool = False):
        self.words = dict(words or {"unerwartet": "erwartet", "Haus": "Ding"})
        self.phenomenon = phenomenon
        self.by_word = by_word

    def corrupt(self, instance: Instance) -> list[Variant]:
        variants = []
        for word, replacement in self.words.items():
            for match in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", instance.reference):
                label = f"{self.phenomenon}:{word}" if self.by_word else self.phenomenon
                edit = Edit(match.start(), match.end(), word, replacement)
                variants.append(make_variant(instance, [edit], label, {"word": word, "distance": 1}))
        return variants


class ClauseZellig:
    """Deletes the last comma-separated part of the reference (a stand-in for
    clause omission: a long deleted span)."""

    version = "1"

    def corrupt(self, instance: Instance) -> list[Variant]:
        reference = instance.reference
        cut = reference.rfind(", ")
        if cut < 0:
            return []
        end = len(reference) - 1 if reference.endswith(".") else len(reference)
        return [make_variant(instance, [Edit(cut, end, reference[cut:end], "")], "clause_omission")]


class LengthClaude:
    """A scoring Claude whose log-probability of a target is minus its length in
    characters, as one token (shorter is likelier); ``translate`` returns a fixed short
    German text, so its 1-best beats every longer reference (discrepancy > 0)."""

    version = "1"
    convention = "mean"

    def __init__(self, translation: str = "Kurz."):
        self.translation = translation

    def score(self, sources: Sequence[str], targets: Sequence[str]) -> list[SequenceScore]:
        return [SequenceScore(-float(len(target)), 1) for target in targets]

    def translate(self, sources: Sequence[str], beam: int = 5) -> list[str]:
        CALLS["translate"] += len(sources)
        return [self.translation for _ in sources]

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        result = []
        for pair in pairs:
            scores = tuple(s.mean for s in self.score([pair.source] * len(pair.candidates), pair.candidates))
            low = min(scores)
            result.append(Judgement(scores.index(low) if scores.count(low) == 1 else None, scores))
        return result


class EchoTranslator(LengthClaude):
    """Translates by upper-casing the source (a visible, deterministic 'translation')."""

    def translate(self, sources: Sequence[str], beam: int = 5) -> list[str]:
        CALLS["translate"] += len(sources)
        return [source.upper() for source in sources]
