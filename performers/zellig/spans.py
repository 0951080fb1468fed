"""Exact character edits for the German rule Zelligs: replace, delete or insert at token spans.

Every helper returns :class:`~arena.records.Edit` objects with offsets into the analysed text, so
``apply_edits(reference, edits)`` reproduces the corrupted text exactly.  Deletions take one
neighbouring space with them (the following one, or the preceding one before punctuation or at the
end) so no double or dangling spaces are left; a deleted sentence-initial word hands its capital
letter on to the next word.
"""

from __future__ import annotations

from arena.sdk import Edit
from performers.german.analysis import Analysis, Token


def replace(text: str, start: int, end: int, after: str) -> Edit:
    """Replace ``text[start:end]`` by ``after``."""
    return Edit(start, end, text[start:end], after)


def replace_token(analysis: Analysis, token: Token, after: str) -> Edit:
    return replace(analysis.text, token.start, token.end, after)


def capitalise(word: str) -> str:
    return word[:1].upper() + word[1:]


def lower_first(word: str) -> str:
    return word[:1].lower() + word[1:]


def delete_span(text: str, start: int, end: int) -> Edit:
    """Delete ``text[start:end]`` and one adjacent run of spaces: the following run when the span starts
    the text or follows whitespace and is followed by a word; otherwise the preceding run."""
    after_end = end
    while after_end < len(text) and text[after_end] == " ":
        after_end += 1
    before_start = start
    while before_start > 0 and text[before_start - 1] == " ":
        before_start -= 1
    next_is_word = after_end < len(text) and (text[after_end].isalnum() or text[after_end] in "\"„“‚'(«»-–")
    if after_end > end and (before_start == 0 or before_start == start or next_is_word):
        return Edit(start, after_end, text[start:after_end], "")
    if before_start < start:
        return Edit(before_start, end, text[before_start:end], "")
    return Edit(start, after_end, text[start:after_end], "")


def sentence_initial(analysis: Analysis, token: Token) -> bool:
    """Whether ``token`` is the first word of its sentence (only punctuation before it)."""
    first = analysis.sentences[token.sentence].first
    return all(other.pos.startswith("$") for other in analysis.tokens[first : token.index])


def delete_token(analysis: Analysis, token: Token) -> tuple[Edit, ...] | None:
    """Delete ``token`` with one adjacent space; if it began its sentence with a capital and the next word
    starts with a lower-case letter, the next word is capitalised (one merged edit).  ``None`` where the
    deletion would leave a sentence starting with punctuation (*Nicht, dass ...*)."""
    text = analysis.text
    sentence = analysis.sentences[token.sentence]
    following = analysis.tokens[token.index + 1] if token.index + 1 < sentence.last else None
    if sentence_initial(analysis, token) and token.text[:1].isupper():
        if following is None or following.pos.startswith("$"):
            return None
        if following.text[:1].islower():
            return (Edit(token.start, following.end, text[token.start : following.end], capitalise(following.text)),)
    return (delete_span(text, token.start, token.end),)


def insert_before(analysis: Analysis, token: Token, word: str) -> Edit:
    """Insert ``word`` and a space before ``token`` (a capital moves to the inserted word at the start
    of a sentence: *Gestern kam er* → *Nicht gestern kam er* is produced as one edit)."""
    if sentence_initial(analysis, token) and token.text[:1].isupper() and token.pos not in ("NN", "NE"):
        return Edit(token.start, token.end, token.text, f"{capitalise(word)} {lower_first(token.text)}")
    return Edit(token.start, token.start, "", f"{word} ")


def distance(first: Token, second: Token) -> int:
    """LingEval97's ``distance``: the number of words strictly between two tokens."""
    low, high = sorted((first.index, second.index))
    return max(0, high - low - 1)

