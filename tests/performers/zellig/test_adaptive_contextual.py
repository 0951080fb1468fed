"""The contextual adaptive Zellig (Thompson sampling over a logistic model of candidate
features): on synthetic games with a planted weakness of the Claude it must learn to
offer what the Claude misses, from the Claude's choices alone; without transparent
rounds, or against a Claude with no weakness, it must not."""

from __future__ import annotations

import random

import pytest

from arena.edits import apply_edits
from arena.records import Edit, Instance, RoundOutcome, Variant
from performers.zellig.adaptive import AdaptiveZellig
from performers.zellig.contextual import LogisticPosterior, candidate_features
from tests.performers.built import built

REFERENCE = "Der Mann kaufte gestern das alte Haus am See."


def variant(word: str, zipf: float, phenomenon: str = "placeholder_ding") -> Variant:
    start = REFERENCE.index(word)
    edit = Edit(start, start + len(word), word, "Ding")
    return Variant("i", apply_edits(REFERENCE, (edit,)), phenomenon, (edit,), {"zipf_frequency": zipf})


def game(zellig: AdaptiveZellig, found, rounds: int = 200, transparent: bool = True, block: int = 20) -> list[int]:
    """Play ``rounds`` rounds; the Claude finds a candidate iff ``found(variant)``.
    Returns 1 per round in which the Claude found the offered corruption."""
    rng = random.Random(7)
    instance = Instance("i", "The man bought the old house by the lake yesterday.", REFERENCE)
    results, pending = [], []
    for n in range(rounds):
        zipfs = [rng.uniform(1.0, 6.0) for _ in range(4)]
        candidates = [variant(word, z) for word, z in zip(("Mann", "Haus", "See", "alte"), zipfs)]
        offered = candidates[zellig.choose(instance, candidates, random.Random(n))]
        hit = found(offered)
        results.append(int(hit))
        pending.append(RoundOutcome(f"r{n}", 1, 0, transparent, True, instance=instance, variant=offered,
                                    corrupted=1 if transparent else None,
                                    choices={"claude": (1 if hit else 0)} if transparent else {}))
        if len(pending) == block:
            zellig.observe(pending)
            pending = []
    return results


@pytest.mark.parametrize(
    ("name", "found", "transparent", "falls"),
    [
        ("planted: the Claude misses rare words", lambda v: v.meta["zipf_frequency"] > 3.5, True, True),
        ("planted, but the Zellig never sees a choice", lambda v: v.meta["zipf_frequency"] > 3.5, False, False),
        ("no weakness: the Claude finds everything", lambda v: True, True, False),
    ],
)
def test_contextual_zellig_finds_a_planted_weakness(name, found, transparent, falls):
    results = game(AdaptiveZellig(["placeholder-ding"]), found, transparent=transparent)
    first, last = sum(results[:20]) / 20, sum(results[-60:]) / 60
    if falls:
        assert first >= 0.4 and last <= 0.15, name  # uniform at first (about 0.5), then the rare words
    else:
        assert last >= 0.3 and last >= first - 0.25, name


def test_uniform_strategy_does_not_learn():
    results = game(AdaptiveZellig(["placeholder-ding"], strategy="uniform"), lambda v: v.meta["zipf_frequency"] > 3.5)
    assert 0.3 < sum(results[-80:]) / 80 < 0.7


def test_features_and_posterior_are_deterministic():
    instance = Instance("i", "", REFERENCE)
    row = candidate_features(instance, variant("Haus", 4.0), ["placeholder_ding", "np_agreement"])
    assert row[:4] == [1.0, 0.0, 4.0, 0.0]  # one-hot, then zipf per phenomenon
    model = LogisticPosterior()
    assert model.sample(random.Random(0)) is None  # no fit yet
    for n in range(30):
        model.add([float(n % 2), float(n % 3)], n % 2)
    model.fit()
    assert model.sample(random.Random(1)) == model.sample(random.Random(1))
    assert model.logit(model.mean, [1.0, 0.0]) > 0 > model.logit(model.mean, [0.0, 0.0])
    with pytest.raises(ValueError, match="parameter 'l2' must be a number > 0 < inf, not 0"):
        built(AdaptiveZellig, zelligs=["placeholder-ding"], l2=0)
