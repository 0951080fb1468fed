"""``subj-verb-agreement`` Zellig: swap the grammatical number of a finite verb so it no longer agrees
with its subject.

Source: Sennrich (2017), LingEval97 ``subj_verb_agreement`` ("we swap the grammatical number of a verb
to introduce an agreement error with the subject"); DistilLingEval ``subj_verb_agreement``.

    Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.
    → Die Prager Börse stürzen gegen Geschäftsschluss ins Minus.

Where it applies: every finite verb (STTS ``VVFIN``, ``VAFIN``, ``VMFIN``) whose form ablaut can place in
the paradigm of its HanTa lemma.  Person, tense and mood are kept and only the number changes
(:func:`performers.german.verb_inflection.swap_number`): *hat* → *haben*, *verzeichneten* → *verzeichnete*,
*wird* → *werden*, fused separable verbs in verb-final clauses too (*hinwegsetzten* → *hinwegsetzte*).
The person comes from the subject (:func:`performers.german.syntax.subject_of`): *wir stehen* →
*stehe*, *sie stehen* → *steht*; without a pronoun subject the third person is used when the form has one.

Subjects *sie*: changing the number of a verb whose subject is the ambiguous *sie* (she/they) keeps the
sentence grammatical and changes its meaning (LingEval97 files those under ``subj_adequacy``).
DistilLingEval's ``subj_verb_agreement`` sets include them, so by default they are included and marked
``meta["ambiguous_subject"] = True``; ``include_sie=False`` leaves them to ``subj-adequacy`` as LingEval97
did.  Forms that do not change are dropped.

``detect(text, source=None)``: whether a finite verb of ``text`` has no reading in the person and number of
any of its possible subjects (:func:`performers.german.verb_agreement.disagreeing_verbs`, whose docstring
lists the clause types and subjects it checks); the English ``source``, where given, settles the number
of *sie* (*she* or *they*, where no German noun phrase before it could be its antecedent in the other
number: :func:`performers.german.source_number.settled_sie`) and of a bare noun of either
number opening the sentence (*Vertreter des Gesetzgebers traf sich* for *Representatives … met*,
:func:`performers.german.source_number.opening_disagreements`).

``detector`` (``rules+model``, the default, or ``rules``: the hand-written rules alone): ``rules+model`` also
fires where the learned verb-number model (:mod:`performers.german.verb_number_model`, a BiLSTM that predicts
the number a hidden finite verb's context demands, trained on the 124,880 sentences of
``../shared/data/parallel-toy/train.de`` and shipped in ``performers/german/data/verb_number/``) gives the
number of a verb's form a probability of at most ``1 - model_threshold`` (``model_threshold`` (how sure the
model must be that the verb's number is wrong: at least 0.5, below 1): default
:data:`DEFAULT_MODEL_THRESHOLD`, chosen on lines 0–3599 of DistilLingEval's set;
``experiments/bench/verb_number_thresholds.py`` prints the model's recall and false alarms for a range of
thresholds).  On those lines, at 0.995, the model alone fires on 38.1% of the incorrect variants, 0.4% of the
correct sides and 0.60% of the 22,191 newstest 2009–2016 references; OR-ed with the rules (58.8%, 1.0%,
1.20%) it reaches 67.8%, 1.4% and 1.71% (64.0%, 1.0% and 1.71% on the untouched lines 3600 and after,
docs/detectors.md).  The model is loaded on the first detection.

Metadata: ``distance`` between subject and verb when a subject was found (LingEval97 positions: adjacent
words = 1), ``zipf_frequency`` (and ``frequency`` with a ``training_corpus``) of the rarer of subject and
verb, and the reading used (``tense``, ``mood``, ``person``, ``number`` before the change).
"""

from __future__ import annotations

from typing import Annotated, Literal

from annotated_types import Ge, Lt

from arena.sdk import Edit, ExistingFile, Instance, Variant, make_variant
from performers.german import inflection as inf
from performers.german import verb_inflection as verb_inf
from performers.german.analysis import DEFAULT_BACKEND, Analysis, Token, analyze
from performers.german.frequency import frequency_meta, training_counts
from performers.german.source_number import opening_disagreements, settled_sie
from performers.german.subject_number import noun_number
from performers.german.syntax import Subject, distance, finite_verbs, subject_of
from performers.german.verb_agreement import disagreeing_verbs

# disagreeing_verbs and noun_number live in performers.german now; re-exported for existing callers
__all__ = ["PHENOMENON", "SubjVerbAgreementZellig", "disagreeing_verbs", "noun_number", "number_swaps"]

