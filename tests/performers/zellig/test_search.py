"""The eq. 2 search Zellig: it never does worse than the argmax over the base
candidates, stays inside its constraints (edit bound, the phenomenon's detector, the
query budget) and reports the queries it used."""

from __future__ import annotations

import pytest

from arena.edits import apply_edits
from arena.records import Instance
from performers.zellig.model_guided import ModelGuidedZellig
from performers.zellig.placeholder_ding import DING_FORMS, PlaceholderDingZellig
from performers.zellig.search import SearchZellig
from tests.arena.engine.helpers import HashScorer
from tests.performers.built import built

SCORER = "tests.arena.engine.helpers:HashScorer"
INSTANCES = [
    Instance("a", "The man bought the house and the car in the city.", "Der Mann kaufte das Haus und das Auto in der Stadt."),
    Instance("b", "The children read the books in the garden.", "Die Kinder lesen die Bücher im Garten."),
    Instance("c", "The old man sees the big dog.", "Der alte Mann sieht den großen Hund."),
]


@pytest.mark.parametrize("base", ["placeholder-ding", "np-agreement"])
@pytest.mark.parametrize(("method", "budget", "max_edits"), [("beam", 30, 2), ("greedy", 30, 2), ("beam", 5, 1)])
def test_search_is_at_least_argmax_and_keeps_its_constraints(base, method, budget, max_edits):
    search = SearchZellig(base, SCORER, method=method, budget=budget, max_edits=max_edits)
    argmax = ModelGuidedZellig(base, SCORER)
    scorer = HashScorer()
    for instance in INSTANCES:
        options = argmax.corrupt(instance)
        found = search.corrupt(instance)
        if not options:
            assert found == []
            continue
        (variant,) = found
        best_base = max(v.meta["model_score"] for v in options)
        if budget >= len(options):  # the budget covers the base candidates: never below argmax
            assert variant.meta["model_score"] >= best_base
            assert variant.meta["start_score"] == pytest.approx(best_base)
        assert variant.meta["model_score"] == scorer._score(instance.source, variant.text).mean
        assert 1 <= variant.meta["queries"] <= budget and 1 <= len(variant.edits) <= max_edits
        assert apply_edits(instance.reference, variant.edits) == variant.text != instance.reference
        if len(variant.edits) > 1 or variant.text not in {v.text for v in options}:
            assert search.base.detect(variant.text, instance.source)  # a move's text keeps the phenomenon


def test_ding_is_reinflected_from_its_paradigm():
    search = SearchZellig("placeholder-ding", SCORER, max_edits=1, budget=100)
    moves = search._moves(tuple(PlaceholderDingZellig().corrupt(INSTANCES[1])[0].edits), [])
    assert {move[0].after for move in moves} == DING_FORMS - {"Ding"}


def test_a_move_that_breaks_the_phenomenon_is_not_offered():
    search = SearchZellig("placeholder-ding", SCORER)
    assert not search._allowed(INSTANCES[0], INSTANCES[0].reference)  # no change
    assert not search._allowed(INSTANCES[0], "Der Mann kaufte das Haus und das Boot in der Stadt.")  # no Ding
    assert search._allowed(INSTANCES[0], "Der Mann kaufte das Ding und das Auto in der Stadt.")


def test_params_are_checked():
    for bad in ({"method": "random"}, {"budget": 0}, {"max_edits": 0}, {"beam_width": True}, {"convention": "x"}):
        with pytest.raises(ValueError, match=f"parameter '{next(iter(bad))}' must be"):
            built(SearchZellig, base="placeholder-ding", model=SCORER, **bad)
