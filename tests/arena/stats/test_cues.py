"""The cue audit: out-of-fold accuracy grouped by instance, reproducible by seed; sets a cue must
and must not confound; unfittable cues say why; controlled figures."""

from __future__ import annotations

import random

import pytest

from arena.codec import dump
from arena.stats import cue_controls, cue_items, cues
from arena.stats.cue_items import CueInput, CueItem
from performers.claude.edit_words import EditWordsClaude
from performers.claude.length import LengthClaude
from tests.conftest import DATA, require_shared

FACTORIES = {"length": LengthClaude, "edit-words": EditWordsClaude}
WORDS = ["Haus", "Baum", "Hund", "Welt", "Zeit", "Stadt", "Frau", "Mann", "Kind", "Auto", "Buch", "Land"]


def items(kind: str, n: int = 60, per_group: int = 2) -> list[CueItem]:
    """Synthetic tables: ``deletion`` (the corrupted side lost a clause: a length cue),
    ``swap`` (equal-length words swapped at random: no cue a surface Claude can learn)."""
    rng = random.Random(kind)
    result = []
    for i in range(n):
        a, b = rng.sample(WORDS, 2)
        correct = f"Das {a} steht neben dem {b}, weil es regnet."
        if kind == "deletion":
            corrupted = f"Das {a} steht neben dem {b}."
        else:
            c = rng.choice([w for w in WORDS if len(w) == len(a) and w != a] or [a])
            corrupted = f"Das {c} steht neben dem {b}, weil es regnet."
            if rng.random() < 0.5:
                correct, corrupted = corrupted, correct
        result.append(CueItem(f"{kind}{i}", f"g{i // per_group}", "src", correct, corrupted, kind, kind))
    return result


@pytest.mark.parametrize("kind, confounded, strongest_at_least", [
    ("deletion", True, 0.95),
    ("swap", False, 0.0),
])
def test_confounded_or_not(kind, confounded, strongest_at_least):
    (table,) = cues.audit(CueInput(items(kind)), FACTORIES, seed=3)
    assert table.confounded is confounded
    assert table.cues[table.strongest].accuracy >= strongest_at_least
    if not confounded:
        assert all(s.accuracy < 0.75 for s in table.cues.values())
        assert table.hard()  # the pairs the strongest cue misses or ties


def test_equal_length_pairs_tie_for_the_length_cue():
    (table,) = cues.audit(CueInput(items("swap")), {"length": LengthClaude})
    score = table.cues["length"]
    assert all(score.ties) and 0.3 < score.accuracy < 0.7 and not table.confounded


def test_reproducible_by_seed_and_folds_grouped_by_instance():
    data = CueInput(items("swap", n=80, per_group=4))
    first = [dump(t.record()) for t in cues.audit(data, FACTORIES, seed=7)]
    assert first == [dump(t.record()) for t in cues.audit(data, FACTORIES, seed=7)]
    fold_of = cues.fold_assignment([item.group for item in data.items], 5, seed=7)
    by_group: dict[str, set[int]] = {}
    for item, fold in zip(data.items, fold_of):
        by_group.setdefault(item.group, set()).add(fold)
    assert all(len(folds) == 1 for folds in by_group.values()) and len(set(fold_of)) == 5


@pytest.mark.parametrize("table_items, reason", [
    (items("deletion", n=9), "n < 10"),
    ([CueItem(f"x{i}", "one", "s", "Er kam, weil.", "Er kam.", "t", "t") for i in range(12)], "one instance"),
])
def test_unfittable_cues_say_why(table_items, reason):
    (table,) = cues.audit(CueInput(table_items), FACTORIES)
    for score in table.cues.values():
        assert score.accuracy is None and reason in score.unfittable
        assert dump(score)["unfittable"]
    assert table.strongest is None and not table.confounded


def test_json_shape():
    (table,) = cues.audit(CueInput(items("deletion")), FACTORIES)
    data = dump(table.record())
    assert {"n", "cues", "strongest", "confounded", "strong", "kinds", "enough"} <= data.keys() and data["n"] == 60
    # deletions: the length cue and the deleted words (edit-identity) both solve it
    assert data["strong"] == ["length", "edit-words"] and data["kinds"] == ["nuisance", "edit-identity"]
    assert data["enough"] is True and data["confounded"] is True
    assert any("length" in name for name in data["cues"]) and data["strongest"] in data["cues"]
    low, high = data["cues"]["length"]["ci"]
    assert low <= data["cues"]["length"]["accuracy"] <= high and isinstance(data["confounded"], bool)


