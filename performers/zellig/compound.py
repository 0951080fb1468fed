"""``compound`` Zellig: swap the first two segments of a noun compound of three or more segments.

Source: Sennrich (2017), LingEval97 ``compound``.

    Das Bundesverfassungsgericht hat entschieden.  → Das Verfassungsbundesgericht hat entschieden.
    Die Einkommensteuerformulare liegen bereit.    → Die Steuereinkommenformulare liegen bereit.

Segments come from :func:`performers.german.compounds.split_compound` (noun parts from german-nouns
with their linking elements, best split by mean word frequency); a segment keeps its linking element
when it moves (*Bundes* | *verfassungs* | *gericht* → *Verfassungs* | *bundes* | *gericht*), the new
first segment is capitalised and the old one lower-cased.  One candidate per common noun (STTS ``NN``)
that splits into at least ``min_segments`` (3) segments and whose swap gives a different word.
"""

from __future__ import annotations

from typing import Annotated

from annotated_types import Ge

from arena.sdk import ExistingFile, Instance, Variant, make_variant
from performers.german.analysis import DEFAULT_BACKEND, analyze
from performers.german.compounds import split_compound
from performers.german.frequency import frequency_meta, training_counts
from performers.zellig.spans import capitalise, lower_first, replace_token

PHENOMENON = "compound"


def swap_first_segments(word: str, min_segments: int = 3) -> str | None:
    """``word`` with its first two compound segments swapped, or ``None``."""
    segments = split_compound(word)
    if segments is None or len(segments) < min_segments:
        return None
    first, second = segments[0], segments[1]
    new_first = capitalise(second) if word[:1].isupper() else second
    swapped = new_first + lower_first(first) + "".join(segments[2:])
    return swapped if swapped != word else None


class CompoundZellig:
    """Swap the first two segments of one compound (one candidate per compound noun)."""

    version = "1"

    def __init__(self, min_segments: Annotated[int, Ge(2)] = 3, training_corpus: ExistingFile | None = None, backend: str = DEFAULT_BACKEND):
        self.min_segments = min_segments
        self.backend = backend
        self.counts = training_counts(training_corpus)

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants = []
        for token in analysis.tokens:
            if token.pos != "NN":
                continue
            swapped = swap_first_segments(token.text, self.min_segments)
            if swapped is None:
                continue
            meta = {
                "position": token.index,
                "word": token.text,
                "segments": list(split_compound(token.text) or ()),
                **frequency_meta(self.counts, token.text),
            }
            variants.append(make_variant(instance, [replace_token(analysis, token, swapped)], PHENOMENON, meta))
        return variants
