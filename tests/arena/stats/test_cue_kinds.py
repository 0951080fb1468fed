"""Cue kinds and the verdict: which kinds a table must and must not get, reversed cues, the
n threshold; one vocabulary (nuisance → confounded; edit-identity, target-only by name)."""

from __future__ import annotations

import pytest

from arena.codec import dump
from arena.errors import UsageError
from arena.present import cues as present
from arena.stats import cue_kinds, cues
from arena.stats.cue_items import CueItem
from arena.stats.cues import CueScore, TableAudit


def table(n: int, **accuracies: tuple[float, tuple[float, float]]) -> TableAudit:
    """A table of ``n`` pairs whose cues (``edit_words`` for ``edit-words`` …) have the given
    accuracy and 95% interval."""
    items = [CueItem(str(i), str(i), "s", "a", "b", "set", "p") for i in range(n)]
    scores = {name.replace("_", "-"): CueScore(name.replace("_", "-"), n, acc, ci, hits=(1.0,) * n, ties=(False,) * n)
              for name, (acc, ci) in accuracies.items()}
    strongest = max(scores, key=lambda c: abs(scores[c].accuracy - 0.5)) if scores else None  # type: ignore[operator]
    audited = TableAudit("set", "p", items, scores, strongest, False)
    cues.verdict(audited, {}, cue_kinds.HIGH)
    return audited


STRONG_HIGH = (0.95, (0.90, 0.98))
STRONG_LOW = (0.05, (0.02, 0.10))  # a reversed cue
WIDE = (0.80, (0.53, 0.98))  # above 0.75 but its interval reaches below
CHANCE = (0.50, (0.40, 0.60))


@pytest.mark.parametrize("accuracies, kinds, confounded", [
    # must be
    ({"length": STRONG_HIGH}, ["nuisance"], True),
    ({"length": STRONG_LOW}, ["nuisance"], True),  # reversed counts
    ({"edit_words": STRONG_HIGH}, ["edit-identity"], False),
    ({"target_lm": STRONG_HIGH}, ["target-only"], False),
    ({"length": STRONG_HIGH, "edit_words": STRONG_HIGH}, ["nuisance", "edit-identity"], True),  # Ding
    ({"length": CHANCE, "target_lm": (0.82, (0.78, 0.86))}, ["target-only"], False),  # np-agreement
    # must not be
    ({"length": WIDE}, [], False),
    ({"length": CHANCE, "edit_words": CHANCE, "target_lm": CHANCE}, [], False),
    ({"length": (0.30, (0.20, 0.40))}, [], False),  # reversed, but the interval reaches 0.25
])
def test_kinds_of_the_strong_cues(accuracies, kinds, confounded):
    audited = table(200, **accuracies)
    assert audited.kinds == kinds and audited.confounded is confounded and audited.enough
    data = dump(audited.record())
    assert data["kinds"] == kinds and data["confounded"] is confounded and data["enough"] is True
    assert data["confounded"] == ("nuisance" in data["kinds"] and data["enough"])
    words = present.verdict_words(audited)
    assert ("confounded" in words) is confounded and "consistent" not in words
    for kind in ("edit-identity", "target-only"):
        assert (kind in words) is (kind in kinds)


@pytest.mark.parametrize("n, enough", [(10, False), (29, False), (30, True), (31, True)])
def test_no_verdict_below_30_pairs(n, enough):
    audited = table(n, length=STRONG_HIGH, target_lm=STRONG_HIGH)
    assert audited.enough is enough and audited.confounded is enough
    assert dump(audited.record())["enough"] is enough
    if not enough:
        assert "too few pairs" in audited.reason and f"n = {n}" in audited.reason
        assert present.verdict_words(audited).startswith("too few pairs")
        assert present.zellig_kinds([audited]) == {}


@pytest.mark.parametrize("ci, strong", [
    ((0.76, 0.9), True), ((0.75, 0.9), False), ((0.1, 0.24), True), ((0.1, 0.25), False), ((0.4, 0.6), False),
    (None, False),
])
def test_strong_is_an_interval_wholly_outside(ci, strong):
    assert cue_kinds.is_strong(ci) is strong


def test_every_surface_cue_has_a_kind_and_a_meaning():
    from performers.catalog import SURFACE_CUES

    assert set(SURFACE_CUES) == set(cue_kinds.KINDS)
    assert set(cue_kinds.KINDS.values()) == set(cue_kinds.MEANINGS) == set(cue_kinds.ORDER)


@pytest.mark.parametrize("kind, cues_given, ok", [
    ("nuisance", ["length", "edit-words"], True),
    ("target-only", ["length", "edit-words"], False),  # no cue of that kind among those
    ("fluency", ["length"], False),  # no such kind
])
def test_a_kind_no_cue_has_is_a_usage_error(kind, cues_given, ok):
    if ok:
        cue_kinds.check_kind(kind, cues_given)
    else:
        with pytest.raises(UsageError) as error:
            cue_kinds.check_kind(kind, cues_given)
        assert error.value.key == "--kind"


def test_the_api_audits_with_the_same_vocabulary():
    from arena.api import audit_cues
    from tests.conftest import DATA, require_shared

    root = require_shared(DATA / "distil-lingeval")
    (table,) = audit_cues(root / "polarity_affix_del.mt", cues=["length", "edit-words"], kinds=["nuisance"])
    assert set(table["cues"]) == {"length"} and table["kinds"] == ["nuisance"] and table["confounded"] is True
    with pytest.raises(UsageError):
        audit_cues(root / "polarity_affix_del.mt", cues=["length"], kinds=["target-only"])
