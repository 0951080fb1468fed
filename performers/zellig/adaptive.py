"""``adaptive`` Zellig: several Zelligs (phenomena) as one, offering the candidate
the Claude it observes is least likely to find (Smith 2012, §7: a Zellig that adapts
during the game).

Source: Smith (2012) §7 — performers that observe outcomes and adapt; the bandit is
Thompson sampling (Thompson 1933) over phenomena.

``corrupt`` returns every candidate of every wrapped Zellig (pure, as any Zellig's),
so the example of each wrapped Zellig holds, e.g. with ``placeholder-ding`` and
``polarity-affix-del``::

    Das ist ein unglaubliches Ergebnis.  →  Das ist ein glaubliches Ergebnis.   (polarity_affix_del)
    Das ist ein unglaubliches Ergebnis.  →  Das ist ein unglaubliches Ding.     (placeholder_ding)

``choose`` picks which one to offer.  With ``strategy: contextual`` (the default,
version 3) it offers the candidate a Bayesian logistic model of "the Claude finds it"
rates least likely to be found, with weights drawn from the model's posterior
(Thompson sampling, :mod:`performers.zellig.contextual`): the arms are then every
candidate's features — phenomenon, Zipf frequency of the changed word and its
interaction with the phenomenon, edit length, position in the sentence, sentence
length — so the Zellig chooses among all the candidates of an instance, not among
phenomena.  Until its first observation it plays the uniform mixture.  It learns
from the Claudes' choices only (each transparent round gives one example per
Claude: found or not); scores are never used.

With ``strategy: thompson`` an *arm* is a phenomenon and, with
``arms: phenomenon+frequency`` (the default), the Zipf-frequency band of the word the
candidate changes (``meta["zipf_frequency"]``: low < 3, mid < 4.5, high; ``none``
where the Zellig records none) — a candidate feature: a placeholder *Ding* for a rare
noun is much harder for a small NMT model to spot than one for a frequent noun.
Each arm has a Beta posterior over the Claude's chance of finding its corruption
(prior Beta(1, 1)); per round the Zellig draws one sample per arm that has a
candidate for the instance, from the round's RNG, and offers a candidate (uniformly
drawn) of the arm with the lowest draw; ``arms: phenomenon`` uses phenomena only.  ``observe`` learns from rounds *transparent to the Zellig* (it then
sees every Claude's choice and the answer key); in non-transparent rounds it sees
only its own instance and variant, which say nothing about the Claude, so it keeps
its posterior.  Without transparent rounds every draw comes from the prior, which
makes it the uniform mixture of its phenomena; ``strategy: uniform`` gives that
mixture explicitly (a uniformly drawn phenomenon, then a candidate).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Annotated, Literal

from annotated_types import MinLen

from arena.sdk import FinitePositiveFloat, Instance, Name, NestedZellig, RoundOutcome, Variant
from performers.nested import build_nested
from performers.zellig.contextual import LogisticPosterior, candidate_features


def frequency_band(variant: Variant) -> str:
    """``low``/``mid``/``high`` Zipf frequency of the changed word, ``none`` if unknown."""
    value = variant.meta.get("zipf_frequency")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "none"
    return "low" if value < 3 else "mid" if value < 4.5 else "high"


class AdaptiveZellig:
    """Params: ``zelligs`` (a list of Zellig SPECs, e.g. ``[placeholder-ding,
    polarity-affix-del]``), ``strategy`` (``contextual``, default, ``thompson`` or
    ``uniform``), ``arms`` (for ``thompson``: ``phenomenon+frequency``, default, or
    ``phenomenon``), ``l2`` (the contextual model's prior precision, default 1.0),
    ``learn_from`` (the labels of the Claudes whose choices teach it, e.g. ``[toy]``: the
    Claude it is tuned against; default: every Claude of the round)."""

    version = "3"
    consults = "learn_from"  # the param naming the Claudes it consults (arena.game.judges)
    consults_by = "label"  # Claude labels, not a model SPEC (arena.specs.transfer)

    def __init__(
        self,
        zelligs: Annotated[list[NestedZellig], MinLen(1)],
        strategy: Literal["contextual", "thompson", "uniform"] = "contextual",
        arms: Literal["phenomenon+frequency", "phenomenon"] = "phenomenon+frequency",
        l2: FinitePositiveFloat = 1.0,
        learn_from: Annotated[list[Name], MinLen(1)] | None = None,
    ):
        self.learn_from = None if learn_from is None else frozenset(learn_from)
        self.strategy = strategy
        self.by_frequency = arms == "phenomenon+frequency"
        self.members = [build_nested("zellig", spec, where=f"adaptive: zelligs[{i}]")[1] for i, spec in enumerate(zelligs)]
        self.found: dict[str, int] = {}  # arm -> rounds in which a Claude found the corruption
        self.missed: dict[str, int] = {}
        self.model = LogisticPosterior(float(l2))
        self.phenomena: list[str] = []  # in order of first sight: the one-hot order
        self._examples: list[tuple[Instance, Variant, int]] = []

    def corrupt(self, instance: Instance) -> list[Variant]:
        return [variant for member in self.members for variant in member.corrupt(instance)]

    def arm(self, variant: Variant) -> str:
        """The arm of a candidate: its phenomenon, with its frequency band."""
        return f"{variant.phenomenon}/{frequency_band(variant)}" if self.by_frequency else variant.phenomenon

    def posterior(self, arm: str) -> tuple[int, int]:
        """The Beta(α, β) posterior of the Claudes finding the corruptions of ``arm``."""
        return 1 + self.found.get(arm, 0), 1 + self.missed.get(arm, 0)

    def features(self, instance: Instance, variant: Variant) -> list[float]:
        return candidate_features(instance, variant, self.phenomena)

    def choose(self, instance: Instance, candidates: Sequence[Variant], rng: random.Random) -> int:
        weights = self.model.sample(rng) if self.strategy == "contextual" else None
        if weights is not None:
            logits = [self.model.logit(weights, self.features(instance, variant)) for variant in candidates]
            return logits.index(min(logits))
        if self.strategy != "thompson":  # the uniform mixture: a phenomenon, then one of its candidates
            phenomena = sorted({variant.phenomenon for variant in candidates})
            chosen = phenomena[rng.randrange(len(phenomena))]
            options = [index for index, variant in enumerate(candidates) if variant.phenomenon == chosen]
            return options[rng.randrange(len(options))]
        arms = sorted({self.arm(variant) for variant in candidates})
        draws = [rng.betavariate(*self.posterior(arm)) for arm in arms]
        chosen = arms[draws.index(min(draws))]
        options = [index for index, variant in enumerate(candidates) if self.arm(variant) == chosen]
        return options[rng.randrange(len(options))]

    def observe(self, outcomes: Sequence[RoundOutcome]) -> None:
        learned = False
        for outcome in outcomes:
            if not outcome.transparent or outcome.variant is None or outcome.corrupted is None:
                continue
            arm = self.arm(outcome.variant)
            if outcome.variant.phenomenon not in self.phenomena:
                self.phenomena.append(outcome.variant.phenomenon)
            for claude, choice in outcome.choices.items():
                if self.learn_from is not None and claude not in self.learn_from:
                    continue
                counter = self.found if choice == outcome.corrupted else self.missed
                counter[arm] = counter.get(arm, 0) + 1
                if outcome.instance is not None:
                    self._examples.append((outcome.instance, outcome.variant, int(choice == outcome.corrupted)))
                    learned = True
        if learned and self.strategy == "contextual":
            self.model = LogisticPosterior(self.model.l2)
            for instance, variant, found in self._examples:
                self.model.add(self.features(instance, variant), found)
            self.model.fit()
