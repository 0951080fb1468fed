"""``transliteration`` Zellig: swap two adjacent letters in a rare name.

Source: Sennrich (2017), LingEval97 ``transliteration`` (names, often transliterated from other
scripts, that a subword model must copy or transliterate character by character).

    Der Präsident Medwedew reiste nach Minsk.  → Der Präsident Mewdedew reiste nach Minsk.

Rare names are proper nouns (STTS ``NE``) of at least ``min_length`` (4) letters, written with letters
only, that are rare: with a ``training_corpus``, seen at most ``max_count`` (10) times in it (LingEval97's
measure); without one, of wordfreq Zipf frequency at most ``max_zipf`` (3.0, about once in a million
words: *Medwedew* 2.7, *Gebrselassie* 1.7, but not *Minsk* 3.5 or *Berlin* 5.7).  Every pair of adjacent,
different lower-case letters after the first letter gives one candidate (*Mdewedew*, *Mewdedew*, ...;
the capital stays in place, never *eMdwedew*), so a name of n letters gives up to n − 2 candidates.
"""

from __future__ import annotations

from typing import Annotated

from annotated_types import Ge

from arena.sdk import ExistingFile, Instance, Variant, make_variant
from performers.german.analysis import DEFAULT_BACKEND, Token, analyze
from performers.german.frequency import frequency_meta, training_counts, zipf
from performers.zellig.spans import replace_token

PHENOMENON = "transliteration"


def adjacent_swaps(word: str) -> list[tuple[int, str]]:
    """(position, word with letters ``position`` and ``position + 1`` swapped) for every swappable pair."""
    swaps = []
    for position in range(1, len(word) - 1):
        left, right = word[position], word[position + 1]
        if left != right and left.isalpha() and right.isalpha() and left.islower() and right.islower():
            swaps.append((position, word[:position] + right + left + word[position + 2 :]))
    return swaps


class TransliterationZellig:
    """Swap two adjacent letters of a rare name (one candidate per swappable pair).

    Params: ``max_zipf`` (the highest wordfreq Zipf frequency of a rare name, used when
    there is no training corpus, default 3.0), ``max_count`` (the most times a rare name
    is seen in the training corpus, default 10), ``min_length`` (the fewest letters of a rare name, default 4)."""

    version = "1"

    def __init__(
        self,
        max_zipf: float = 3.0,
        max_count: int = 10,
        min_length: Annotated[int, Ge(3)] = 4,
        training_corpus: ExistingFile | None = None,
        backend: str = DEFAULT_BACKEND,
    ) -> None:
        self.max_zipf = float(max_zipf)
        self.max_count = int(max_count)
        self.min_length = min_length
        self.backend = backend
        self.counts = training_counts(training_corpus)

    def is_rare_name(self, token: Token) -> bool:
        word = token.text
        if token.pos != "NE" or len(word) < self.min_length or not word.isalpha() or not word[0].isupper():
            return False
        if word.isupper():
            return False
        if self.counts is not None:
            return self.counts.frequency(word) <= self.max_count
        return zipf(word) <= self.max_zipf

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants = []
        for token in analysis.tokens:
            if not self.is_rare_name(token):
                continue
            meta_word = {"word": token.text, **frequency_meta(self.counts, token.text)}
            for position, swapped in adjacent_swaps(token.text):
                meta = {"position": token.index, "swap": position, **meta_word}
                edit = replace_token(analysis, token, swapped)
                variants.append(make_variant(instance, [edit], PHENOMENON, meta))
        return variants
