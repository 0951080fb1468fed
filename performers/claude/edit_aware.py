"""``edit-aware`` Claude: a scoring Claude whose decision is learned from the edit
between the candidates, with and without answer keys (Smith 2012, §7).

Source: Smith (2012) §7 (observation schedules: supervised, semi-supervised,
unsupervised); features in :mod:`performers.claude.edit_features`, the label-free
part in :mod:`performers.claude.signature_em`; the supervised part is the L2
logistic regression of :mod:`performers.claude.learned`.

It wraps a scoring Claude (``claude``, e.g. ``toy-en-de``).  For a pair it finds the
edit (the words where the candidates differ) and decides by the log-odds that the
second candidate is the corrupted one, the sum of

1. **what it was taught** — a logistic model over edit features (the base model's
   log-probability of the edited tokens, of them and their right neighbour, of the
   rest of the sentence; the full mean and sum; surface features of the edited words;
   whether they occur in the base model's 1-best translation; with ``target_lm`` a
   German trigram model's log-probability of the edit's window, with ``grammar`` the
   agreement errors the German analysis finds in each candidate), refitted after each
   block on every round *transparent* to it (answer key shown).  Before it has
   ``min_examples`` such rounds this term is the base model's own decision:
   ``−Δmean / s``, with ``s`` the mean absolute Δmean of the pairs it has seen;
2. **what it inferred** (``unlabeled: em``, the default) — the Zellig's edit
   signature, estimated by EM from *every* pair it has been shown, labelled or not
   (the rounds of unsupervised and semi-supervised phases, and the evaluation rounds
   it judged), with term 1 as the prior.  It is used once ``min_examples`` pairs have
   been seen.  Once ``min_examples`` rounds are labelled it is checked on them (fitted
   with their answers hidden, it must decide them at least as well as term 1 alone)
   and dropped if it does not; without labels it is trusted.  ``unlabeled: none``
   turns it off (then it learns from labels only).

So under zero observation it still learns, from the evaluation rounds it has judged;
under supervision it also learns what the edits look like with their answers.  Its
judgements carry the base Claude's mean scores (contrastive accuracy stays the base
model's).  It is no :class:`~arena.roles.ScoringClaude` (the engine asks it rather
than deriving its answers from scores); it forwards the base model's honest clock.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

from arena.sdk import (
    Clocked,
    FinitePositiveFloat,
    Judgement,
    NestedScoringClaude,
    Pair,
    PositiveInt,
    RoundOutcome,
    fit_logistic,
)
from performers.claude import edit_features as ef
from performers.claude.signature_em import SignatureEM
from performers.nested import build_nested

# the grammar checks a run may leave out (performers.claude.edit_grammar.GRAMMAR)
GrammarCheck = Literal["np-disagree", "verb-disagree", "genitive-after-dative", "verb-subject-soft"]

logger = logging.getLogger(__name__)



class EditAwareClaude:
    """Params: ``claude`` (a scoring Claude SPEC), ``l2`` (the logistic
    model's penalty on its weights, default 1.0), ``min_examples`` (transparent rounds
    before the taught model replaces the base model's decision, default 20), ``unlabeled`` (``em``, default, or ``none``),
    ``one_best`` (use the base model's 1-best translation as a feature, default true),
    ``target_lm`` (the German trigram model's log-probability around the edit as
    features, default false), ``grammar`` (the German analysis' agreement checks as
    features, default false; both :mod:`performers.claude.edit_grammar`), ``grammar_without``
    (agreement checks left out, by name: ``np-disagree``, ``verb-disagree``,
    ``genitive-after-dative``, ``verb-subject-soft``; e.g. ``[np-disagree]``, the check the
    np-agreement Zellig's own detector runs, to ablate the family a judged Zellig shares)."""

    version = "2"

    consults = "claude"  # the param naming the model it consults (arena.game.judges)

    def __init__(self, claude: NestedScoringClaude, l2: FinitePositiveFloat = 1.0, min_examples: PositiveInt = 20,
                 unlabeled: Literal["em", "none"] = "em", one_best: bool = True,
                 target_lm: bool = False, grammar: bool = False, grammar_without: list[GrammarCheck] | None = None):
        self.base_spec, self.base = build_nested("claude", claude, where="edit-aware: claude")
        self.l2, self.min_examples, self.unlabeled, self.one_best = float(l2), min_examples, unlabeled, one_best
        self.rows: list[list[float]] = []  # one per pair seen, second-minus-first
        self.sides: list[tuple[list[str], list[str]]] = []
        self.labels: list[int | None] = []
        self.weights: list[float] | None = None
        self.signature = SignatureEM()
        self._margin_scale = 0.0
        from performers.claude.edit_grammar import GRAMMAR

        self.grammar = grammar
        self.grammar_kept = [name not in set(grammar_without or ()) for name in GRAMMAR]
        self.lm: Any = None
        if target_lm:
            from performers.claude.target_lm import corpus_path, load_or_build

            self.lm = load_or_build(corpus_path(None), 3, progress=False)

    def _extra(self, first: str, second: str) -> list[float]:
        """The :data:`~performers.claude.edit_features.EXTRA` features (zeros where off)."""
        from performers.claude import edit_grammar as eg

        lm = eg.lm_window(self.lm, first, second) if self.lm is not None else [0.0] * len(eg.LM)
        grammar = eg.grammar_features(first, second) if self.grammar else [0.0] * len(eg.GRAMMAR)
        grammar = [value if kept else 0.0 for value, kept in zip(grammar, self.grammar_kept)]  # ablated: zero
        return lm + grammar

    # -- features ---------------------------------------------------------------------
    def _examples(self, sources: Sequence[str], candidates: Sequence[Sequence[str]]):
        """Per pair: (features, signature sides, base mean scores)."""
        diffs = [ef.word_diff(*pair) for pair in candidates]
        targets: list[str] = []
        for pair, diff in zip(candidates, diffs):
            targets += [*pair, *ef.prefix_requests(diff)]
        scores = self.base.score([s for s in sources for _ in range(6)], targets)
        one_best: list[str | None] = [None] * len(sources)
        if self.one_best:
            distinct = sorted({s for s in sources if s})
            translated = dict(zip(distinct, self.base.translate(distinct))) if distinct else {}
            one_best = [translated.get(s) for s in sources]
        result = []
        for i, diff in enumerate(diffs):
            chunk = scores[6 * i : 6 * i + 6]
            full = [(chunk[0].logprob, chunk[0].tokens), (chunk[1].logprob, chunk[1].tokens)]
            row = ef.pair_features(full, [s.logprob for s in chunk[2:]], diff, one_best[i],
                                   self._extra(*candidates[i]))
            sides = (ef.signature_keys(diff.middles[0]), ef.signature_keys(diff.middles[1]))
            result.append((row, sides, (chunk[0].mean, chunk[1].mean)))
        return result

    def _taught(self, row: Sequence[float]) -> float:
        """Term 1: the supervised model's log-odds, else the base model's scaled margin."""
        if self.weights is not None:
            return sum(w * f for w, f in zip(self.weights, row))
        return -row[0] / self._margin_scale if self._margin_scale > 0 else -row[0]

    def logit(self, row: Sequence[float], sides: tuple[Sequence[str], Sequence[str]]) -> float:
        """The log-odds that the second candidate is the corrupted one."""
        inferred = self.signature.evidence(*sides) if self.unlabeled == "em" else 0.0
        return self._taught(row) + inferred

    # -- the Claude ---------------------------------------------------------------------
    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        if not pairs:
            return []
        for pair in pairs:
            if len(pair.candidates) != 2:
                raise ValueError(f"pair {pair.id}: the edit-aware Claude judges pairs of two candidates")
        result = []
        for row, sides, shown in self._examples([p.source for p in pairs], [p.candidates for p in pairs]):
            margin = self.logit(row, sides)
            result.append(Judgement(None if margin == 0 else int(margin > 0), shown))
        return result

    def observe(self, outcomes: Sequence[RoundOutcome]) -> None:
        seen = [(o, o.candidates) for o in outcomes if o.candidates is not None and len(o.candidates) == 2]
        if not seen:
            return
        for (outcome, _pair), (row, sides, _) in zip(seen, self._examples([o.source or "" for o, _ in seen],
                                                                      [pair for _, pair in seen])):
            known = outcome.transparent and outcome.corrupted is not None
            self.rows.append(row)
            self.sides.append(sides)
            self.labels.append(int(outcome.corrupted == 1) if known else None)
        self._margin_scale = sum(abs(row[0]) for row in self.rows) / len(self.rows)
        self._refit()

    def _refit(self) -> None:
        labelled = [(row, label) for row, label in zip(self.rows, self.labels) if label is not None]
        if len(labelled) >= self.min_examples:
            rows = [row for row, _ in labelled] + [[-v for v in row] for row, _ in labelled]
            labels = [label for _, label in labelled] + [1 - label for _, label in labelled]
            self.weights = fit_logistic(rows, labels, self.l2)
            logger.info("edit-aware: %d labelled rounds, weights %s", len(labelled),
                        dict(zip(ef.FEATURES, (round(w, 3) for w in self.weights))))
        if self.unlabeled == "em" and len(self.rows) >= self.min_examples:
            self.signature = SignatureEM()
            priors = [self._taught(row) for row in self.rows]
            if len(labelled) >= self.min_examples and not self._signature_helps(priors):
                self.signature = SignatureEM()  # unfitted: no evidence
                return
            self.signature.fit(self.sides, priors, self.labels)

    def _signature_helps(self, priors: Sequence[float]) -> bool:
        """The check that labels allow: fitted with every answer hidden, does the
        signature decide the labelled rounds at least as well as the prior alone?
        (A Zellig that swaps forms both ways, as np-agreement does, has no signature,
        and EM would split its pairs along a spurious one.)"""
        blind = SignatureEM()
        blind.fit(self.sides, priors, [None] * len(self.sides))
        known = [(p, s, y) for p, s, y in zip(priors, self.sides, self.labels) if y is not None]
        alone = sum((p > 0) == bool(y) for p, _, y in known)
        joint = sum((p + blind.evidence(*s) > 0) == bool(y) for p, s, y in known)
        logger.info("edit-aware: signature check on %d labelled rounds: %d right alone, %d with it",
                    len(known), alone, joint)
        return joint >= alone

    def replayed_seconds(self) -> float:
        """The base model's honest clock (:class:`arena.roles.Clocked`)."""
        return self.base.replayed_seconds() if isinstance(self.base, Clocked) else 0.0
