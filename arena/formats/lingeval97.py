"""LingEval97 test sets (Sennrich 2017): JSON, its plaintext extraction, score files.

A LingEval97 test set is one JSON array of sentences::

    [{"source": "Prague Stock Market falls ...",
      "reference": "Die Prager Börse stürzt ...",
      "origin": "newstest2009.1",
      "errors": [{"type": "np_agreement", "contrastive": "Der Prager Börse ...",
                  "distance": 2, "frequency": 2020},
                 {"type": "polarity_particle_nicht_ins", "contrastive": "..."}]}]

``distance`` and ``frequency`` are optional annotations (see :mod:`arena.stats.bins`).  Keys
beyond these are kept as ``extra`` and written back unchanged.

LingEval97's ``json_to_plaintext.py`` turns a test set into line-aligned ``.en`` /
``.de`` files that an external model scores; the scores file then has one number per
line in the same order: for each sentence, the reference's score, then one score per
error in JSON order.  :func:`plaintext_pairs` is that order, and
:func:`read_scores` checks a scores file against it.

Structure is checked strictly on reading (a clear ``ValueError`` naming the file, the
item index, its origin and the key); texts are taken as they are, and only refused
when written as plaintext lines (a line break inside a text would shift every later
line of the extraction).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from arena.codec import dump
from arena.errors import DataError
from arena.formats import scores as score_files
from arena.formats.textlines import check_line_text, split_lines, write_lines, write_text_atomic
from arena.specs.yamlio import load_json, read_text
from arena.text_policy import text_problem

SENTENCE_KEYS = ("source", "reference", "origin", "errors")
ERROR_KEYS = ("type", "contrastive", "distance", "frequency")

SCORES_LAYOUT = (
    "one score per line: for each sentence the reference's score, then one per error in JSON order, "
    "as json_to_plaintext.py writes the pairs"
)


def _absent(value: object) -> bool:
    return value is None


Annotation = Annotated[int | float | str | None, Field(exclude_if=_absent)]  # not written when absent


@dataclass(frozen=True)
class Contrastive:
    """One contrastive translation (an entry of a sentence's ``errors``).

    ``type`` is the error category (e.g. ``np_agreement``), ``contrastive`` the
    corrupted reference; ``distance`` / ``frequency`` are LingEval97's optional
    annotations as found in the file (normally integers; ``None`` when absent).
    """

    type: str
    contrastive: str
    distance: Annotation = None
    frequency: Annotation = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _written(self, fields: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _flat(fields(self))


@dataclass(frozen=True)
class Sentence:
    """One test sentence: source, reference, where it comes from, its contrastives."""

    source: str
    reference: str
    origin: Annotated[str | None, Field(exclude_if=_absent)] = None
    errors: tuple[Contrastive, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _written(self, fields: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _flat(fields(self))


def _flat(data: dict[str, Any]) -> dict[str, Any]:
    """A sentence's or error's keys that LingEval97 does not name (``extra``) beside the ones it
    does, as they were read (:mod:`arena.codec` writes the records)."""
    extra = data.pop("extra")
    return {**data, **extra}


def _where(path: str, index: int, item: Any) -> str:
    origin = item.get("origin") if isinstance(item, Mapping) else None
    named = f" (origin {origin})" if isinstance(origin, str) else ""
    return f"{path}: item {index}{named}"


def _annotation(value: Any, where: str, key: str) -> int | float | str | None:
    if value is None or (isinstance(value, (int, float, str)) and not isinstance(value, bool)):
        return value
    raise DataError(f"{where}: key '{key}' must be a number, got {json.dumps(value, ensure_ascii=False)}")


def _text(item: Mapping[str, Any], key: str, where: str) -> str:
    if key not in item:
        raise DataError(f"{where}: missing key '{key}'")
    value = item[key]
    if not isinstance(value, str):
        raise DataError(f"{where}: key '{key}' must be a string, got {type(value).__name__}")
    return value


def _checked_sentence(path: str, index: int, item: Any) -> Sentence:
    """One sentence, checked key by key (the slow path that explains what is wrong)."""
    where = _where(path, index, item)
    if not isinstance(item, Mapping):
        raise DataError(f"{where}: expected an object with keys {', '.join(SENTENCE_KEYS)}")
    source = _text(item, "source", where)
    reference = _text(item, "reference", where)
    origin = item.get("origin")
    if origin is not None and not isinstance(origin, str):
        raise DataError(f"{where}: key 'origin' must be a string, got {type(origin).__name__}")
    if "errors" not in item:
        raise DataError(f"{where}: missing key 'errors' (a list, possibly empty)")
    raw_errors = item["errors"]
    if not isinstance(raw_errors, list):
        raise DataError(f"{where}: key 'errors' must be a list, got {type(raw_errors).__name__}")
    errors = []
    for position, error in enumerate(raw_errors):
        at = f"{where}, errors[{position}]"
        if not isinstance(error, Mapping):
            raise DataError(f"{at}: expected an object with keys {', '.join(ERROR_KEYS)}")
        category = _text(error, "type", at)
        if not category:
            raise DataError(f"{at}: key 'type' is empty")
        errors.append(
            Contrastive(
                category,
                _text(error, "contrastive", at),
                _annotation(error.get("distance"), at, "distance"),
                _annotation(error.get("frequency"), at, "frequency"),
                {key: value for key, value in error.items() if key not in ERROR_KEYS},
            )
        )
    extra = {key: value for key, value in item.items() if key not in SENTENCE_KEYS}
    return Sentence(source, reference, origin, tuple(errors), extra)


_NO_EXTRA: Mapping[str, Any] = MappingProxyType({})
_ANNOTATION_TYPES = (int, float, str)


def _fast_sentence(item: Any) -> Sentence | None:
    """One well-formed sentence without per-key messages, or ``None`` when anything
    is unusual (then :func:`_checked_sentence` says what)."""
    if type(item) is not dict:
        return None
    source, reference, raw_errors = item.get("source"), item.get("reference"), item.get("errors")
    origin = item.get("origin")
    if type(source) is not str or type(reference) is not str or type(raw_errors) is not list:
        return None
    if origin is not None and type(origin) is not str:
        return None
    errors = []
    for error in raw_errors:
        if type(error) is not dict:
            return None
        category, text = error.get("type"), error.get("contrastive")
        distance, frequency = error.get("distance"), error.get("frequency")
        if type(category) is not str or not category or type(text) is not str:
            return None
        if (distance is not None and type(distance) not in _ANNOTATION_TYPES) or (
            frequency is not None and type(frequency) not in _ANNOTATION_TYPES
        ):
            return None
        known = 2 + ("distance" in error) + ("frequency" in error)
        extra = _NO_EXTRA if len(error) == known else {k: v for k, v in error.items() if k not in ERROR_KEYS}
        errors.append(Contrastive(category, text, distance, frequency, extra))
    known = 3 + ("origin" in item)
    extra = _NO_EXTRA if len(item) == known else {k: v for k, v in item.items() if k not in SENTENCE_KEYS}
    return Sentence(source, reference, origin, tuple(errors), extra)


def sentences_from_json(data: Any, path: str = "<json>") -> list[Sentence]:
    """Check and map parsed LingEval97 JSON onto :class:`Sentence` records."""
    if not isinstance(data, list):
        raise DataError(f"{path}: a LingEval97 test set is a JSON array of sentences, not a {type(data).__name__}")
    sentences = []
    for index, item in enumerate(data):
        sentence = _fast_sentence(item)
        sentence = sentence if sentence is not None else _checked_sentence(path, index, item)
        _check_texts(path, index, sentence)
        sentences.append(sentence)
    return sentences


def _check_texts(path: str, index: int, sentence: Sentence) -> None:
    """The text policy (:func:`arena.text_policy.text_problem`) on a sentence's non-empty texts;
    a refusal names the file, the sentence and the key."""
    texts = [("source", sentence.source), ("reference", sentence.reference),
             *((f"errors[{position}].contrastive", error.contrastive) for position, error in enumerate(sentence.errors))]
    for key, text in texts:
        if text.strip():
            problem = text_problem(text, allow_tab=True, one_line=False)
            if problem is not None:
                raise DataError(f"item {index}: {key} {problem}", file=path, key=key)


@contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small acyclic objects
    (it would otherwise rescan the growing heap again and again)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_lingeval97(path: str | Path) -> list[Sentence]:
    """Read a LingEval97 JSON test set (UTF-8), checking its structure."""
    with _no_gc():
        return sentences_from_json(load_json(path), str(path))


def write_lingeval97(path: str | Path, sentences: Sequence[Sentence]) -> None:
    """Write a LingEval97 JSON test set (UTF-8, German kept readable), atomically."""
    text = json.dumps([dump(sentence) for sentence in sentences], ensure_ascii=False, indent=2)
    write_text_atomic(Path(path), text + "\n")


def plaintext_pairs(sentences: Sequence[Sentence]) -> Iterator[tuple[str, str]]:
    """``(source, target)`` in the order of LingEval97's ``json_to_plaintext.py``: per
    sentence its reference, then each error's contrastive translation."""
    for sentence in sentences:
        yield sentence.source, sentence.reference
        for error in sentence.errors:
            yield sentence.source, error.contrastive


def score_count(sentences: Sequence[Sentence]) -> int:
    """How many lines the plaintext extraction (and so a scores file) has."""
    return sum(1 + len(sentence.errors) for sentence in sentences)


def write_plaintext(
    prefix: str | Path, sentences: Sequence[Sentence], source: str = "en", target: str = "de"
) -> tuple[Path, Path]:
    """Write ``PREFIX.en`` and ``PREFIX.de`` as ``json_to_plaintext.py`` does; returns
    both paths.  A text with a line break or an empty text is a ``ValueError`` naming
    the item, because the files would no longer be line-aligned with the scores."""
    sources, targets = [], []
    for index, sentence in enumerate(sentences):
        where = f"item {index}" + (f" (origin {sentence.origin})" if sentence.origin else "")
        check_line_text(sentence.source, f"{where}: source")
        check_line_text(sentence.reference, f"{where}: reference")
        for position, error in enumerate(sentence.errors):
            check_line_text(error.contrastive, f"{where}, errors[{position}]: contrastive")
    for src, tgt in plaintext_pairs(sentences):
        sources.append(src)
        targets.append(tgt)
    source_path = Path(f"{prefix}.{source}")
    target_path = Path(f"{prefix}.{target}")
    write_lines(source_path, sources)
    write_lines(target_path, targets)
    return source_path, target_path


def parse_scores(text: str, name: str, sentences: Sequence[Sentence]) -> list[float]:
    """Parse a LingEval97 scores file for ``sentences`` (see :data:`SCORES_LAYOUT`)."""
    return score_files.parse_scores(text, name, score_count(sentences), SCORES_LAYOUT)


def read_scores(source: str | Path, sentences: Sequence[Sentence]) -> list[float]:
    """Read a LingEval97 scores file (``"-"``: stdin); too few or too many lines, an
    empty line or a non-number is a ``ValueError`` naming the file and line."""
    return score_files.read_scores(source, score_count(sentences), SCORES_LAYOUT)


def read_outputs(path: str | Path, sentences: Sequence[Sentence]) -> list[str | None]:
    """A system's 1-best translations, aligned with ``sentences`` (``None`` where the
    file has none), for showing next to misjudged pairs.

    Two layouts are accepted:

    - keyed by origin: a file named ``NAME.TESTSET`` (as LingEval97's ``baselines/``,
      e.g. ``sennrich2016.newstest2014``) holds the translation of every line of that
      WMT test set, and the sentence of origin ``TESTSET.N`` gets its line N;
    - line-aligned: one line per sentence of the test set.
    """
    path = Path(path)
    lines = split_lines(read_text(path))
    testset = path.suffix[1:] if path.suffix else ""
    prefix = f"{testset}."
    keyed = bool(testset) and any(s.origin and s.origin.startswith(prefix) for s in sentences)
    if keyed:
        outputs: list[str | None] = []
        for index, sentence in enumerate(sentences):
            if not (sentence.origin and sentence.origin.startswith(prefix)):
                outputs.append(None)
                continue
            number = sentence.origin[len(prefix) :]
            if not number.isdigit() or not 1 <= int(number) <= len(lines):
                raise DataError(
                    f"{path}: has {len(lines)} lines, but item {index} has origin {sentence.origin} "
                    f"(expected {testset}.N with 1 <= N <= {len(lines)})"
                )
            outputs.append(lines[int(number) - 1])
        return outputs
    if len(lines) != len(sentences):
        raise DataError(
            f"{path}: {len(lines)} lines, expected {len(sentences)} (one 1-best translation per sentence of the "
            "test set), or name the file NAME.TESTSET to look lines up by origin TESTSET.N"
        )
    return list(lines)
