"""``clause-omission`` Zellig: delete the first or the last clause (or sentence).

Source: Vamvas & Sennrich (2021), DistilLingEval ``clause_omission`` (a *plausible* hypothesis: MT
systems do drop content).

    Genaue Angaben gibt es nicht; die Rede ist von 50 000 Besuchern.
    → die Rede ist von 50 000 Besuchern.
    Als Interesse an der Sicherheit begründet er das Fehlen von Stewards. Seine Gesellschaft betreibt
    nur wenige Linien.
    → Als Interesse an der Sicherheit begründet er das Fehlen von Stewards.

Clauses, two levels:

1. *units*: the text split at sentence boundaries (SoMaJo's, and after a free-standing ``. ? ! …``
   that a space follows but SoMaJo did not end a sentence with, as before quotes in backticks:
   *... ausgeschlossen. `Den ...*) and after a semicolon or colon.  The first
   unit (with the space after it) or the last unit (from after the preceding delimiter) is deleted,
   exactly as DistilLingEval does: the remainder keeps its delimiter (*... zu kichern:*) and its case
   (*die Rede ist ...*).
2. *clauses* inside the first and the last unit: split further at commas and free-standing dashes,
   but only where both the deleted part and the rest of its sentence contain a finite verb (so an
   apposition, an enumeration or a date such as *Der Mittwoch, der 1. Oktober, ...* is never cut).
   What is left must be able to stand alone: a first clause is only deleted when the rest does not
   start with a subordinating conjunction, relative or interrogative word, finite verb or
   coordinating conjunction, and a last clause only when the sentence does not start with one of the
   former (so *Als er kam, ging sie.* gives neither *Ging sie.* nor *Als er kam.*).  Here the text is
   tidied: the comma or dash goes with the deleted clause, a deleted last clause leaves the
   sentence's final punctuation in place, and a deleted first clause capitalises the next word
   (*Er kam spät, sie ging früh.* → *Sie ging früh.*).

Candidates are deduplicated; at most four.  A text of one clause gives none.

``split_after_periods=true`` reproduces DistilLingEval's sentence splitter, which also split after
ordinals and abbreviations (*am 19. September* → *... am 19.* | *September ...*; *ca.*, *Mrd.*,
*VII.*): units then also end after every word with a final period that a space follows.  The
resulting variants are mostly broken fragments (*Angreifer hatten die Reisegruppe ... am 19.*), so
it is off by default; turn it on to replay DistilLingEval's distribution (see the fidelity report).

``detect(text, source)``: decided only with a source, by length: the source has at least two
clauses (sentences, or parts split at ``; : ,``) and the translation is shorter than
``detect_ratio`` (0.7) times the source in characters (German translations run about 1.1-1.2 times
as long as English sources).  A heuristic; ``False`` without a source.
"""

from __future__ import annotations

import re
from typing import Annotated

from annotated_types import Gt, Le

from arena.sdk import Edit, Instance, Variant, make_variant
from performers.german.analysis import DEFAULT_BACKEND, Analysis, Token, analyze
from performers.zellig.spans import capitalise

PHENOMENON = "clause_omission"
STRONG = frozenset({";", ":"})
SENTENCE_FINAL = frozenset({".", "?", "!", "…"})
DASHES = frozenset({"-", "–", "—"})
FINITE = frozenset({"VVFIN", "VAFIN", "VMFIN"})
SUBORDINATORS = frozenset({"KOUS", "KOUI", "PRELS", "PRELAT", "PWAV", "PWS", "PWAT"})
AMBIGUOUS_SUBORDINATORS = frozenset(
    {"als", "da", "während", "seit", "seitdem", "bis", "wie", "ob", "wenn", "weil", "dass", "obwohl", "nachdem",
     "bevor", "damit", "sobald", "falls", "indem", "sofern", "solange", "soweit"}
)  # fmt: skip
CLAUSE_INITIAL_DEPENDENT = SUBORDINATORS | FINITE | {"KON", "PTKZU"}
ENGLISH_CLAUSE = re.compile(r"[.!?;:,](?=\s)")


def _is_word(token: Token) -> bool:
    return not token.pos.startswith("$")


def units(analysis: Analysis, split_after_periods: bool = False) -> list[tuple[int, int]]:
    """Token index ranges ``[first, last)`` of the units: sentences, split after ``;`` and ``:`` and after
    sentence punctuation followed by a space (and, with ``split_after_periods``, after every word ending in
    a period that a space follows)."""
    result = []
    text = analysis.text
    for sentence in analysis.sentences:
        start = sentence.first
        for token in analysis.tokens[sentence.first : sentence.last - 1]:
            followed_by_space = text[token.end : token.end + 1].isspace()
            if (
                token.text in STRONG
                or (token.text in SENTENCE_FINAL and followed_by_space)
                or (split_after_periods and token.text.endswith(".") and followed_by_space)
            ):
                result.append((start, token.index + 1))
                start = token.index + 1
        result.append((start, sentence.last))
    return [(first, last) for first, last in result if any(_is_word(t) for t in analysis.tokens[first:last])]


