"""The learned Claude: the base Claude's decision until it has seen labelled rounds,
then a logistic model fitted on transparent rounds only."""

from __future__ import annotations

from arena.record.scoring_rule import judgement_from_scores
from arena.records import Pair, RoundOutcome
from performers.claude.learned import LearnedClaude, fit_logistic
from tests.arena.engine.helpers import HashScorer

BASE = "tests.arena.engine.helpers:HashScorer"


def pairs(count: int, corrupted_side: list[int]):
    """Pairs whose corrupted candidate is the shorter one (a dropped word)."""
    result, answers = [], []
    for n in range(count):
        full = f"Der Mann {n} kauft heute ein sehr altes Haus in der Stadt."
        short = f"Der Mann {n} kauft heute ein Haus in der Stadt."
        side = corrupted_side[n % len(corrupted_side)]
        result.append(Pair(f"p{n}", f"The man {n} buys an old house.", (full, short) if side == 1 else (short, full)))
        answers.append(side)
    return result, answers


def outcomes(items, answers, transparent=True):
    return [
        RoundOutcome(p.id, 1, 0, transparent, False, source=p.source, candidates=p.candidates,
                     corrupted=a if transparent else None, choices={"learned": 0})
        for p, a in zip(items, answers)
    ]


def test_without_observation_it_decides_as_the_base_claude():
    claude = LearnedClaude(BASE, min_examples=5)
    items, _ = pairs(30, [0, 1])
    scorer = HashScorer()
    expected = [judgement_from_scores([scorer._score(p.source, c).mean for c in p.candidates]) for p in items]
    assert claude.judge(items) == expected
    claude.observe(outcomes(items, [0] * 30, transparent=False))  # no answer key: nothing learned
    assert claude.weights is None and claude.judge(items) == expected


def test_it_learns_what_the_answer_key_shows():
    claude = LearnedClaude(BASE, min_examples=5)
    train, train_answers = pairs(40, [0, 1, 1, 0, 1])
    test, test_answers = pairs(40, [1, 0])
    base = sum(j.corrupted == a for j, a in zip(claude.judge(test), test_answers))
    claude.observe(outcomes(train, train_answers))
    assert claude.examples == 40 and claude.weights is not None
    learned = [j.corrupted for j in claude.judge(test)]
    assert learned == test_answers  # the shorter candidate is the corrupted one
    assert base < 40


def test_fit_is_deterministic_and_symmetric():
    rows = [[1.0, 0.5], [-1.0, -0.5], [2.0, 0.1], [-2.0, -0.1]]
    labels = [1, 0, 1, 0]
    assert fit_logistic(rows, labels, 1.0) == fit_logistic(rows, labels, 1.0)
    assert fit_logistic(rows, labels, 1.0)[0] > 0
