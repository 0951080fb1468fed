"""The edit-aware Claude on synthetic games with known answers: a Zellig with a
planted signature (every corruption writes the same word) that the label-free learner
must find without an answer key; a Zellig without one, where it must not move off the
base decision; a Zellig whose corruptions are found by a local cue that the
supervised model must learn.  The base model is a hash (a coin per pair), so every
gain is learned."""

from __future__ import annotations

import random

import pytest

from arena.record.scoring_rule import judgement_from_scores
from arena.records import Pair, RoundOutcome
from performers.claude import edit_features as ef
from performers.claude.edit_aware import EditAwareClaude
from performers.claude.signature_em import SignatureEM
from tests.arena.engine.helpers import HashScorer
from tests.performers.built import built

BASE = "tests.arena.engine.helpers:HashScorer"
NOUNS = ["Haus", "Auto", "Buch", "Kind", "Boot", "Bild", "Dorf", "Feld", "Glas", "Heft", "Jahr", "Land", "Lied",
         "Meer", "Netz", "Ohr", "Rad", "Schiff", "Tal", "Tier", "Tor", "Volk", "Werk", "Zelt"]


def game(count: int, corrupt, seed: int = 3) -> tuple[list[Pair], list[int]]:
    """``count`` pairs: a reference naming a random noun and ``corrupt(noun, rng)``'s
    corruption of it, on a random side."""
    rng = random.Random(seed)
    items, answers = [], []
    for n in range(count):
        noun = rng.choice(NOUNS)
        reference = f"Wir sahen das {noun} am Morgen {n}."
        corrupted = f"Wir sahen das {corrupt(noun, rng)} am Morgen {n}."
        side = rng.randrange(2)
        items.append(Pair(f"p{n}", f"We saw it {n}.", (reference, corrupted) if side else (corrupted, reference)))
        answers.append(side)
    return items, answers


def outcomes(items, answers, transparent):
    return [RoundOutcome(p.id, 1, 0, transparent, True, source=p.source, candidates=p.candidates,
                         corrupted=a if transparent else None) for p, a in zip(items, answers)]


def accuracy(claude, items, answers) -> float:
    return sum(j.corrupted == a for j, a in zip(claude.judge(items), answers)) / len(items)


def planted(noun, rng):  # the Zellig's signature: always the same word
    return "Ding"


def unsigned(noun, rng):  # another noun of the same pool: no signature to find
    return rng.choice([other for other in NOUNS if other != noun])


@pytest.mark.parametrize(
    ("name", "corrupt", "transparent", "unlabeled", "at_least", "at_most"),
    [
        ("planted signature, no answer key (unsupervised)", planted, False, "em", 0.95, 1.0),
        ("planted signature, answer key (supervised)", planted, True, "em", 0.95, 1.0),
        ("planted signature, learning from unlabelled rounds off", planted, False, "none", 0.0, 0.8),
        ("no signature, no answer key: stays near the base coin", unsigned, False, "em", 0.2, 0.8),
    ],
)
def test_label_free_learner_finds_a_planted_signature(name, corrupt, transparent, unlabeled, at_least, at_most):
    claude = EditAwareClaude(BASE, unlabeled=unlabeled, one_best=False, min_examples=10)
    train, train_answers = game(120, corrupt)
    test, test_answers = game(100, corrupt, seed=9)
    for start in range(0, 120, 30):
        claude.observe(outcomes(train[start : start + 30], train_answers[start : start + 30], transparent))
    assert at_least <= accuracy(claude, test, test_answers) <= at_most, name


def test_without_observation_it_decides_as_the_base_claude():
    claude = EditAwareClaude(BASE, one_best=False)
    items, _ = game(30, planted)
    scorer = HashScorer()
    expected = [judgement_from_scores([scorer._score(p.source, c).mean for c in p.candidates]) for p in items]
    assert [j.corrupted for j in claude.judge(items)] == [j.corrupted for j in expected]


def test_supervised_model_learns_a_local_cue():
    """Corruptions write a longer word in the middle (a surface cue the hash base ignores)."""
    claude = EditAwareClaude(BASE, unlabeled="none", one_best=False, min_examples=10)
    train, train_answers = game(80, lambda noun, rng: noun + "enen" + rng.choice("abcdefgh"))
    claude.observe(outcomes(train, train_answers, transparent=True))
    test, test_answers = game(80, lambda noun, rng: noun + "enen" + rng.choice("abcdefgh"), seed=5)
    assert claude.weights is not None and accuracy(claude, test, test_answers) >= 0.95


