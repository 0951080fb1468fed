"""``subj-adequacy`` Zellig: with the subject *sie* (she/they), swap the grammatical number of the finite
verb — the sentence stays grammatical but its meaning changes.

Source: Sennrich (2017), LingEval97 ``subj_adequacy`` ("if the German subject is *sie*, changing the
grammatical number of the verb does not make the translation ungrammatical, but changes the meaning").

    Sie hat die Wahl gewonnen.       →  Sie haben die Wahl gewonnen.
    Gestern kamen sie zu spät.       →  Gestern kam sie zu spät.

Where it applies: every finite verb (:func:`performers.german.syntax.finite_verbs`) whose subject
(:func:`performers.german.syntax.subject_of`) is the personal pronoun *sie*; a capitalised *Sie* inside a
sentence is the polite form and is skipped.  The third-person reading is changed in number only, keeping
tense and mood (:func:`performers.german.verb_inflection.conjugate`).  One candidate per new form.

Metadata: ``distance`` between *sie* and the verb (LingEval97 positions), ``zipf_frequency`` (and
``frequency`` with a ``training_corpus``) of the verb.
"""

from __future__ import annotations

from arena.sdk import Edit, Instance, Variant, make_variant
from performers.german.analysis import analyze
from performers.german.frequency import frequency_meta
from performers.german.syntax import Subject, distance, finite_verbs, subject_of
from performers.zellig.german_base import GermanZellig
from performers.zellig.subj_verb_agreement import number_swaps

PHENOMENON = "subj_adequacy"


class SubjAdequacyZellig(GermanZellig):
    """Swap the number of verbs whose subject is *sie* (one candidate per new form)."""

    version = "1"

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants: list[Variant] = []
        for index, lemma in finite_verbs(analysis).items():
            subject = subject_of(analysis, index)
            if subject is None or subject.formal or analysis.tokens[subject.index].text.lower() != "sie":
                continue
            token = analysis.tokens[index]
            for new, reading in number_swaps(analysis, token, Subject(subject.index, 3, None), lemma):
                meta = {
                    "position": index,
                    "verb": token.text,
                    "lemma": reading.lemma,
                    "number": reading.number,
                    "distance": distance(analysis, subject.index, index),
                    **frequency_meta(self.counts, token.text),
                }
                edit = Edit(token.start, token.end, token.text, new)
                variants.append(make_variant(instance, [edit], PHENOMENON, meta))
        return variants
