"""The game's Zelligs: adaptive (a bandit over phenomena), model-guided (Smith eq. 2)
and mt-system (an MT system's output as y)."""

from __future__ import annotations

import random

import pytest

from arena.edits import apply_edits
from arena.records import Instance, RoundOutcome, Variant
from performers.zellig.adaptive import AdaptiveZellig
from performers.zellig.model_guided import ModelGuidedZellig
from performers.zellig.mt_system import MTSystemZellig
from tests.arena.engine.helpers import HashScorer
from tests.performers.built import built

SCORER = "tests.arena.engine.helpers:HashScorer"


def test_adaptive_zellig_offers_the_phenomenon_claude_misses():
    zellig = AdaptiveZellig(["placeholder-ding", "clause-omission"], strategy="thompson")
    candidates = [Variant("i", "a", "placeholder_ding"), Variant("i", "b", "clause_omission")]
    seen = [
        RoundOutcome(f"r{n}", 1, 0, True, True, variant=candidates[n % 2], corrupted=1,
                     choices={"c": 1 if n % 2 == 0 else 0})
        for n in range(40)
    ]
    zellig.observe(seen)
    assert zellig.posterior("placeholder_ding/none") == (21, 1) and zellig.posterior("clause_omission/none") == (1, 21)
    picks = [zellig.choose(Instance("i", "s", "r"), candidates, random.Random(n)) for n in range(50)]
    assert picks.count(1) >= 48
    hidden = AdaptiveZellig(["placeholder-ding"], strategy="thompson", arms="phenomenon")
    hidden.observe([RoundOutcome("r", 1, 0, False, True, variant=candidates[0])])
    assert hidden.posterior("placeholder_ding") == (1, 1)  # not transparent: nothing learned


def test_adaptive_zellig_arms_split_a_phenomenon_by_word_frequency():
    zellig = AdaptiveZellig(["placeholder-ding"], strategy="thompson")
    rare = Variant("i", "a", "placeholder_ding", meta={"zipf_frequency": 2.1})
    common = Variant("i", "b", "placeholder_ding", meta={"zipf_frequency": 5.3})
    assert [zellig.arm(v) for v in (rare, common)] == ["placeholder_ding/low", "placeholder_ding/high"]
    zellig.observe([
        RoundOutcome(f"r{n}", 1, 0, True, True, variant=v, corrupted=0, choices={"c": 0 if v is common else 1})
        for n, v in enumerate([rare, common] * 15)
    ])
    picks = [zellig.choose(Instance("i", "s", "r"), [common, rare], random.Random(n)) for n in range(30)]
    assert picks.count(1) >= 28  # the rare noun's Ding, which the Claude misses


def test_adaptive_zellig_offers_every_member_candidate_and_a_uniform_strategy():
    zellig = AdaptiveZellig(["placeholder-ding", "clause-omission"], strategy="uniform")
    instance = Instance("i", "", "Der Mann kaufte das Haus, weil es billig war.")
    variants = zellig.corrupt(instance)
    assert {v.phenomenon for v in variants} == {"placeholder_ding", "clause_omission"}
    picks = {variants[zellig.choose(instance, variants, random.Random(n))].phenomenon for n in range(40)}
    assert picks == {"placeholder_ding", "clause_omission"}
    with pytest.raises(ValueError, match="parameter 'strategy' must be one of contextual, thompson, uniform"):
        built(AdaptiveZellig, zelligs=["placeholder-ding"], strategy="greedy")


def test_model_guided_offers_the_candidate_the_model_scores_highest():
    zellig = ModelGuidedZellig("placeholder-ding", SCORER)
    instance = Instance("i", "The man bought the house and the car.", "Der Mann kaufte das Haus und das Auto.")
    variants = zellig.corrupt(instance)
    assert len(variants) >= 2
    scorer = HashScorer()
    expected = [scorer._score(instance.source, v.text).mean for v in variants]
    assert [v.meta["model_score"] for v in variants] == expected
    chosen = zellig.choose(instance, variants, random.Random(0))
    assert expected[chosen] == max(expected)
    assert zellig.corrupt(Instance("j", "", "Ja.")) == []


def test_mt_system_offers_the_systems_output(data_dir):
    outputs = data_dir / "wmt" / "mt-outputs"
    source = (outputs / "wmt13.en").read_text(encoding="utf-8").splitlines()[1]
    human = (outputs / "wmt13.de").read_text(encoding="utf-8").splitlines()[1]
    google = (outputs / "wmt13.google.de").read_text(encoding="utf-8").splitlines()[1].strip()
    zellig = MTSystemZellig(outputs=str(outputs), system="google")
    variants = zellig.corrupt(Instance("newstest2013.2", source, human, {"year": 2013}))
    assert [v.text for v in variants] == ([google] if google != human else [])
    for variant in variants:
        assert apply_edits(human, variant.edits) == variant.text and variant.meta == {"system": "google"}
    assert zellig.corrupt(Instance("x", "A sentence in no WMT set at all, surely.", "Ein Satz.")) == []


def test_mt_system_can_translate_with_a_claude():
    zellig = MTSystemZellig(claude=SCORER)
    [variant] = zellig.corrupt(Instance("i", "Good morning.", "Guten Morgen."))
    assert variant.text == HashScorer().translate(["Good morning."])[0] and variant.phenomenon == "mt_output"


@pytest.mark.parametrize(
    "params, message",
    [({}, "exactly one source"), ({"outputs": ".", "claude": SCORER}, "exactly one source"),
     ({"claude": SCORER, "system": "google"}, "does not go with"),
     ({"claude": SCORER, "beam": 0}, "parameter 'beam' must be an integer ≥ 1, not 0")],
)
def test_mt_system_params_are_checked(params, message):
    with pytest.raises(ValueError, match=message):
        built(MTSystemZellig, **params)
