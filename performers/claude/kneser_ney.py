"""An interpolated Kneser–Ney word n-gram language model in numpy (Chen & Goodman 1998).

Used by the source-blind ``target-lm`` Claude.  Sentences are split into words and
punctuation (case kept: German nouns are capitalised), padded with ``order - 1`` start
symbols and one end symbol; the end symbol is scored, as the NMT Claudes score their
end-of-sentence token.  A word never seen in training is ``<unk>``, which gets the
uniform share the unigram level keeps back.

The n-grams are packed into int64 keys (word ids of ≤ 21 bits each, so ``order ≤ 3``)
and counted with ``numpy.unique``; probabilities are looked up with ``searchsorted``,
a batch of sentences at a time.  One absolute discount per order, ``D = n1 / (n1 + 2 n2)``
from the count-of-counts of that order.

Recursion (order ``k``, context ``h`` of ``k - 1`` words, ``h'`` without its first word)::

    p_k(w | h) = max(c_k(h w) - D_k, 0) / c_k(h) + D_k N1+(h •) / c_k(h) · p_{k-1}(w | h')

where ``c_k`` is the raw count at the highest order and the continuation count
``N1+(• h w)`` below it; a context never seen falls through to ``p_{k-1}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.sdk import ConfigError, length_cue

UNK, BOS, EOS = 0, 1, 2
SPECIALS = ("<unk>", "<s>", "</s>")
BITS = 21
MAX_ORDER = 3


def _discount(counts: np.ndarray) -> float:
    n1, n2 = int((counts == 1).sum()), int((counts == 2).sum())
    return n1 / (n1 + 2 * n2) if n1 + n2 else 0.5


def _grouped(keys: np.ndarray, values: np.ndarray, shift: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For sorted n-gram ``keys``: their distinct contexts (``keys >> shift``), the sum of
    ``values`` per context and the number of n-gram types per context."""
    contexts, starts, types = np.unique(keys >> shift, return_index=True, return_counts=True)
    return contexts, np.add.reduceat(values, starts) if len(values) else values, types


@dataclass
class Level:
    """One order: sorted n-gram keys with their (continuation) counts, their contexts with
    totals and type counts, and the order's discount."""

    keys: np.ndarray
    counts: np.ndarray
    contexts: np.ndarray
    totals: np.ndarray
    types: np.ndarray
    discount: float


def _level(keys: np.ndarray, counts: np.ndarray) -> Level:
    contexts, totals, types = _grouped(keys, counts, BITS)
    return Level(keys, counts, contexts, totals, types, _discount(counts))


def _lookup(sorted_keys: np.ndarray, values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """``values`` at ``queries`` in ``sorted_keys``, 0 where a query is absent."""
    if not len(sorted_keys):
        return np.zeros(len(queries), dtype=float)
    index = np.searchsorted(sorted_keys, queries).clip(0, len(sorted_keys) - 1)
    return np.where(sorted_keys[index] == queries, values[index], 0).astype(float)


class KneserNeyLM:
    """A trained model: ``vocabulary`` (id → word) and one :class:`Level` per order."""

    def __init__(self, vocabulary: Sequence[str], levels: Sequence[Level]):
        self.vocabulary = list(vocabulary)
        self.ids = {word: index for index, word in enumerate(self.vocabulary)}
        self.levels = list(levels)
        self.order = len(self.levels)

    @classmethod
    def train(cls, sentences: Iterable[str], order: int = 3) -> KneserNeyLM:
        if not 1 <= order <= MAX_ORDER:
            raise ConfigError(f"order must be 1 to {MAX_ORDER}, not {order}")
        ids: dict[str, int] = {word: index for index, word in enumerate(SPECIALS)}
        flat: list[int] = []
        for text in sentences:
            flat += [BOS] * (order - 1) + [ids.setdefault(word, len(ids)) for word in length_cue.words(text)] + [EOS]
        if len(ids) >= 1 << BITS:
            raise ValueError(f"vocabulary of {len(ids)} words exceeds {1 << BITS}")
        tokens = np.asarray(flat, dtype=np.int64)
        targets = np.flatnonzero(tokens != BOS)
        keys = np.zeros(len(targets), dtype=np.int64)
        for back in range(order - 1, -1, -1):
            keys = (keys << BITS) | tokens[targets - back]
        top, top_counts = np.unique(keys, return_counts=True)
        levels = [_level(top, top_counts)]
        mask = (1 << (BITS * (order - 1))) - 1
        for _ in range(order - 1):
            # continuation counts: how many distinct words precede each lower-order n-gram
            lower, counts = np.unique(levels[0].keys & mask, return_counts=True)
            levels.insert(0, _level(lower, counts))
            mask >>= BITS
        vocabulary = [""] * len(ids)
        for word, index in ids.items():
            vocabulary[index] = word
        return cls(vocabulary, levels)

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Natural-log probability of every word of each text and of its end symbol."""
        lengths, flat = [], []
        for text in texts:
            encoded = [self.ids.get(word, UNK) for word in length_cue.words(text)] + [EOS]
            lengths.append(len(encoded))
            flat += [BOS] * (self.order - 1) + encoded
        tokens = np.asarray(flat, dtype=np.int64)
        targets = np.flatnonzero(tokens != BOS) if len(tokens) else np.zeros(0, dtype=np.int64)
        history = [tokens[targets - back] for back in range(self.order)]  # history[0] is the word itself
        vocabulary = len(self.vocabulary)
        unigram = self.levels[0]
        total = float(unigram.counts.sum())
        probability = (
            np.maximum(_lookup(unigram.keys, unigram.counts, history[0]) - unigram.discount, 0) / total
            + unigram.discount * len(unigram.keys) / total / (vocabulary - 1)  # every word but <s>
        )
        for k in range(1, self.order):
            level = self.levels[k]
            key = np.zeros(len(targets), dtype=np.int64)
            for back in range(k, -1, -1):
                key = (key << BITS) | history[back]
            context = key >> BITS
            seen = _lookup(level.contexts, level.totals, context)
            types = _lookup(level.contexts, level.types, context)
            count = _lookup(level.keys, level.counts, key)
            denominator = np.where(seen > 0, seen, 1.0)
            interpolated = (np.maximum(count - level.discount, 0) + level.discount * types * probability) / denominator
            probability = np.where(seen > 0, interpolated, probability)
        logs = np.log(probability)
        return np.split(logs, np.cumsum(lengths)[:-1]) if lengths else []

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {"vocabulary": np.asarray(self.vocabulary, dtype=object).astype(str),
                                         "order": np.asarray(self.order)}
        for k, level in enumerate(self.levels):
            for name in ("keys", "counts", "contexts", "totals", "types"):
                arrays[f"{k}_{name}"] = getattr(level, name)
            arrays[f"{k}_discount"] = np.asarray(level.discount)
        with open(path, "wb") as handle:
            np.savez(handle, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> KneserNeyLM:
        with np.load(path, allow_pickle=False) as data:
            order = int(data["order"])
            levels = [
                Level(data[f"{k}_keys"], data[f"{k}_counts"], data[f"{k}_contexts"], data[f"{k}_totals"],
                      data[f"{k}_types"], float(data[f"{k}_discount"]))
                for k in range(order)
            ]
            return cls([str(word) for word in data["vocabulary"]], levels)
