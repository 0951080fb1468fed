"""``model-guided`` Zellig: of a base Zellig's candidates, offer the one a scoring
model finds most likely — the hardest distractor (Smith 2012, §4.2, eq. 2:
``y = argmax p(x')`` over the ``x'`` with ``1 ≤ Δ(x', x) ≤ δ``).

Source: Smith (2012) §4.2 (a Zellig built on a model of language); the neighbourhood
``Δ ≤ δ`` is the base Zellig's set of minimal corruptions.

With ``base: placeholder-ding`` and ``model: toy-en-de``, for *Sie kaufte ein Haus
und ein Auto.* the candidates are *Sie kaufte ein Ding und ein Auto.* and *Sie
kaufte ein Haus und ein Ding.*; the Zellig offers the one the toy model scores
higher given the English source::

    Sie kaufte ein Haus und ein Auto.  →  Sie kaufte ein Haus und ein Ding.   (if the model prefers it)

``corrupt`` returns every candidate of the base Zellig, each with the model's score
of it given the source in ``meta["model_score"]`` (length-normalised log-probability,
or the sum with ``convention: sum``): pure and deterministic, so it is computed up
front like any Zellig's work.  ``choose`` offers the candidate with the highest score
(the first on a tie).  The model is built on first use, so building the Zellig (as
the arena does on the driver to call ``choose``) loads no model.

When the scoring model is the Claude under test, the Zellig colludes with it in
Smith's sense (§8: the Zellig picks exactly the distractors that Claude's own model
prefers); the run's manifest records it under ``collusion``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.sdk import Instance, NestedScoringClaude, NestedZellig, ScoreConvention, Variant
from performers.nested import build_nested


class ModelGuidedZellig:
    """Params: ``base`` (a Zellig SPEC), ``model`` (a scoring Claude SPEC, e.g.
    ``toy-en-de``), ``convention`` (``mean``, default, or ``sum`` of log-probs)."""

    version = "1"

    consults = "model"  # the param naming the model it consults (arena.game.judges)

    def __init__(self, base: NestedZellig, model: NestedScoringClaude, convention: ScoreConvention = "mean"):
        self.convention = convention
        self.base_spec, self.base = build_nested("zellig", base, where="model-guided: base")
        self.model_spec = model
        self._model: Any = None

    @property
    def model(self) -> Any:
        if self._model is None:
            _, self._model = build_nested("claude", self.model_spec, where="model-guided: model")
        return self._model

    def corrupt(self, instance: Instance) -> list[Variant]:
        variants = self.base.corrupt(instance)
        if not variants:
            return []
        scores = self.model.score([instance.source] * len(variants), [variant.text for variant in variants])
        return [
            Variant(
                variant.instance_id, variant.text, variant.phenomenon, variant.edits,
                {**variant.meta, "model_score": score.logprob if self.convention == "sum" else score.mean},
            )
            for variant, score in zip(variants, scores)
        ]

    def choose(self, instance: Instance, candidates: Sequence[Variant], rng: random.Random) -> int:
        scores = [float(variant.meta.get("model_score", float("-inf"))) for variant in candidates]
        return scores.index(max(scores))

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_model"] = None  # built again where it runs
        return state
