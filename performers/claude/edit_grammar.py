"""Grammar and fluency features of an edit for the ``edit-aware`` Claude
(:mod:`performers.claude.edit_aware`): what a German reader would notice where the
candidates differ, with no translation model.

- **agreement checks** (:func:`grammar_counts`): the number of agreement errors the
  German analysis (SoMaJo + HanTa tags, german-nouns readings) finds in a candidate:
  definite articles that agree with their head noun on no reading
  (:func:`performers.zellig.np_agreement.disagreeing_articles`: *der Börse fehlt das Geld* is
  a fine dative and does not count, *der Marktes* does), finite verbs with no reading
  in their subject's person and number
  (:func:`performers.zellig.subj_verb_agreement.disagreeing_verbs`), and genitive noun
  phrases after a preposition that governs the dative (*seit des Tages*,
  :func:`performers.zellig.hypercorrect_genitive.governed_genitives`); and a soft verb
  check (:func:`soft_verb_disagreements`) without the verb detector's filters.  These are the
  checks the three Zelligs' detectors run; they are precise by design (must-not-fire
  tables) and blind to many errors, so a Claude must still learn how far to trust
  them against its base model's scores.
- **target-side language model** (:func:`lm_window`): the summed log-probability of a
  Kneser–Ney trigram model of German (``target-lm``) over the edited words and the
  two words after them (a trigram's window: outside it both candidates get the same
  word probabilities), and over the edited words alone.

Each is a second-minus-first difference, like every pairwise feature of
:mod:`performers.claude.edit_features`.

    >>> grammar_counts("Der Prager Börse stürzt.")   # doctest: +SKIP
    (0, 0, 0, 0)   # a possible dative/genitive: no certain error
    >>> grammar_counts("Seit des Tages ist nichts mehr wie zuvor.")   # doctest: +SKIP
    (0, 0, 1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from arena.sdk import shared_affixes

GRAMMAR = ("np-disagree", "verb-disagree", "genitive-after-dative", "verb-subject-soft")
LM = ("lm-window", "lm-edit")


def soft_verb_disagreements(analysis: Any) -> int:
    """Finite verbs with no reading in the person and number of the subject
    :func:`~performers.german.syntax.subject_of` picks, where that number is known (a
    personal pronoun, or a noun whose number is certain): the verb check without the
    precision filters of ``disagreeing_verbs`` (ambiguous *sie*, far pronouns, clauses
    with several candidate subjects count too).  More errors found, more false alarms."""
    from performers.german import verb_inflection as verb_inf
    from performers.german.syntax import finite_verbs, subject_of
    from performers.zellig.subj_verb_agreement import noun_number

    count = 0
    for index, lemma in finite_verbs(analysis).items():
        subject = subject_of(analysis, index)
        if subject is None:
            continue
        is_pronoun = analysis.tokens[subject.index].pos == "PPER"
        number = subject.number if is_pronoun else noun_number(analysis, subject.index)
        readings = verb_inf.verb_readings(analysis.tokens[index].text, lemma)
        if number is None or not readings:
            continue
        count += not any(r.person == subject.person and r.number == number for r in readings)
    return count


@lru_cache(maxsize=1 << 14)
def grammar_counts(text: str) -> tuple[int, int, int, int]:
    """Agreement errors in ``text``: (articles, finite verbs, governed genitives, finite
    verbs by the soft check)."""
    from performers.german.analysis import analyze
    from performers.zellig.hypercorrect_genitive import governed_genitives
    from performers.zellig.np_agreement import disagreeing_articles
    from performers.zellig.subj_verb_agreement import disagreeing_verbs

    analysis = analyze(text)
    return (len(disagreeing_articles(analysis)), len(disagreeing_verbs(analysis)), len(governed_genitives(analysis)),
            soft_verb_disagreements(analysis))


def grammar_features(first: str, second: str) -> list[float]:
    """Second-minus-first agreement error counts (:data:`GRAMMAR`)."""
    a, b = grammar_counts(first), grammar_counts(second)
    return [float(y - x) for x, y in zip(a, b)]


def lm_window(model: Any, first: str, second: str) -> list[float]:
    """Second-minus-first log-probability under ``model`` (a
    :class:`~performers.claude.kneser_ney.KneserNeyLM`) of the words that differ and
    the ``order − 1`` words after them (``lm-window``), and of the words that differ
    alone (``lm-edit``; 0 for a side with none).  Words as the model splits them."""
    from arena.sdk import length_cue

    a, b = length_cue.words(first), length_cue.words(second)
    start, end = shared_affixes(a, b)
    logs = model.token_logprobs([first, second])
    after = getattr(model, "order", 3) - 1

    def sums(side: Sequence[str], values: Any) -> tuple[float, float]:
        stop = len(side) - end  # the edited words are side[start:stop]; values has one more (</s>)
        return float(values[start : stop + after].sum()), float(values[start:stop].sum())

    (window_a, edit_a), (window_b, edit_b) = sums(a, logs[0]), sums(b, logs[1])
    return [window_b - window_a, edit_b - edit_a]
