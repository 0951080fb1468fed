"""The validation step for machine references (Vamvas & Sennrich 2021, §3.3), generic
over Zelligs through their variants' edits.

A minimal pair built on a machine reference tests the same thing as one built on the
human reference only where the machine reference has the same phenomenon-bearing
word(s).  The Zellig is run on both references of an instance (the machine one, and
the human one kept in ``meta["human_reference"]``); for each phenomenon, each human
variant names its *phenomenon-bearing text* ``P`` — the span of the human reference
its edits change (``unerwartet`` for polarity_affix_del, ``dem Tag`` for
hypercorrect_genitive, the noun for placeholder_ding) — and its *contrastive form*
``C``, the same span after the edits (``erwartet``, ``des Tages``, ``Ding``).  Both
are compared without surrounding whitespace and punctuation; a phrase matches at word
boundaries, whitespace-insensitively, and its first letter case-insensitively (so a
sentence-initial *Unklar* matches *unklar*).

For each phenomenon the machine reference is

- **kept** when it contains some ``P`` *and* the Zellig made a variant of the machine
  reference at that very text (an *aligned* variant: the same ``P`` changed); only the
  aligned variants go into the test set, so both sets corrupt the same word.  Spans
  longer than ``max_phrase_words`` words (a clause for clause_omission) are never
  reproduced verbatim by another translation; there an MT variant is aligned when the
  words of its span and of the human span overlap with a Dice coefficient of at least
  ``min_overlap`` (the same clause, translated differently);
- **flagged** when it does not contain any ``P`` but contains a contrastive form ``C``
  (the machine translation itself has the error the Zellig inserts, e.g. *erwartet*
  where the human wrote *unerwartet*): the reference is wrong there, it is left out
  and counted.  Variants that only delete whole words (a clause) have no contrastive
  form to look for (:func:`deletes_words`);
- **dropped** otherwise, with the reason: ``no_human_variant`` (the Zellig finds the
  phenomenon only in the machine reference: nothing to check it against),
  ``not_checkable`` (the human variants insert text, so there is no ``P`` to look
  for), ``words_missing`` (the machine reference lacks ``P``), ``no_aligned_variant``
  (it has ``P``, but the Zellig made no variant there).

:func:`validate` decides one instance; :class:`ValidationCounts` tallies kept /
flagged / dropped (with reasons) per phenomenon for the selection report.
"""

from __future__ import annotations

import re
import string
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.sdk import Edit, Variant, apply_edits, diff_edits

KEPT = "kept"
FLAGGED = "flagged"
DROPPED = "dropped"
STATUSES = (KEPT, FLAGGED, DROPPED)

# reasons
SAME_WORDS = "same_words"
OVERLAP = "overlap"
CONTRASTIVE_FORM = "contrastive_form"
NO_HUMAN_VARIANT = "no_human_variant"
NOT_CHECKABLE = "not_checkable"
WORDS_MISSING = "words_missing"
NO_ALIGNED_VARIANT = "no_aligned_variant"

_STRIP = string.whitespace + string.punctuation + "„“”‚‘’«»‹›–—…"
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Marker:
    """The phenomenon-bearing text of one variant (``before``) and its contrastive form
    (``after``), both stripped of surrounding whitespace and punctuation."""

    phenomenon: str
    before: str
    after: str

    @property
    def words(self) -> int:
        return len(self.before.split())


def core(text: str) -> str:
    """``text`` without surrounding whitespace and punctuation."""
    return text.strip(_STRIP)


def marker(reference: str, variant: Variant) -> Marker:
    """The span of ``reference`` that ``variant``'s edits change, before and after."""
    edits = variant.edits or diff_edits(reference, variant.text)
    if not edits:
        return Marker(variant.phenomenon, "", "")
    start = min(edit.start for edit in edits)
    end = max(edit.end for edit in edits)
    before = reference[start:end]
    shifted = [Edit(edit.start - start, edit.end - start, edit.before, edit.after) for edit in edits]
    return Marker(variant.phenomenon, core(before), core(apply_edits(before, shifted)))


def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    words = phrase.split()
    first = words[0]
    head = first[0]
    head_pattern = f"[{re.escape(head.upper())}{re.escape(head.lower())}]" if head.upper() != head.lower() else re.escape(head)
    parts = [head_pattern + re.escape(first[1:])] + [re.escape(word) for word in words[1:]]
    return re.compile(r"(?<!\w)" + r"\s+".join(parts) + r"(?!\w)")


