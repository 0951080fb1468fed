"""Answer validation for M2C's question-answering tests (``C: … Q: … A: …``).

M2C (Hlavnova & Ruder 2023) generates reading-comprehension items whose gold answer
is the ``A:`` part; a model's answer is checked by exact match and, for the analysis of
errors, M2C reports how many wrong answers are *morphological* errors — the right
word in the wrong form (*Lehrer* for *Lehrerin*, *ein* for *eine*) — rather than a
wrong word.  This module provides:

- :func:`split_qa` — context, question and answer of a generated item;
- :func:`exact_match`, :func:`normalized_match`, :func:`regex_match`;
- :class:`AnswerValidator` — classifies an answer as ``correct``, ``morphology``
  (every difference is another form of the same lexeme) or ``wrong_word``, using the
  lexemes of a template: each placeholder value's forms, each rule's values and each
  inline choice's options form one lexeme;
- :func:`error_summary` — counts and the share of errors due to morphology.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.sdk import ConfigError

CORRECT, MORPHOLOGY, WRONG_WORD = "correct", "morphology", "wrong_word"

_QA = re.compile(r"^\s*C:\s*(?P<context>.*?)\s*Q:\s*(?P<question>.*?)\s*A:\s*(?P<answer>.*?)\s*$", re.DOTALL)
_PUNCTUATION = re.compile(r"[^\w\s']", re.UNICODE)


@dataclass(frozen=True)
class QAItem:
    context: str
    question: str
    answer: str


def split_qa(text: str) -> QAItem:
    """Split ``C: … Q: … A: …``; a text without the three parts is a ``ValueError``."""
    match = _QA.match(text)
    if not match:
        raise ConfigError(f"not a 'C: ... Q: ... A: ...' item: {text[:80]!r}")
    return QAItem(match.group("context"), match.group("question"), match.group("answer"))


def normalize(text: str) -> str:
    """NFKC, case-folded, punctuation removed (apostrophes kept), whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_PUNCTUATION.sub(" ", text).split())


def exact_match(prediction: str, gold: str) -> bool:
    return prediction.strip() == gold.strip()


def normalized_match(prediction: str, gold: str) -> bool:
    return normalize(prediction) == normalize(gold)


def regex_match(prediction: str, pattern: str, flags: int = re.IGNORECASE) -> bool:
    """Whether the whole (stripped) prediction matches ``pattern``."""
    return re.fullmatch(pattern, prediction.strip(), flags) is not None


class AnswerValidator:
    """Classifies answers against gold answers with a lexeme index.

    ``lexemes`` are groups of forms of one lexeme (e.g. ``["Lehrer", "Lehrerin",
    "Lehrerinnen"]``); a form may belong to several lexemes.
    """

    def __init__(self, lexemes: Iterable[Iterable[str]] = ()):
        self._index: dict[str, set[int]] = {}
        for number, forms in enumerate(lexemes):
            for form in forms:
                key = normalize(form)
                if key:
                    self._index.setdefault(key, set()).add(number)

    @classmethod
    def from_space(cls, space) -> AnswerValidator:
        """Lexemes of a :class:`~performers.m2c.space.TemplateSpace`: its placeholders'
        values, its rules' values and its inline choices' options."""
        groups: list[list[str]] = []
        for lexicon in space.lexicons.values():
            groups.extend(lexicon.forms())
        for lookup in space.lookups:
            if lookup.table is not None:
                groups.append(lookup.table.values())
        return cls(groups)

    def lexemes(self, form: str) -> set[int]:
        return self._index.get(normalize(form), set())

    def same_lexeme(self, a: str, b: str) -> bool:
        return bool(self.lexemes(a) & self.lexemes(b))

    def classify(self, prediction: str, gold: str) -> str:
        """``correct`` (normalised match), ``morphology`` (only inflection differs) or
        ``wrong_word``."""
        predicted, expected = normalize(prediction), normalize(gold)
        if predicted == expected:
            return CORRECT
        if self.same_lexeme(predicted, expected):
            return MORPHOLOGY
        a, b = predicted.split(), expected.split()
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        differences = [op for op in matcher.get_opcodes() if op[0] != "equal"]
        if differences and all(self._inflectional(tag, a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in differences):
            return MORPHOLOGY
        return WRONG_WORD

    def _inflectional(self, tag: str, predicted: list[str], expected: list[str]) -> bool:
        """Whether a differing block of words only changes forms of the same lexemes
        (word by word when the block lengths agree, else as multi-word forms)."""
        if tag != "replace":
            return False
        if len(predicted) == len(expected) and all(
            p == e or self.same_lexeme(p, e) for p, e in zip(predicted, expected)
        ):
            return True
        return self.same_lexeme(" ".join(predicted), " ".join(expected))


def error_summary(labels: Sequence[str]) -> dict[str, float | int]:
    """Counts per label, accuracy, and the share of errors that are morphological."""
    counts = Counter(labels)
    errors = counts[MORPHOLOGY] + counts[WRONG_WORD]
    total = len(labels)
    return {
        "total": total,
        CORRECT: counts[CORRECT],
        MORPHOLOGY: counts[MORPHOLOGY],
        WRONG_WORD: counts[WRONG_WORD],
        "accuracy": counts[CORRECT] / total if total else 0.0,
        "morphology_share_of_errors": counts[MORPHOLOGY] / errors if errors else 0.0,
    }
