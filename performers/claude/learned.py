"""``learned`` Claude: a scoring Claude whose decision is learned from transparent
rounds (Smith 2012, §7: a Claude that observes, e.g. in a supervised schedule).

Source: Smith (2012) §7 (observation schedules); the decision is a logistic
regression over pairwise features, fitted by Newton's method with an L2 penalty.

It wraps a scoring Claude (``claude``, e.g. ``toy-en-de``) and judges a pair from
the differences between its two candidates (second minus first) of

- the length-normalised log-probability (the base Claude's usual score),
- the summed log-probability,
- the number of target tokens (end-of-sentence included), and
- the number of words,

all given the source it is shown.  Its model says how likely the second candidate is
the corrupted one; it names the likelier one.  Before it has seen ``min_examples``
labelled rounds it decides as the base Claude does (lower mean score = corrupted), so
with zero observation rounds it *is* the base Claude.

``observe`` learns only from rounds transparent to it (the answer key is shown): each
gives one example, in both candidate orders (so the model has no side bias); after
each block the model is refitted on every example so far.  Non-transparent rounds
carry no answer key and teach it nothing.  Its judgements carry the base Claude's
scores, so contrastive accuracy stays that of the base model.  It offers no
``score``/``translate`` of its own (it is no :class:`~arena.roles.ScoringClaude`): the
engine must ask it, not derive its answers from scores; so no discrepancy is
reported for it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from arena.sdk import (
    Clocked,
    ConfigError,
    FinitePositiveFloat,
    Judgement,
    NestedScoringClaude,
    Pair,
    PositiveInt,
    RoundOutcome,
    SequenceScore,
    fit_logistic,
    judgement_from_scores,
)
from performers.nested import build_nested

logger = logging.getLogger(__name__)

FEATURES = ("mean", "logprob", "tokens", "words")


def features(source_scores: Sequence[SequenceScore], candidates: Sequence[str]) -> list[float]:
    """Second-minus-first differences of the pairwise features."""
    (first, second), (text_a, text_b) = source_scores, candidates
    return [
        second.mean - first.mean,
        second.logprob - first.logprob,
        float(second.tokens - first.tokens),
        float(len(text_b.split()) - len(text_a.split())),
    ]


class LearnedClaude:
    """Params: ``claude`` (a scoring Claude SPEC), ``l2`` (penalty on standardised
    weights, default 1.0), ``min_examples`` (labelled rounds before the learned model
    replaces the base decision, default 20)."""

    version = "1"

    consults = "claude"  # the param naming the model it consults (arena.game.judges)

    def __init__(self, claude: NestedScoringClaude, l2: FinitePositiveFloat = 1.0, min_examples: PositiveInt = 20):
        self.base_spec, self.base = build_nested("claude", claude, where="learned: claude")
        self.l2 = float(l2)
        self.min_examples = min_examples
        self.convention = getattr(self.base, "convention", "mean")
        self.rows: list[list[float]] = []
        self.labels: list[int] = []
        self.examples = 0
        self.weights: list[float] | None = None

    def _scores(self, sources: Sequence[str], candidates: Sequence[Sequence[str]]) -> list[list[SequenceScore]]:
        flat = self.base.score([s for s, c in zip(sources, candidates) for _ in c], [t for c in candidates for t in c])
        result, position = [], 0
        for group in candidates:
            result.append(flat[position : position + len(group)])
            position += len(group)
        return result

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        if not pairs:
            return []
        for pair in pairs:
            if len(pair.candidates) != 2:
                raise ConfigError(f"pair {pair.id}: the learned Claude judges pairs of two candidates")
        result = []
        for pair, scores in zip(pairs, self._scores([p.source for p in pairs], [p.candidates for p in pairs])):
            shown = tuple(s.logprob if self.convention == "sum" else s.mean for s in scores)
            if self.weights is None:
                result.append(judgement_from_scores(shown))
                continue
            margin = sum(w * f for w, f in zip(self.weights, features(scores, pair.candidates)))
            result.append(Judgement(None if margin == 0 else int(margin > 0), shown))
        return result

    def observe(self, outcomes: Sequence[RoundOutcome]) -> None:
        labelled = [
            (o, o.candidates) for o in outcomes
            if o.transparent and o.corrupted is not None and o.candidates is not None and len(o.candidates) == 2
        ]
        if not labelled:
            return
        scored = self._scores([o.source or "" for o, _ in labelled], [pair for _, pair in labelled])
        for (outcome, pair), scores in zip(labelled, scored):
            row = features(scores, pair)
            self.rows += [row, [-value for value in row]]
            self.labels += [int(outcome.corrupted == 1), int(outcome.corrupted == 0)]
            self.examples += 1
        if self.examples >= self.min_examples:
            self.weights = fit_logistic(self.rows, self.labels, self.l2)
            logger.info("learned: %d examples, weights %s", self.examples, dict(zip(FEATURES, self.weights)))

    def replayed_seconds(self) -> float:
        """The base model's honest clock (:class:`arena.roles.Clocked`)."""
        return self.base.replayed_seconds() if isinstance(self.base, Clocked) else 0.0
