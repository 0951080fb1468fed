"""LingEval97's evaluation (Sennrich 2017, ``evaluate.py``), re-implemented.

:func:`evaluate` counts, for every contrastive translation of the selected error
categories, whether the model's score of the reference is *strictly* better than its
score of the contrastive translation (lower is better unless ``maximize``; a tie is
wrong), by category, by distance bin, by frequency bin and by both
(:mod:`arena.stats.bins`).  :func:`format_report` prints what ``evaluate.py`` prints, line
for line:

- ``-v`` blocks for every misjudged pair first (``evaluate.py`` prints them while it
  counts), each ``error:``, ``source:``, ``correct (score S):``, ``error (score S):``
  and a blank line — plus, with 1-best outputs, ``output (NAME): TEXT`` lines (an
  addition of ours);
- ``total : C T ACC``; the 13 categories in LingEval97's order; ``distance B: C T
  ACC``; ``B : C T ACC`` by frequency; ``--fd``, ``--latex``, ``--latex-polarity``
  sections; buckets without pairs are omitted.

Numbers are printed as the published reports print them: LingEval97's reports were
made with Python 2, whose ``str(float)`` keeps 12 significant digits
(``0.972527923784``; ``1.0``), see :func:`py2_str`.

Where ``evaluate.py`` would crash we raise a ``ValueError`` or print something
sensible instead, and say so: nothing selected (a division by zero in the original),
and an empty LaTeX column (printed as ``--``).  Categories outside LingEval97's 13 —
e.g. phenomena of arena Zelligs exported with ``arena export`` — can be selected with
``categories``; they are counted in the total and listed after the 13 in the order
given.  Contrastives of unselected types are skipped as in the original, and counted
(:attr:`LingEval97Result.skipped`).
"""

from __future__ import annotations

import math
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from arena.errors import DataError
from arena.formats.lingeval97 import Sentence, score_count
from arena.stats.bins import DISTANCE_BINS, FREQUENCY_BINS, distance_bin, frequency_bin

_Key = TypeVar("_Key")

# LingEval97's error categories, in the order its reports list them
ERROR_CATEGORIES: tuple[str, ...] = (
    "np_agreement",  # wrong gender of the determiner in a noun phrase
    "subj_verb_agreement",  # verb number mismatching the subject
    "subj_adequacy",  # verb number changed with subject "sie" (she <-> they)
    "polarity_particle_nicht_del",  # "nicht" deleted
    "polarity_particle_kein_del",  # "kein" -> "ein"
    "polarity_affix_del",  # prefix "un-" deleted
    "polarity_particle_nicht_ins",  # "nicht" inserted
    "polarity_particle_kein_ins",  # "ein" -> "kein"
    "polarity_affix_ins",  # prefix "un-" inserted
    "auxiliary",  # wrong auxiliary (haben/sein)
    "verb_particle",  # wrong separable verb particle
    "compound",  # first two segments of an unseen compound swapped
    "transliteration",  # two adjacent characters of an unseen name swapped
)

POLARITY_INSERTIONS = ("polarity_particle_nicht_ins", "polarity_particle_kein_ins", "polarity_affix_ins")
POLARITY_DELETIONS = ("polarity_particle_nicht_del", "polarity_particle_kein_del", "polarity_affix_del")

# the columns of the published LaTeX tables: lists of merged categories
LATEX_COLUMNS: tuple[tuple[str, ...], ...] = (
    ("np_agreement",),
    ("subj_verb_agreement",),
    ("verb_particle",),
    POLARITY_INSERTIONS,
    POLARITY_DELETIONS,
    ("transliteration",),
)
LATEX_POLARITY_COLUMNS: tuple[tuple[str, ...], ...] = tuple(
    (category,) for category in POLARITY_INSERTIONS + POLARITY_DELETIONS
)