PHENOMENON = "subj_verb_agreement"
DEFAULT_MODEL_THRESHOLD = 0.995  # chosen on lines 0-3599, see the docstring
DetectorKind = Literal["rules", "rules+model"]
ModelThreshold = Annotated[float, Ge(0.5), Lt(1)]  # the verb-number model's probability that decides


def number_swaps(
    analysis: Analysis, verb: Token, subject: Subject | None, lemma: str | None = None
) -> list[tuple[str, verb_inf.VerbReading]]:
    """(new form, reading it came from) for the finite ``verb``, the person decided by ``subject``."""
    readings = verb_inf.verb_readings(verb.text, lemma or verb.lemma)
    if not readings:
        return []
    if subject is not None and (subject.person != 3 or subject.number is not None):
        chosen = [r for r in readings if r.person == subject.person]
        if subject.number is not None:
            chosen = [r for r in chosen if r.number == subject.number] or chosen
    else:
        chosen = [r for r in readings if r.person == 3] or list(readings)
    chosen = [r for r in chosen if r.mood == "IND"] or chosen  # haben: indicative unless only subjunctive fits
    out: list[tuple[str, verb_inf.VerbReading]] = []
    for reading in chosen:
        other = "PL" if reading.number == "SG" else "SG"
        new = verb_inf.conjugate(reading.lemma, reading.tense, reading.mood, reading.person, other, bool(reading.particle))
        if new is None:
            continue
        new = inf.match_case(verb.text, new)
        if new.lower() != verb.text.lower() and all(new != form for form, _ in out):
            out.append((new, reading))
    return out


class SubjVerbAgreementZellig:
    """Swap the number of each finite verb, keeping person, tense and mood (one candidate per new form)."""

    version = "3"  # 2: the detector checks far more clauses and subjects (issue 25); 3: more again, and the
    # verb-number model by default; corrupt() unchanged
    phenomenon = PHENOMENON

    def __init__(
        self, training_corpus: ExistingFile | None = None, include_sie: bool = True, backend: str = DEFAULT_BACKEND,
        detector: DetectorKind = "rules+model", model_threshold: ModelThreshold = DEFAULT_MODEL_THRESHOLD,
    ) -> None:
        self.backend = backend
        self.include_sie = include_sie
        self.counts = training_counts(training_corpus)
        self.model_threshold = float(model_threshold)
        self.detector = detector

    def _keep(self, analysis: Analysis, subject: Subject | None) -> bool:
        """With ``include_sie=False``, skip verbs whose subject is the ambiguous *sie* (subj_adequacy)."""
        if self.include_sie or subject is None or subject.formal:
            return True
        return analysis.tokens[subject.index].text.lower() != "sie"

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        variants: list[Variant] = []
        for index, lemma in finite_verbs(analysis).items():
            token = analysis.tokens[index]
            subject = subject_of(analysis, token.index)
            if not self._keep(analysis, subject):
                continue
            for new, reading in number_swaps(analysis, token, subject, lemma):
                meta: dict = {
                    "position": token.index,
                    "verb": token.text,
                    "lemma": reading.lemma,
                    "tense": reading.tense,
                    "mood": reading.mood,
                    "person": reading.person,
                    "number": reading.number,
                }
                if subject is not None:
                    subject_word = analysis.tokens[subject.index].text
                    if subject_word.lower() == "sie" and not subject.formal:
                        meta["ambiguous_subject"] = True
                    meta["subject"] = subject_word
                    meta["distance"] = distance(analysis, subject.index, token.index)
                    meta.update(frequency_meta(self.counts, subject_word, token.text))
                else:
                    meta.update(frequency_meta(self.counts, token.text))
                edit = Edit(token.start, token.end, token.text, new)
                variants.append(make_variant(instance, [edit], self.phenomenon, meta))
        return variants

    def detect(self, text: str, source: str | None = None) -> bool:
        """Whether a finite verb of ``text`` disagrees in number with a subject whose number is certain, or
        (``detector: rules+model``) has a number the verb-number model rejects."""
        analysis = analyze(text, self.backend)
        if disagreeing_verbs(analysis, sie=settled_sie(analysis, source)) or opening_disagreements(analysis, source):
            return True
        if self.detector == "rules":
            return False
        from performers.german.verb_number_model import load_model, rejected_verbs

        return bool(rejected_verbs(analysis, load_model(), self.model_threshold))