def _subordinate(analysis: Analysis, first: int, last: int) -> bool:
    """Whether the tokens ``[first, last)`` form a subordinate clause: introduced by a subordinator, or by a
    conjunction HanTa may mistag (*Als er kam*: ``APPR``) with the clause's last word a finite verb."""
    words = [t for t in analysis.tokens[first:last] if _is_word(t)]
    if not words:
        return False
    if words[0].pos in SUBORDINATORS:
        return True
    return words[0].text.lower() in AMBIGUOUS_SUBORDINATORS and words[-1].pos in FINITE


def _weak_boundaries(analysis: Analysis, first: int, last: int) -> list[int]:
    """Indices of commas and free-standing dashes in ``[first, last)`` that separate two clauses."""
    tokens = analysis.tokens
    found = []
    for token in tokens[first:last]:
        if token.text == "," or token.text in DASHES:
            if token.index in (first, last - 1):
                continue
            left = tokens[first : token.index]
            right = tokens[token.index + 1 : last]
            if any(t.pos in FINITE for t in left) and any(t.pos in FINITE for t in right):
                found.append(token.index)
    return found


class ClauseOmissionZellig:
    """Delete the first or the last unit (sentence, or part split at ``;``/``:``) or clause.

    ``clauses`` (also delete first and last clauses, not only whole units)."""

    version = "1"

    def __init__(
        self,
        clauses: bool = True,
        split_after_periods: bool = False,
        detect_ratio: Annotated[float, Gt(0), Le(2)] = 0.7,
        backend: str = DEFAULT_BACKEND,
    ) -> None:
        self.split_after_periods = split_after_periods
        self.clauses = clauses
        self.detect_ratio = float(detect_ratio)
        self.backend = backend

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        text, tokens = analysis.text, analysis.tokens
        found: dict[str, Variant] = {}

        def add(edit: Edit, which: str, level: str) -> None:
            variant = make_variant(instance, [edit], PHENOMENON, {"omitted": which, "level": level})
            if variant.text.strip() and variant.text != text:
                found.setdefault(variant.text, variant)

        spans = units(analysis, self.split_after_periods)
        if len(spans) >= 2:
            # first unit: up to the start of the second; last unit: from the end of the one before it
            second = tokens[spans[1][0]].start
            add(Edit(0, second, text[:second], ""), "first", "unit")
            cut = tokens[spans[-2][1] - 1].end
            end = tokens[spans[-1][1] - 1].end
            add(Edit(cut, end, text[cut:end], ""), "last", "unit")
        if self.clauses and spans:
            self._clauses(analysis, spans[0], spans[-1], add)
        return list(found.values())

    def _clauses(self, analysis: Analysis, first_unit, last_unit, add) -> None:
        text, tokens = analysis.text, analysis.tokens
        boundaries = _weak_boundaries(analysis, *first_unit)
        if boundaries:
            comma = tokens[boundaries[0]]
            following = tokens[comma.index + 1]
            # the rest must be able to stand alone: not a subordinate clause, not verb-first
            if following.pos not in CLAUSE_INITIAL_DEPENDENT and following.text.lower() not in AMBIGUOUS_SUBORDINATORS:
                start = tokens[first_unit[0]].start
                replacement = capitalise(following.text) if following.text[:1].islower() else following.text
                add(Edit(start, following.end, text[start : following.end], replacement), "first", "clause")
        boundaries = _weak_boundaries(analysis, *last_unit)
        if boundaries and not _subordinate(analysis, last_unit[0], boundaries[-1]):
            comma = tokens[boundaries[-1]]
            final = tokens[last_unit[1] - 1]
            end = final.start if final.pos == "$." else final.end
            begin = tokens[comma.index - 1].end
            add(Edit(begin, end, text[begin:end], ""), "last", "clause")

    def applies(self, source: str | None) -> bool:
        """The source has two or more clauses."""
        return source is not None and len(ENGLISH_CLAUSE.findall(source.strip() + " ")) >= 2

    def detect(self, text: str, source: str | None = None) -> bool:
        """The source has two or more clauses and the translation is much shorter than it."""
        return source is not None and self.applies(source) and len(text.strip()) < self.detect_ratio * len(source.strip())