def py2_str(value: float) -> str:
    """``str(value)`` as Python 2.7 prints a float.

    Python 2 rounds to 12 significant digits like ``%.12g`` but reserves room for the
    ``.0`` it appends to integral values: it switches to exponent notation once the
    decimal point would fall after the 11th digit, not the 12th
    (``str(123456789012.0) == '1.23456789012e+11'``, ``str(1e10) == '10000000000.0'``,
    ``str(1e-05) == '1e-05'``, ``str(0.5) == '0.5'``).
    """
    value = float(value)
    if not math.isfinite(value):
        return f"{value:.12g}"  # inf, -inf, nan
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    if value.is_integer() and 1e12 <= abs(value) < 1e15:
        # Python 2's dtoa takes a shortcut for integers below 1e15 that keeps the
        # trailing zeros of the 12 digits when an exact tie rounds down (half-even):
        # str(3081078114205.0) == '3.08107811420e+12'
        digits = str(abs(int(value)))
        head, rest = digits[:12], digits[12:]
        if rest == "5" + "0" * (len(rest) - 1) and int(head[-1]) % 2 == 0:
            sign = "-" if value < 0 else ""
            return f"{sign}{head[0]}.{head[1:]}e{len(digits) - 1:+03d}"
    mantissa, exponent_text = f"{value:.11e}".split("e")
    exponent = int(exponent_text)
    if exponent < -4 or exponent >= 11:
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}e{exponent:+03d}"
    text = f"{value:.12g}"
    if text.lstrip("-").isdigit():
        text += ".0"
    return text


@dataclass
class Tally:
    """Correct decisions out of all decisions."""

    correct: int = 0
    total: int = 0

    @property
    def accuracy(self) -> float:
        """``correct / total``, 0 when there is nothing (as LingEval97's ``get_scores``)."""
        return self.correct / self.total if self.total else 0


@dataclass(frozen=True)
class WrongPair:
    """A contrastive pair where the model did not strictly prefer the reference."""

    sentence: int  # index of the sentence in the test set
    error: int  # index of the contrastive in the sentence's errors
    category: str
    source: str
    reference: str
    contrastive: str
    reference_score: float
    contrastive_score: float


@dataclass
class LingEval97Result:
    """Counts by category, distance bin, frequency bin and (frequency, distance)."""

    categories: tuple[str, ...]
    maximize: bool = False
    by_category: dict[str, Tally] = field(default_factory=dict)
    by_distance: dict[str, Tally] = field(default_factory=dict)
    by_frequency: dict[str, Tally] = field(default_factory=dict)
    by_frequency_and_distance: dict[tuple[str, str], Tally] = field(default_factory=dict)
    wrong: list[WrongPair] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # contrastives of unselected types

    @property
    def total(self) -> Tally:
        return Tally(
            sum(tally.correct for tally in self.by_category.values()),
            sum(tally.total for tally in self.by_category.values()),
        )

    def category_order(self) -> list[str]:
        """LingEval97's 13 categories, then other selected categories in the order given."""
        extra = [category for category in self.categories if category not in ERROR_CATEGORIES]
        return list(ERROR_CATEGORIES) + extra


