"""Grammar and fluency features of the edit-aware Claude (performers/claude/edit_grammar.py):
the agreement checks on sentences that must and must not fire, the trigram window that
equals the whole-sentence difference, and a synthetic agreement game with a known answer
that only the grammar features can win (the base model is a hash, and the article
written by the Zellig is *den* as often as the reference's, so no surface cue helps)."""

from __future__ import annotations

import random

import pytest

from arena.records import Pair, RoundOutcome
from performers.claude import edit_features as ef
from performers.claude.edit_aware import EditAwareClaude
from performers.claude.edit_grammar import grammar_counts, grammar_features, lm_window
from performers.claude.kneser_ney import KneserNeyLM

BASE = "tests.arena.engine.helpers:HashScorer"


@pytest.mark.parametrize(("text", "counts"), [
    ("Wir sahen den Haus am Morgen.", (1, 0, 0, 0)),            # article: no reading agrees with *Haus*
    ("Wir sahen das Hund am Morgen.", (1, 0, 0, 0)),
    ("Die Kinder spielt im Garten.", (0, 1, 0, 1)),             # verb: plural subject, singular verb
    ("Er wohnt seit des Jahres in Berlin.", (0, 0, 1, 0)),      # genitive after dative *seit*
    # must not fire
    ("Wir sahen das Haus am Morgen.", (0, 0, 0, 0)),
    ("Die Kinder spielen im Garten.", (0, 0, 0, 0)),
    ("Er wohnt seit dem Jahr in Berlin.", (0, 0, 0, 0)),
    ("Wegen des Wetters blieb er zu Hause.", (0, 0, 0, 0)),     # a genitive the preposition governs
    ("Der Prager Börse fehlt das Geld.", (0, 0, 0, 0)),         # *der Börse* is a fine dative
])
def test_grammar_counts(text, counts):
    assert grammar_counts(text) == counts


def test_grammar_features_are_second_minus_first():
    good, bad = "Die Kinder spielen im Garten.", "Die Kinder spielt im Garten."
    assert grammar_features(good, bad) == [0.0, 1.0, 0.0, 1.0]
    assert grammar_features(bad, good) == [0.0, -1.0, 0.0, -1.0]
    assert grammar_features(good, good) == [0.0] * 4


CORPUS = ["wir sahen das Haus am Morgen .", "wir sahen den Hund am Abend .", "das Haus ist alt .",
          "der Hund ist alt .", "wir sahen das Auto ."] * 3


@pytest.mark.parametrize(("first", "second"), [
    ("wir sahen das Haus am Morgen .", "wir sahen den Haus am Morgen ."),   # one word in the middle
    ("wir sahen das Haus am Morgen .", "wir sahen das Haus ."),             # a deletion before the end
    ("das Haus ist alt .", "der Hund ist alt ."),                            # two words at the front
])
def test_lm_window_is_the_whole_difference_of_a_trigram_model(first, second):
    """Outside the edited words and the two after them both candidates get the same
    trigram probabilities: the window's difference is the sentences' difference."""
    model = KneserNeyLM.train(CORPUS, order=3)
    window, _ = lm_window(model, first, second)
    a, b = model.token_logprobs([first, second])
    assert window == pytest.approx(float(b.sum() - a.sum()))
    assert lm_window(model, second, first)[0] == pytest.approx(-window)


NEUTER = ["Haus", "Auto", "Buch", "Kind", "Bild", "Dorf", "Feld", "Glas", "Heft", "Land", "Lied", "Schiff"]
MASCULINE = ["Hund", "Tisch", "Baum", "Stuhl", "Zug", "Berg", "Turm", "Markt", "Brief", "Garten", "Wald", "Ring"]


def agreement_game(count: int, seed: int) -> tuple[list[Pair], list[int]]:
    """Neuter nouns lose *das* for *den*, masculine ones *den* for *das*: both articles
    appear as often on the corrupted side as on the reference side."""
    rng = random.Random(seed)
    items, answers = [], []
    for n in range(count):
        neuter = rng.random() < 0.5
        noun = rng.choice(NEUTER if neuter else MASCULINE)
        right, wrong = ("das", "den") if neuter else ("den", "das")
        reference, corrupted = (f"Wir sahen {article} {noun} am Morgen {n}." for article in (right, wrong))
        side = rng.randrange(2)
        items.append(Pair(f"p{n}", f"We saw it {n}.", (reference, corrupted) if side else (corrupted, reference)))
        answers.append(side)
    return items, answers


@pytest.mark.parametrize(("grammar", "at_least", "at_most"), [
    (True, 0.95, 1.0),   # learns to trust the agreement check
    (False, 0.0, 0.75),  # the hash base and the surface of *das*/*den* give no cue
])
def test_supervised_learner_wins_an_agreement_game_only_with_grammar(grammar, at_least, at_most):
    claude = EditAwareClaude(BASE, one_best=False, unlabeled="none", grammar=grammar, min_examples=10, l2=3.0)
    train, train_answers = agreement_game(120, seed=1)
    for start in range(0, 120, 40):
        claude.observe([RoundOutcome(p.id, 1, 0, True, True, source=p.source, candidates=p.candidates, corrupted=a)
                        for p, a in zip(train[start : start + 40], train_answers[start : start + 40])])
    test, answers = agreement_game(100, seed=2)
    right = sum(j.corrupted == a for j, a in zip(claude.judge(test), answers)) / len(test)
    assert at_least <= right <= at_most
    weights = dict(zip(ef.FEATURES, claude.weights or []))
    if grammar:  # the check, in whichever kind the edit falls, points at the corrupted side
        assert weights["inflection:grammar:np-disagree"] + weights["substitution:grammar:np-disagree"] > 0


def test_extra_features_are_zero_when_off():
    claude = EditAwareClaude(BASE, one_best=False)
    assert claude._extra("Wir sahen das Haus.", "Wir sahen den Haus.") == [0.0] * len(ef.EXTRA)


@pytest.mark.parametrize(("text", "soft"), [
    ("Der Mann, der dort steht, sind mein Vater.", 1),    # the strict check skips this clause; the soft one not
    ("Der Mann, der dort steht, ist mein Vater.", 0),
    ("Er sagt, dass wir kommen.", 0),
])
def test_soft_verb_check(text, soft):
    assert grammar_counts(text)[3] == soft


def test_target_lm_features_come_from_the_trigram_model(monkeypatch):
    """With ``target_lm`` the Claude's extra features are the model's window and edit
    differences (a tiny model stands in for the shared corpus's)."""
    import performers.claude.target_lm as target_lm

    model = KneserNeyLM.train(CORPUS, order=3)
    monkeypatch.setattr(target_lm, "load_or_build", lambda *args, **kwargs: model)
    claude = EditAwareClaude(BASE, one_best=False, target_lm=True)
    first, second = "wir sahen das Haus am Morgen .", "wir sahen den Haus am Morgen ."
    extra = claude._extra(first, second)
    assert extra[:2] == pytest.approx(lm_window(model, first, second))
    assert extra[0] < 0 and extra[2:] == [0.0] * (len(ef.EXTRA) - 2)  # *den Haus* is unseen; grammar off
