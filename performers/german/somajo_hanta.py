"""The default German analysis backend, ``somajo-hanta``: SoMaJo tokens and sentences with character
offsets, HanTa STTS tags, lemmas and morphemes (see :mod:`performers.german.analysis` for the API).

HanTa's per-word computations are memoised on the instance, tags per token sequence and morphemes per
word are kept in LRU caches; ``version`` (the versions of SoMaJo and HanTa) keys the on-disk store
(:mod:`performers.german.analysis_store`).
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache

from performers.german.memo import _memoise
from performers.german.tokens import Analysis, Sentence, Token

_HANTA_TAG_MAP = {"NNA": "NN", "NNI": "NN"}


def stts(tag: str) -> str:
    """Normalise a HanTa tag to STTS: ``ADJ(A)`` → ``ADJA``, ``VV(FIN)`` → ``VVFIN``, ``NNA`` → ``NN``."""
    if "(" in tag and tag[0] != "$":
        return tag.replace("(", "").replace(")", "")
    return _HANTA_TAG_MAP.get(tag, tag)


_SENTENCE_PUNCTUATION = frozenset(".?!;:…")


def punctuation_tag(word: str) -> str | None:
    """The STTS tag of a punctuation token (``$,``, ``$.`` for ``. ? ! ; : …``, ``$(`` for the rest:
    quotes, brackets, dashes), or ``None`` when ``word`` has a letter or digit."""
    if any(char.isalnum() for char in word):
        return None
    if word == ",":
        return "$,"
    if all(char in _SENTENCE_PUNCTUATION for char in word):
        return "$."
    return "$("


def _versions(*packages: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for package in packages:
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            found.append(f"{package} ?")
    return "; ".join(found)


class SomajoHantaBackend:
    """SoMaJo tokenisation and sentence splitting (with character offsets) + HanTa STTS tags and lemmas."""

    name = "somajo-hanta"

    def __init__(self, sentence_cache_size: int = 200_000) -> None:
        from HanTa import HanoverTagger
        from somajo import SoMaJo

        self._tokenizer = SoMaJo("de_CMC", split_camel_case=False, character_offsets=True)
        self._tagger = HanoverTagger.HanoverTagger("morphmodel_ger.pgz")
        # HanTa recomputes each word's tag distribution (outside its precomputed lexicon) and each lemma's
        # morpheme Viterbi for every occurrence; both are pure functions of the model, so memoise them per
        # word on this instance (about 3x faster tagging of running text).
        self._tagger._tag_word = _memoise(self._tagger._tag_word)
        self._tagger._analyze = _memoise(self._tagger._analyze)
        self._sentence_cache: OrderedDict[tuple[str, ...], tuple[tuple[str, str], ...]] = OrderedDict()
        self._sentence_cache_size = sentence_cache_size
        self._morphemes = lru_cache(maxsize=200_000)(self._morphemes_uncached)
        self.version = _versions("SoMaJo", "HanTa")  # part of the on-disk cache's key

    def _tag(self, words: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        cached = self._sentence_cache.get(words)
        if cached is not None:
            self._sentence_cache.move_to_end(words)
            return cached
        tagged = tuple((lemma, tag) for _, lemma, tag in self._tagger.tag_sent(list(words)))
        self._sentence_cache[words] = tagged
        if len(self._sentence_cache) > self._sentence_cache_size:
            self._sentence_cache.popitem(last=False)
        return tagged

    def analyze(self, text: str) -> Analysis:
        tokens: list[Token] = []
        sentences: list[Sentence] = []
        for sentence in self._tokenizer.tokenize_text([text]) if text.strip() else ():
            spans = [token.character_offset for token in sentence]
            words = tuple(text[start:end] for start, end in spans)
            # HanTa expects SoMaJo's token text; it equals the span except for rare normalisations
            tagged = self._tag(tuple(token.text for token in sentence))
            first = len(tokens)
            number = len(sentences)
            for token, word, (start, end), (lemma, tag) in zip(sentence, words, spans, tagged):
                punctuation = punctuation_tag(word)
                tokens.append(
                    Token(
                        index=len(tokens),
                        text=word,
                        start=start,
                        end=end,
                        pos=punctuation or stts(tag),
                        lemma=lemma,
                        sentence=number,
                        xpos=tag,
                        space_after=bool(token.space_after),
                        kind=token.token_class,
                    )
                )
            sentences.append(Sentence(number, spans[0][0], spans[-1][1], first, len(tokens)))
        return Analysis(text, tuple(tokens), tuple(sentences), self.name)

    def limit(self, sentences: int, words: int) -> None:
        """Keep at most ``sentences`` tagged sentences and ``words`` results per word cache."""
        self._sentence_cache_size = sentences
        while len(self._sentence_cache) > sentences:
            self._sentence_cache.popitem(last=False)
        for method in (self._tagger._tag_word, self._tagger._analyze):
            method.limit = words
            while len(method.memo) > words:
                method.memo.popitem(last=False)
        if self._morphemes.cache_info().maxsize != words:
            self._morphemes = lru_cache(maxsize=words)(self._morphemes_uncached)

    def clear(self) -> None:
        """Forget the cached tags and morphemes."""
        self._sentence_cache.clear()
        self._morphemes.cache_clear()
        self._tagger._tag_word.memo.clear()
        self._tagger._analyze.memo.clear()

    def _morphemes_uncached(self, word: str) -> tuple[tuple[str, str], ...]:
        _, morphs, _ = self._tagger.analyze(word, taglevel=3)
        return tuple((morph, tag) for morph, tag in morphs)

    def morphemes(self, word: str) -> tuple[tuple[str, str], ...]:
        """HanTa's morpheme segmentation of ``word`` (lower-cased morphs with tags such as ``PREF_NEG``,
        ``NN``, ``FUGE``, ``SUF_PP``)."""
        return self._morphemes(word)