def _cached(binner: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
    """``binner`` memoised per (type, value): a test set has few distinct annotations."""
    cache: dict[tuple[type, Any], str | None] = {}

    def lookup(value: Any) -> str | None:
        key = (type(value), value)
        try:
            return cache[key]
        except KeyError:
            result = cache[key] = binner(value)
            return result
        except TypeError:  # unhashable: let the binner raise its error
            return binner(value)

    return lookup


def evaluate(
    sentences: Sequence[Sentence],
    scores: Sequence[float],
    maximize: bool = False,
    categories: Iterable[str] = ERROR_CATEGORIES,
) -> LingEval97Result:
    """Count correct decisions; ``scores`` in ``json_to_plaintext.py`` order
    (:func:`arena.formats.lingeval97.plaintext_pairs`)."""
    expected = score_count(sentences)
    if len(scores) != expected:
        raise DataError(f"{len(scores)} scores for {expected} sentences and contrastives; expected {expected}")
    selected = tuple(dict.fromkeys(categories))
    wanted = set(selected)
    better = operator.gt if maximize else operator.lt
    to_distance, to_frequency = _cached(distance_bin), _cached(frequency_bin)
    result = LingEval97Result(selected, maximize)
    skipped: Counter[str] = Counter()
    counts: Counter[tuple[str, str | None, str | None, bool]] = Counter()
    position = 0
    for index, sentence in enumerate(sentences):
        score = float(scores[position])
        position += 1
        for number, error in enumerate(sentence.errors):
            error_score = float(scores[position])
            position += 1
            category = error.type
            if category not in wanted:
                skipped[category] += 1
                continue
            correct = bool(better(score, error_score))
            counts[category, to_distance(error.distance), to_frequency(error.frequency), correct] += 1
            if not correct:
                result.wrong.append(
                    WrongPair(
                        index,
                        number,
                        category,
                        sentence.source,
                        sentence.reference,
                        error.contrastive,
                        score,
                        error_score,
                    )
                )
    for (category, distance, frequency, correct), count in counts.items():
        _tally(result.by_category, category, count, correct)
        if distance is not None:
            _tally(result.by_distance, distance, count, correct)
        if frequency is not None:
            _tally(result.by_frequency, frequency, count, correct)
        if frequency is not None and distance is not None:
            _tally(result.by_frequency_and_distance, (frequency, distance), count, correct)
    result.skipped = dict(skipped)
    return result


def _tally(table: dict[_Key, Tally], key: _Key, count: int, correct: bool) -> None:
    tally = table.setdefault(key, Tally())
    tally.total += count
    tally.correct += count if correct else 0


def _line(label: str, tally: Tally) -> str:
    return f"{label} : {tally.correct} {tally.total} {py2_str(tally.accuracy)}"


def _latex(result: LingEval97Result, columns: Sequence[Sequence[str]]) -> list[str]:
    correct, total = [], []
    for merged in columns:
        tallies = [result.by_category.get(category, Tally()) for category in merged]
        correct.append(sum(tally.correct for tally in tallies))
        total.append(sum(tally.total for tally in tallies))
    # LingEval97 computes c/t*100 (and divides by zero for an empty column: "--" here)
    accuracies = [f"{c / t * 100:.1f}" if t else "--" for c, t in zip(correct, total)]
    return [" & ".join(str(t) for t in total), " & ".join(accuracies)]


def verbose_lines(result: LingEval97Result, outputs: Mapping[str, Sequence[str | None]] | None = None) -> list[str]:
    """``evaluate.py -v``: one block per misjudged pair; ``outputs`` maps a name to
    1-best translations aligned with the test set's sentences."""
    lines = []
    for pair in result.wrong:
        lines.append(f"error: {pair.category}")
        lines.append(f"source: {pair.source}")
        lines.append(f"correct (score {py2_str(pair.reference_score)}): {pair.reference}")
        lines.append(f"error (score {py2_str(pair.contrastive_score)}): {pair.contrastive}")
        for name, translations in (outputs or {}).items():
            translation = translations[pair.sentence]
            if translation is not None:
                lines.append(f"output ({name}): {translation}")
        lines.append("")
    return lines


def report_lines(
    result: LingEval97Result,
    fd: bool = False,
    latex: bool = False,
    latex_polarity: bool = False,
    verbose: bool = False,
    outputs: Mapping[str, Sequence[str | None]] | None = None,
) -> list[str]:
    """The lines ``evaluate.py`` prints (see the module docstring)."""
    total = result.total
    if not total.total:
        found = ", ".join(f"{category} ({count})" for category, count in sorted(result.skipped.items()))
        raise DataError(
            "no contrastive translation of the selected categories ("
            + ", ".join(result.categories)
            + ") in the test set"
            + (f"; it has {found} — select them with --categories" if found else "")
        )
    lines = verbose_lines(result, outputs) if verbose else []
    lines.append(_line("total", total))
    lines += ["", "statistics by error category"]
    for category in result.category_order():
        tally = result.by_category.get(category)
        if tally is not None and tally.total:
            lines.append(_line(category, tally))
    lines += ["", "statistics by distance"]
    for distance in DISTANCE_BINS:
        tally = result.by_distance.get(distance)
        if tally is not None and tally.total:
            lines.append(f"distance {distance}: {tally.correct} {tally.total} {py2_str(tally.accuracy)}")
    lines += ["", "statistics by frequency in training data"]
    for frequency in FREQUENCY_BINS:
        tally = result.by_frequency.get(frequency)
        if tally is not None and tally.total:
            lines.append(_line(frequency, tally))
    lines.append("")
    if fd:
        lines.append("statistics by frequency and distance")
        for frequency in FREQUENCY_BINS:
            for distance in DISTANCE_BINS:
                tally = result.by_frequency_and_distance.get((frequency, distance))
                if tally is not None and tally.total:
                    lines.append(
                        f"frequency: {frequency} distance: {distance}: "
                        f"{tally.correct} {tally.total} {py2_str(tally.accuracy)}"
                    )
        lines.append("")
    if latex:
        lines.append("LaTeX table")
        lines += _latex(result, LATEX_COLUMNS)
    if latex_polarity:
        lines.append("LaTeX table (polarity)")
        lines += _latex(result, LATEX_POLARITY_COLUMNS)
    return lines


def format_report(result: LingEval97Result, **options) -> str:
    """The report as text, every line newline-terminated (options: :func:`report_lines`)."""
    return "".join(f"{line}\n" for line in report_lines(result, **options))