def test_a_run_sets_each_claude_beside_the_cue_on_all_and_on_the_cue_hard_pairs():
    """A Claude that only follows the cue loses to it on no pair; one that is always right wins
    every cue-hard pair (the paired test on the cue-hard pairs says so)."""
    table_items = items("deletion", n=100)
    rng = random.Random(1)
    flipped = [CueItem(i.id, i.group, i.source, i.corrupted, i.correct, i.set, i.phenomenon)
               if rng.random() < 0.3 else i for i in table_items]  # the length cue now right ~70%
    better = {i.id: 1.0 for i in flipped}
    (table,) = cues.audit(CueInput(flipped, claudes={"nmt": better}), {"length": LengthClaude})
    (row,) = table.comparisons
    hard = row["hard"]
    assert hard["n"] == len(table.hard()) > 10 and hard["wins"] == hard["n"] - sum(
        table.cues["length"].hits[i] for i in table.hard()) and hard["losses"] == 0 and hard["p"] < 0.05
    assert row["p"] < 0.05 and not table.confounded  # ~0.7 is not strong


@pytest.mark.parametrize("wins, losses, expected", [(0, 0, 1.0), (5, 5, 1.0), (10, 0, 2 / 2**10)])
def test_sign_test(wins, losses, expected):
    assert cues.sign_test(wins, losses) == pytest.approx(expected)


def test_controlled_figures_and_inseparable_note():
    table_items = items("deletion", n=40)
    claude = {i.id: 1.0 for i in table_items}
    data = CueInput(table_items, claudes={"nmt": claude}, contrastive={"nmt": claude})
    (table,) = cues.audit(data, {"length": LengthClaude})
    figures = cue_controls.controlled(table, data)
    assert figures["hard_n"] == 0 and figures["note"] == cue_controls.INSEPARABLE
    row = figures["claudes"][0]
    assert row["all"]["s"] == {"n": 40, "value": 1.0} and row["hard"]["s"] == {"n": 0, "value": None}
    assert sum(figures["bin_n"].values()) == 40 and figures["bin_n"]["< -10"] == 40


@pytest.mark.parametrize("correct, corrupted, expected", [
    ("Er kam.", "Er kam.", "0"), ("Er kam.", "Er.", "-10..-1"), ("Er.", "Er kam gestern nicht.", "> 10"),
])
def test_length_bins(correct, corrupted, expected):
    assert cue_controls.length_bin(CueItem("i", "g", "", correct, corrupted, "s", "p")) == expected


def test_shared_sets_one_confounded_one_not():
    """polarity_affix_del.mt: the length cue solves it; np_agreement.mt pairs of equal length: it cannot."""
    root = require_shared(DATA / "distil-lingeval")
    affix = cue_items.from_distil_lingeval(root / "polarity_affix_del.mt")
    (table,) = cues.audit(affix, {"length": LengthClaude})
    assert table.confounded and table.cues["length"].accuracy > 0.95
    agreement = cue_items.from_distil_lingeval(root / "np_agreement.mt")
    equal = [i for i in agreement.items if len(i.correct) == len(i.corrupted)][:400]
    assert len(equal) >= 100
    (table,) = cues.audit(CueInput(equal), {"length": LengthClaude})
    assert not table.confounded and table.cues["length"].ci[0] < 0.5 < table.cues["length"].ci[1]


def test_shared_sets_kinds_and_a_set_cut_to_10_pairs():
    """The Done-when of issue 34 on the sets in ../shared/data: clause omission and a polarity deletion
    are confounded by a nuisance cue; Ding adds edit-identity; a set cut to 10 pairs gets no verdict."""
    root = require_shared(DATA / "distil-lingeval")
    factories = {"length": LengthClaude, "edit-words": EditWordsClaude}
    for name, kinds in (("clause_omission.mt", ["nuisance", "edit-identity"]),
                        ("polarity_particle_kein_del.mt", ["nuisance", "edit-identity"]),
                        ("placeholder_ding.mt", ["nuisance", "edit-identity"])):
        data = cue_items.from_distil_lingeval(root / name)
        (table,) = cues.audit(CueInput(data.items[:300]), factories)
        assert dump(table.record())["kinds"] == kinds and dump(table.record())["confounded"] is True, name
    clauses = cue_items.from_distil_lingeval(root / "clause_omission.mt")
    (cut,) = cues.audit(CueInput(clauses.items[:10]), factories)
    data = dump(cut.record())
    assert data["n"] == 10 and data["enough"] is False and data["confounded"] is False
