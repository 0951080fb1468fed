"""Finite-tagged verbs that are likely infinitives or participles (no parser; STTS heuristics).

    from performers.german.non_finite import looks_non_finite

    looks_non_finite(analysis, finite_verbs(analysis), index, lemma)   # skip this verb?

HanTa tags some infinitives and participles as finite verbs (*soll … getötet haben*, *wurde ich regelrecht
bestürmt*).  :func:`looks_non_finite` says a "finite" verb is likely none, so that the agreement detector
(:mod:`performers.german.verb_agreement`) leaves it alone, when

- it has the infinitive's form and another finite verb of its clause may govern it
  (:func:`infinitive_beside_finite`: a modal, *werden*, *lassen*; *haben* or *sein* in the same conjunct) —
  unless *ich*, *du*, *er* or *wir* stands beside it (*zum Glück haben ich*);
- it has the infinitive's form right before a modal or auxiliary (*verzichten müssen*, *bekommen haben*);
- it has the past participle's form and an auxiliary (*haben*, *sein*, *werden*) is another finite verb of
  the same conjunct of its clause (:func:`participle_beside_auxiliary`: *Sind wir dafür vorbereitet*; not *…
  festgestellt und er unterzogen sich*);
- it is a separable verb written fused with its particle in a main clause, where a finite separable verb is
  split (*Das gelbe Käppchen aufsetzen.*);
- the tagger did not take it for finite, it has the form of the infinitive or participle and its sentence has
  no final punctuation: a headline (*Fußgängerin vom Balkon mit Luftgewehr beschossen*).
"""

from __future__ import annotations

from performers.german import verb_inflection as verb_inf
from performers.german.analysis import Analysis
from performers.german.syntax import VERB_FINAL_OPENERS, clause_bounds, is_quote

INFINITIVE_GOVERNORS = frozenset({"werden", "lassen"})
CERTAIN_SUBJECTS = frozenset({"ich", "du", "er", "wir"})


def _pronoun_subject_beside(analysis: Analysis, index: int) -> bool:
    """Whether *ich*, *du*, *er* or *wir* follows the verb or opens its main clause right before it (*zum
    Glück haben ich*, *Ich haben …*, *und ich tragen*): a subject beside it makes the verb finite."""
    tokens = analysis.tokens
    after = tokens[index + 1] if index + 1 < len(tokens) else None
    if after is not None and after.pos == "PPER" and after.text.lower() in CERTAIN_SUBJECTS:
        return True
    before = tokens[index - 1] if index > 0 else None
    if before is None or before.pos != "PPER" or before.text.lower() not in CERTAIN_SUBJECTS:
        return False
    opener = tokens[index - 2] if index > 1 else None
    if opener is not None and opener.pos == "KON":  # und ich tragen; not Sie und ich denken (verb-final)
        return index < 3 or tokens[index - 3].pos not in ("PPER", "NN", "NE", "PIS")
    return opener is None or opener.pos == "$." or is_quote(opener)


def _governs_infinitive(analysis: Analysis, other: int, index: int) -> bool:
    """Whether the finite verb ``other`` may govern ``index`` as an infinitive: a modal, *werden* or *lassen*
    (not across a conjunction when it follows: *haben … angehoben und will*), a form of *haben* or *sein* in
    the same conjunct, or any verb before it with no conjunction between (*soll … getötet haben*)."""
    tokens = analysis.tokens
    low, high = sorted((other, index))
    coordinated = any(t.pos == "KON" for t in tokens[low + 1 : high])
    if tokens[other].pos == "VMFIN" or tokens[other].lemma in INFINITIVE_GOVERNORS:
        return not coordinated or other < index or tokens[index + 1].pos == "KON"
    return not coordinated and (tokens[other].pos == "VAFIN" or other < index)


def infinitive_beside_finite(analysis: Analysis, verbs: dict[int, str], index: int, lemma: str) -> bool:
    """A form identical to the infinitive in a clause with another finite verb that may govern it
    (:func:`_governs_infinitive`: *soll … getötet haben*, *muss … abgeworfen werden*): the tagger's finite
    verb is likely the infinitive (not in *schmelzen … und nimmt*, *ist ungewiss und werden*, nor with a
    subject pronoun beside it: *… finden und zum Glück haben ich*)."""
    tokens = analysis.tokens
    if tokens[index].text.lower() != lemma.lower() or _pronoun_subject_beside(analysis, index):
        return False
    first, last = clause_bounds(analysis, index)
    return any(other != index and first <= other < last and _governs_infinitive(analysis, other, index)
               for other in verbs)


AUXILIARIES = frozenset({"haben", "sein", "werden"})
CLUSTER_VERBS = frozenset({"VMFIN", "VAFIN", "VMINF", "VAINF"})


def participle_beside_auxiliary(analysis: Analysis, verbs: dict[int, str], index: int, lemma: str) -> bool:
    """A form identical to the past participle in a clause whose other finite verb is *haben*, *sein* or
    *werden* (*Die Verhandlungen hatten sich … beschleunigt*)."""
    tokens = analysis.tokens
    participle = verb_inf.past_participle(lemma)
    if participle is None or tokens[index].text.lower() != participle.lower():
        return False
    if _pronoun_subject_beside(analysis, index):
        return False  # er unterzogen sich
    first, last = clause_bounds(analysis, index)
    return any(other != index and first <= other < last and tokens[other].lemma in AUXILIARIES
               and not any(t.pos == "KON" for t in tokens[min(other, index) + 1 : max(other, index)])
               for other in verbs)


def _verb_final_clause(analysis: Analysis, index: int) -> bool:
    tokens = analysis.tokens
    first, _ = clause_bounds(analysis, index)
    return tokens[first].pos in VERB_FINAL_OPENERS or (first > 0 and tokens[first - 1].pos in VERB_FINAL_OPENERS)


def _headline_verb(analysis: Analysis, index: int, lemma: str) -> bool:
    """A verb the tagger did not take for finite, with the form of the infinitive or participle, in a
    sentence without final punctuation: a headline (*Fußgängerin vom Balkon beschossen*, *Berufung neu
    definieren*)."""
    tokens = analysis.tokens
    if tokens[index].pos in ("VVFIN", "VAFIN", "VMFIN"):
        return False
    sentence = analysis.sentences[tokens[index].sentence]
    if tokens[sentence.last - 1].pos == "$." or (sentence.last >= 2 and tokens[sentence.last - 2].pos == "$."):
        return False
    participle = verb_inf.past_participle(lemma)
    text = tokens[index].text.lower()
    return text == lemma.lower() or (participle is not None and text == participle.lower())


def looks_non_finite(analysis: Analysis, verbs: dict[int, str], index: int, lemma: str) -> bool:
    """Whether the finite verb at ``index`` is likely an infinitive or participle (see the module docstring)."""
    tokens = analysis.tokens
    if infinitive_beside_finite(analysis, verbs, index, lemma):
        return True
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    infinitive = tokens[index].text.lower() == lemma.lower()
    if infinitive and following is not None and following.pos in CLUSTER_VERBS:
        return True  # auf … verzichten müssen, Angst bekommen haben
    if participle_beside_auxiliary(analysis, verbs, index, lemma) or _headline_verb(analysis, index, lemma):
        return True
    readings = verb_inf.verb_readings(tokens[index].text, lemma)
    return bool(readings) and all(r.particle for r in readings) and not _verb_final_clause(analysis, index)