@pytest.mark.parametrize(("corrupt", "kept"), [(planted, True), (unsigned, False)])
def test_signature_is_kept_only_where_it_decides_the_labelled_rounds(corrupt, kept):
    """With labels, EM's signature is kept only if, fitted with the answers hidden, it
    decides them at least as well as the prior: a planted signature passes; corruptions
    that are just other pool nouns have none, and EM's spurious split is dropped."""
    claude = EditAwareClaude(BASE, one_best=False, min_examples=10)
    train, train_answers = game(120, corrupt)
    claude.observe(outcomes(train, train_answers, transparent=True))
    assert claude.signature.fitted is kept


@pytest.mark.parametrize(
    ("first", "second", "start", "end", "middles"),
    [
        ("Wir sahen das Haus.", "Wir sahen das Ding.", 3, 0, (("Haus.",), ("Ding.",))),
        ("Er kam, weil es regnete.", "Er kam.", 1, 0, (("kam,", "weil", "es", "regnete."), ("kam.",))),
        ("a b c", "a b c", 3, 0, ((), ())),
        ("der alte Mann", "der alten Mann", 1, 1, (("alte",), ("alten",))),
    ],
)
def test_word_diff(first, second, start, end, middles):
    diff = ef.word_diff(first, second)
    assert (diff.start, diff.end, diff.middles) == (start, end, middles)
    assert len(ef.prefix_requests(diff)) == 4


def test_features_are_antisymmetric_and_signature_keys():
    diff, swapped = ef.word_diff("der alte Mann", "der alten Mann"), ef.word_diff("der alten Mann", "der alte Mann")
    row = ef.pair_features([(-5.0, 4), (-7.0, 5)], [-2.0, -3.0, -2.5, -3.5], diff, "der alte Mann")
    back = ef.pair_features([(-7.0, 5), (-5.0, 4)], [-2.5, -3.5, -2.0, -3.0], swapped, "der alte Mann")
    assert row == pytest.approx([-v for v in back]) and len(row) == len(ef.FEATURES)
    assert ef.signature_keys(()) == ["∅"]
    assert ef.signature_keys(("Ding.",)) == ["text:ding", "word:ding", "ending:-"]


def test_em_keeps_known_answers_and_ignores_rare_keys():
    em = SignatureEM(min_count=2)
    sides = [(["a"], ["x"]), (["b"], ["x"]), (["c"], ["x"]), (["d"], ["once"])]
    posterior = em.fit(sides, [0.0, 0.0, 0.0, 0.0], [1, None, None, None])
    assert posterior[0] == 1.0 and posterior[1] > 0.5
    assert em.evidence(["once"], ["d"]) == 0.0  # both keys seen once: no evidence


def test_params_are_checked():
    for bad in ({"l2": 0}, {"min_examples": 0}, {"unlabeled": "self"}, {"one_best": "yes"}, {"target_lm": 1},
                {"grammar": "yes"}, {"grammar_without": ["np"]}, {"grammar_without": "np-disagree"}):
        with pytest.raises(ValueError, match=f"parameter '{next(iter(bad))}' must be"):
            built(EditAwareClaude, claude=BASE, **bad)


@pytest.mark.parametrize(("without", "zeroed"), [
    ([], ()),
    (["np-disagree"], (0,)),
    (["np-disagree", "verb-subject-soft"], (0, 3)),
])
def test_grammar_without_ablates_only_the_named_checks(without, zeroed, monkeypatch):
    from performers.claude import edit_grammar as eg

    monkeypatch.setattr(eg, "grammar_features", lambda first, second: [1.0, 2.0, 3.0, 4.0])
    claude = EditAwareClaude(BASE, one_best=False, grammar=True, grammar_without=without)
    grammar = claude._extra("a b", "a c")[len(eg.LM):]
    assert grammar == [0.0 if i in zeroed else float(i + 1) for i in range(len(eg.GRAMMAR))]


@pytest.mark.parametrize(
    ("first", "second", "kind"),
    [
        ("Wir kamen gestern sehr spät an.", "Wir kamen gestern an.", "deletion"),
        ("der alte Mann", "der alten Mann", "inflection"),
        ("Sie hat recht.", "Sie haben recht.", "inflection"),
        ("Wir sahen das Haus.", "Wir sahen das Ding.", "substitution"),  # must not count as inflection
        ("Das ist gut.", "Das sind gut.", "substitution"),
    ],
)
def test_edit_kind(first, second, kind):
    assert ef.edit_kind(ef.word_diff(first, second)) == kind


def test_grammar_check_names_match_the_analysis():
    """The declared names a run may leave out are exactly the analysis' checks."""
    from typing import get_args

    from performers.claude.edit_aware import GrammarCheck
    from performers.claude.edit_grammar import GRAMMAR

    assert get_args(GrammarCheck) == GRAMMAR
