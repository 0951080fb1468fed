"""The records of the German analysis: :class:`Token`, :class:`Sentence`, :class:`Analysis`
(re-exported by :mod:`performers.german.analysis`, which documents them)."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_BACKEND = "somajo-hanta"


@dataclass(frozen=True)
class Token:
    """One token of an analysed text; ``text == analysis.text[start:end]``."""

    index: int
    text: str
    start: int
    end: int
    pos: str
    lemma: str
    sentence: int
    xpos: str = ""
    space_after: bool = True
    kind: str = "regular"


@dataclass(frozen=True)
class Sentence:
    """One sentence: character span ``[start, end)`` and token index range ``[first, last)``."""

    index: int
    start: int
    end: int
    first: int
    last: int


@dataclass(frozen=True)
class Analysis:
    """The analysis of one text."""

    text: str
    tokens: tuple[Token, ...]
    sentences: tuple[Sentence, ...]
    backend: str = DEFAULT_BACKEND

    def sentence_tokens(self, sentence: int) -> tuple[Token, ...]:
        span = self.sentences[sentence]
        return self.tokens[span.first : span.last]

    def token_at(self, char: int) -> Token | None:
        """The token covering character offset ``char``, or ``None``."""
        for token in self.tokens:
            if token.start <= char < token.end:
                return token
            if token.start > char:
                break
        return None