def contains(text: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` at word boundaries (whitespace-insensitive,
    first letter case-insensitive).  An empty phrase is never contained."""
    if not phrase.strip():
        return False
    return _phrase_pattern(phrase).search(text) is not None


def same_phrase(left: str, right: str) -> bool:
    """Equal up to whitespace and the case of the first letter."""
    a, b = " ".join(left.split()), " ".join(right.split())
    if not a or not b:
        return False
    return a[0].lower() == b[0].lower() and a[1:] == b[1:]


def deletes_words(mark: Marker) -> bool:
    """Whether a variant only deletes whole words (its contrastive form is a sub-list of
    its phenomenon-bearing words, up to case: a dropped clause, *Als er kam, ging* →
    *Ging*).  The contrastive form of such a deletion is an absence, which no other
    translation shows verbatim, so it is never looked for; a deletion *inside* a word
    (*unerwartet* → *erwartet*) is."""
    after = Counter(_WORD.findall(mark.after.lower()))
    before = Counter(_WORD.findall(mark.before.lower()))
    return not after or (after <= before and sum(after.values()) < sum(before.values()))


def dice(left: str, right: str) -> float:
    """Dice coefficient of the lower-cased word sets of two texts."""
    a = set(_WORD.findall(left.lower()))
    b = set(_WORD.findall(right.lower()))
    if not a or not b:
        return 0.0
    return 2 * len(a & b) / (len(a) + len(b))


@dataclass(frozen=True)
class Check:
    """The verdict on one phenomenon of one machine reference."""

    phenomenon: str
    status: str
    reason: str
    aligned: tuple[Variant, ...] = ()
    evidence: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "reason": self.reason}
        if self.evidence:
            data["evidence"] = self.evidence
        return data


def _by_phenomenon(variants: Iterable[Variant]) -> dict[str, list[Variant]]:
    groups: dict[str, list[Variant]] = defaultdict(list)
    for variant in variants:
        groups[variant.phenomenon].append(variant)
    return groups


def validate(
    human_reference: str,
    human_variants: Sequence[Variant],
    machine_reference: str,
    machine_variants: Sequence[Variant],
    max_phrase_words: int = 5,
    min_overlap: float = 0.5,
) -> dict[str, Check]:
    """Decide, per phenomenon found in either reference, whether the machine reference
    is kept, flagged or dropped (see the module docstring)."""
    human = _by_phenomenon(human_variants)
    machine = _by_phenomenon(machine_variants)
    checks: dict[str, Check] = {}
    for phenomenon in sorted(set(human) | set(machine)):
        checks[phenomenon] = _check(
            phenomenon,
            [marker(human_reference, v) for v in human.get(phenomenon, [])],
            machine_reference,
            [(v, marker(machine_reference, v)) for v in machine.get(phenomenon, [])],
            max_phrase_words,
            min_overlap,
        )
    return checks


def _check(
    phenomenon: str,
    human: Sequence[Marker],
    machine_reference: str,
    machine: Sequence[tuple[Variant, Marker]],
    max_phrase_words: int,
    min_overlap: float,
) -> Check:
    if not human:
        return Check(phenomenon, DROPPED, NO_HUMAN_VARIANT)
    checkable = [m for m in human if m.before]
    if not checkable:
        return Check(phenomenon, DROPPED, NOT_CHECKABLE)
    short = [m for m in checkable if m.words <= max_phrase_words]
    long = [m for m in checkable if m.words > max_phrase_words]
    present = [m for m in short if contains(machine_reference, m.before)]
    aligned: list[Variant] = []
    evidence: list[str] = []
    for variant, mine in machine:
        hit = next((m for m in present if same_phrase(m.before, mine.before)), None)
        if hit is not None:
            aligned.append(variant)
            evidence.append(hit.before)
            continue
        overlapping = next((m for m in long if dice(m.before, mine.before) >= min_overlap), None)
        if overlapping is not None:
            aligned.append(variant)
            evidence.append(f"{dice(overlapping.before, mine.before):.2f} overlap")
    if aligned:
        reason = SAME_WORDS if any(not e.endswith("overlap") for e in evidence) else OVERLAP
        return Check(phenomenon, KEPT, reason, tuple(aligned), "; ".join(dict.fromkeys(evidence)))
    if present:
        return Check(phenomenon, DROPPED, NO_ALIGNED_VARIANT, evidence=present[0].before)
    contrastive = next(
        (m for m in short if not deletes_words(m) and contains(machine_reference, m.after)), None
    )
    if contrastive is not None:
        return Check(phenomenon, FLAGGED, CONTRASTIVE_FORM, evidence=f"{contrastive.before} → {contrastive.after}")
    return Check(phenomenon, DROPPED, WORDS_MISSING)


@dataclass
class ValidationCounts:
    """Kept / flagged / dropped per phenomenon, with reasons and a few example ids."""

    counts: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    reasons: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    examples: dict[str, dict[str, list[str]]] = field(default_factory=lambda: defaultdict(dict))

    def add(self, instance_id: str, checks: Mapping[str, Check], keep_examples: int = 3) -> None:
        for phenomenon, check in checks.items():
            self.counts[phenomenon][check.status] += 1
            self.reasons[phenomenon][f"{check.status}:{check.reason}"] += 1
            if check.status != KEPT:
                ids = self.examples[phenomenon].setdefault(f"{check.status}:{check.reason}", [])
                if len(ids) < keep_examples:
                    ids.append(instance_id)

    def to_json(self) -> dict[str, Any]:
        return {
            phenomenon: {
                **{status: int(self.counts[phenomenon][status]) for status in STATUSES},
                "reasons": dict(sorted(self.reasons[phenomenon].items())),
                "examples": dict(sorted(self.examples[phenomenon].items())),
            }
            for phenomenon in sorted(self.counts)
        }
