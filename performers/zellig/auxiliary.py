"""``auxiliary`` Zellig: swap the perfect auxiliary *haben* ↔ *sein*.

Source: Sennrich (2017), LingEval97 ``auxiliary`` ("some German verbs are accompanied by the auxiliary
*haben*, others by *sein*; we introduce errors by swapping the auxiliary").

    Er ist nach Hause gegangen.      →  Er hat nach Hause gegangen.
    Wir haben das Problem gelöst.    →  Wir sind das Problem gelöst.
    …, weil sie gekommen sein soll.  →  …, weil sie gekommen haben soll.

Where it applies: a form of *haben* or *sein* (finite ``VAFIN`` or infinitive ``VAINF``) with a past
participle (``VVPP``, ``VAPP``, ``VMPP``) in its clause (:func:`performers.german.syntax.clause_bounds`;
the nearest one), provided the participle's verb takes that auxiliary per ablaut
(:func:`performers.german.verb_inflection.auxiliary`).  That condition keeps copulas and stative passives out
(*die Tür ist geschlossen*: *schließen* takes *haben*, so *ist* is not a perfect auxiliary there).

What it changes: the auxiliary to the other one in the same tense, mood, person and number (*hat* →
*ist*, *waren* → *hatten*, *sei* → *habe*; infinitives *sein* ↔ *haben*); the person of ambiguous forms
(*habe*) comes from the subject as in ``subj-verb-agreement``.  One candidate per new form.

Metadata: ``distance`` between auxiliary and participle (LingEval97 positions), ``zipf_frequency`` (and
``frequency`` with a ``training_corpus``) of the participle.
"""

from __future__ import annotations

from arena.sdk import Edit, Instance, Variant, make_variant
from performers.german import inflection as inf
from performers.german import verb_inflection as verb_inf
from performers.german.analysis import Analysis, Token, analyze
from performers.german.frequency import frequency_meta
from performers.german.syntax import clause_bounds, distance, subject_of
from performers.zellig.german_base import GermanZellig

PHENOMENON = "auxiliary"
OTHER = {"haben": "sein", "sein": "haben"}
PARTICIPLES = frozenset({"VVPP", "VAPP", "VMPP"})


def participle_of(analysis: Analysis, auxiliary: Token) -> Token | None:
    """The nearest past participle in the auxiliary's clause, or ``None``."""
    first, last = clause_bounds(analysis, auxiliary.index)
    candidates = [t for t in analysis.tokens[first:last] if t.pos in PARTICIPLES]
    if not candidates:
        return None
    return min(candidates, key=lambda t: (abs(t.index - auxiliary.index), t.index))


def swapped_forms(analysis: Analysis, auxiliary: Token, lemma: str) -> list[str]:
    """The forms of the other auxiliary matching ``auxiliary``'s reading(s)."""
    other = OTHER[lemma]
    if auxiliary.pos == "VAINF":
        return [inf.match_case(auxiliary.text, other)] if auxiliary.text.lower() == lemma else []
    readings = verb_inf.verb_readings(auxiliary.text, lemma)
    subject = subject_of(analysis, auxiliary.index)
    if subject is not None and (subject.person != 3 or subject.number is not None):
        chosen = [r for r in readings if r.person == subject.person] or list(readings)
    else:
        chosen = [r for r in readings if r.person == 3] or list(readings)
    chosen = [r for r in chosen if r.mood == "IND"] or chosen  # habe: indicative unless only subjunctive fits
    out: list[str] = []
    for reading in chosen:
        new = verb_inf.conjugate(other, reading.tense, reading.mood, reading.person, reading.number)
        if new is not None:
            new = inf.match_case(auxiliary.text, new)
            if new not in out:
                out.append(new)
    return out


class AuxiliaryZellig(GermanZellig):
    """Swap *haben* ↔ *sein* as perfect auxiliary (one candidate per new form)."""

    version = "1"

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants: list[Variant] = []
        for token in analysis.tokens:
            if token.pos not in ("VAFIN", "VAINF") or token.lemma not in OTHER:
                continue
            participle = participle_of(analysis, token)
            if participle is None or verb_inf.auxiliary(participle.lemma) != token.lemma:
                continue
            for new in swapped_forms(analysis, token, token.lemma):
                meta = {
                    "position": token.index,
                    "auxiliary": token.text,
                    "participle": participle.text,
                    "distance": distance(analysis, token.index, participle.index),
                    **frequency_meta(self.counts, participle.text),
                }
                edit = Edit(token.start, token.end, token.text, new)
                variants.append(make_variant(instance, [edit], PHENOMENON, meta))
        return variants
