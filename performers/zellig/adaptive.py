"""``adaptive`` Zellig: several Zelligs (phenomena) as one, offering the phenomenon
the Claude it observes finds hardest (Smith 2012, §7: a Zellig that adapts during
the game).

Source: Smith (2012) §7 — performers that observe outcomes and adapt; the bandit is
Thompson sampling (Thompson 1933) over phenomena.

``corrupt`` returns every candidate of every wrapped Zellig (pure, as any Zellig's),
so the example of each wrapped Zellig holds, e.g. with ``placeholder-ding`` and
``polarity-affix-del``::

    Das ist ein unglaubliches Ergebnis.  →  Das ist ein glaubliches Ergebnis.   (polarity_affix_del)
    Das ist ein unglaubliches Ergebnis.  →  Das ist ein unglaubliches Ding.     (placeholder_ding)

``choose`` picks which one to offer.  Each phenomenon is an arm with a Beta posterior
over the Claude's chance of finding its corruption (prior Beta(1, 1)); per round the
Zellig draws one sample per phenomenon that has a candidate for the instance, from
the round's RNG, and offers a candidate (uniformly drawn) of the phenomenon with the
lowest draw.  ``observe`` learns from rounds *transparent to the Zellig* (it then
sees every Claude's choice and the answer key); in non-transparent rounds it sees
only its own instance and variant, which say nothing about the Claude, so it keeps
its posterior.  Without transparent rounds every draw comes from the prior, which
makes it the uniform mixture of its phenomena; ``strategy: uniform`` gives that
mixture explicitly (a uniformly drawn phenomenon, then a candidate).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.records import Instance, RoundOutcome, Variant
from performers.nested import build_nested

STRATEGIES = ("thompson", "uniform")


class AdaptiveZellig:
    """Params: ``zelligs`` (a list of Zellig SPECs, e.g. ``[placeholder-ding,
    polarity-affix-del]``), ``strategy`` (``thompson``, default, or ``uniform``)."""

    version = "1"

    def __init__(self, zelligs: list[Any], strategy: str = "thompson"):
        if isinstance(zelligs, str) or not isinstance(zelligs, list) or not zelligs:
            raise ValueError("zelligs must be a non-empty list of Zellig SPECs, e.g. [placeholder-ding, clause-omission]")
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
        self.strategy = strategy
        self.members = [build_nested("zellig", spec, where=f"adaptive: zelligs[{i}]")[1] for i, spec in enumerate(zelligs)]
        self.found: dict[str, int] = {}  # phenomenon -> rounds in which a Claude found the corruption
        self.missed: dict[str, int] = {}

    def corrupt(self, instance: Instance) -> list[Variant]:
        return [variant for member in self.members for variant in member.corrupt(instance)]

    def posterior(self, phenomenon: str) -> tuple[int, int]:
        """The Beta(α, β) posterior of the Claudes finding ``phenomenon``."""
        return 1 + self.found.get(phenomenon, 0), 1 + self.missed.get(phenomenon, 0)

    def choose(self, instance: Instance, candidates: Sequence[Variant], rng: random.Random) -> int:
        arms = sorted({variant.phenomenon for variant in candidates})
        if self.strategy == "uniform":
            arm = arms[rng.randrange(len(arms))]
        else:
            draws = [rng.betavariate(*self.posterior(phenomenon)) for phenomenon in arms]
            arm = arms[draws.index(min(draws))]
        options = [index for index, variant in enumerate(candidates) if variant.phenomenon == arm]
        return options[rng.randrange(len(options))]

    def observe(self, outcomes: Sequence[RoundOutcome]) -> None:
        for outcome in outcomes:
            if not outcome.transparent or outcome.variant is None or outcome.corrupted is None:
                continue
            phenomenon = outcome.variant.phenomenon
            for choice in outcome.choices.values():
                counter = self.found if choice == outcome.corrupted else self.missed
                counter[phenomenon] = counter.get(phenomenon, 0) + 1
