"""``search`` Zellig: Smith's eq. 2 as a search — the corruption a scoring model
prefers most in a neighbourhood of edits, under constraints that keep it an error of
the phenomenon, with a query budget.

Source: Smith (2012) §4.2, eq. 2 (``y = argmax p(x')`` over ``1 ≤ Δ(x', x) ≤ δ``);
greedy and beam search under a query budget as in TextAttack (Morris et al. 2020,
``GreedySearch``/``BeamSearch`` with ``query_budget``).

The neighbourhood is built from a base Zellig's corruptions of the instance (each one
error of its phenomenon).  A state is a set of edits of the reference; its moves:

- **add** the edits of another base candidate that touch none of the state's spans
  (a second Ding, a second wrongly inflected word);
- **inflect** one edit: replace what it writes by another form of the same paradigm —
  another base candidate's form for the same span (np-agreement lists every wrong
  form of a word), or another form of *Ding* (*Dinge*, *Dinges*, *Dingen*, …).

Constraints: at most ``max_edits`` edits (the bound δ on the edit distance), the text
differs from the reference, and where the base Zellig has a detector
(:class:`arena.roles.Detector`) it must fire on every text a move makes (the base
candidates themselves are the base's errors by definition, and are always allowed:
so the search plays every instance ``argmax`` plays).  Scores are the model's
length-normalised log-probability given the source (or the sum with ``convention:
sum``).  The search starts with every base candidate — the ``model-guided``
(``argmax``) Zellig's choice is the best of these — and then expands: ``greedy``
takes the best improving move until none improves; ``beam`` keeps the
``beam_width`` best states per depth.  Each distinct text scored is one query; the
search stops when ``budget`` queries are spent.  ``corrupt`` returns the best state
found, with ``meta``: ``model_score``, ``queries`` (used), ``search_depth`` (edits)
and ``start_score`` (the best base candidate's score, what ``argmax`` offers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from arena.sdk import (
    Detector,
    Edit,
    Instance,
    NestedScoringClaude,
    NestedZellig,
    PositiveInt,
    Variant,
    make_variant,
)
from performers.nested import build_nested
from performers.zellig.placeholder_ding import DING_FORMS

State = tuple[Edit, ...]


def _overlaps(edit: Edit, state: State) -> bool:
    return any(edit.start < other.end and other.start < edit.end for other in state)


class SearchZellig:
    """Params: ``base`` (a Zellig SPEC), ``model`` (a scoring Claude SPEC), ``method``
    (``beam``, default, or ``greedy``), ``beam_width`` (candidates kept per
    step of the beam search, default 3), ``max_edits`` (edits at most, the bound on the edit
    distance, default 2), ``budget`` (queries per instance, default 40), ``convention``."""

    version = "1"

    consults = "model"  # the param naming the model it consults (arena.game.judges)

    def __init__(self, base: NestedZellig, model: NestedScoringClaude, method: Literal["beam", "greedy"] = "beam", beam_width: PositiveInt = 3,
                 max_edits: PositiveInt = 2, budget: PositiveInt = 40, convention: Literal["mean", "sum"] = "mean"):
        self.method, self.beam_width, self.max_edits = method, beam_width, max_edits
        self.budget, self.convention = budget, convention
        self.base_spec, self.base = build_nested("zellig", base, where="search: base")
        self.model_spec = model
        self._model: Any = None

    @property
    def model(self) -> Any:
        if self._model is None:
            _, self._model = build_nested("claude", self.model_spec, where="search: model")
        return self._model

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_model"] = None  # built again where it runs
        return state

    # -- the neighbourhood ------------------------------------------------------------------
    def _moves(self, state: State, pieces: Sequence[State]) -> list[State]:
        forms: dict[tuple[int, int], set[str]] = {}
        for piece in pieces:
            for edit in piece:
                forms.setdefault((edit.start, edit.end), set()).add(edit.after)
        result: list[State] = []
        if len(state) < self.max_edits:
            for piece in pieces:
                if len(state) + len(piece) <= self.max_edits and not any(_overlaps(e, state) for e in piece):
                    result.append(tuple(sorted(state + piece, key=lambda e: e.start)))
        for index, edit in enumerate(state):
            others = set(forms.get((edit.start, edit.end), set()))
            if edit.after in DING_FORMS:
                others |= DING_FORMS
            for form in sorted(others - {edit.after, edit.before}):
                changed = Edit(edit.start, edit.end, edit.before, form)
                result.append(state[:index] + (changed,) + state[index + 1 :])
        return result

    def _allowed(self, instance: Instance, text: str) -> bool:
        if text == instance.reference:
            return False
        return not isinstance(self.base, Detector) or self.base.detect(text, instance.source)

    # -- the search ---------------------------------------------------------------------------
    def corrupt(self, instance: Instance) -> list[Variant]:
        candidates = self.base.corrupt(instance)
        if not candidates:
            return []
        phenomenon = candidates[0].phenomenon
        pieces = [tuple(v.edits) for v in candidates if v.edits]
        scored: dict[str, float] = {}

        def score(states: list[State], checked: bool = True) -> list[tuple[float, State]]:
            texts = {}
            for state in states:
                text = make_variant(instance, state, phenomenon).text
                allowed = self._allowed(instance, text) if checked else text != instance.reference
                if text not in scored and text not in texts and allowed:
                    texts[text] = state
            todo = list(texts)[: max(0, self.budget - len(scored))]
            if todo:
                results = self.model.score([instance.source] * len(todo), todo)
                for text, result in zip(todo, results):
                    scored[text] = result.logprob if self.convention == "sum" else result.mean
            return [(scored[t], s) for t, s in texts.items() if t in scored]

        frontier = sorted(score(pieces, checked=False), key=lambda x: -x[0])  # the base's own errors
        if not frontier:
            return []
        start_score = frontier[0][0]
        best = frontier[0]
        width = 1 if self.method == "greedy" else self.beam_width
        beam = frontier[:width]
        while beam and len(scored) < self.budget:
            expanded = sorted(score([m for _, state in beam for m in self._moves(state, pieces)]), key=lambda x: -x[0])
            improving = [x for x in expanded if x[0] > best[0]] if self.method == "greedy" else expanded
            if not improving:
                break
            beam = improving[:width]
            if beam[0][0] > best[0]:
                best = beam[0]
        meta = {"model_score": best[0], "queries": len(scored), "search_depth": len(best[1]),
                "start_score": start_score, "search": self.method}
        return [make_variant(instance, best[1], phenomenon, meta)]

    def detect(self, text: str, source: str | None = None) -> bool:
        """The base Zellig's detector (the search's corruptions are its phenomenon's)."""
        return isinstance(self.base, Detector) and self.base.detect(text, source)
