"""S net of cues: the cue-stratified S (strata weighted equally, ties split), its undefined cases,
which rounds get a stratum, and the metric in scores.json (streamed equal to the reference)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from arena import length_cue
from arena.records import Judgement
from arena.stats import cues
from arena.stats.cue_items import CueItem
from arena.stats.cue_strata import Collector
from arena.stats.stratify import stratified

KEYS = [f"i{k}" for k in range(40)]


@pytest.mark.parametrize("text, tokens", [
    ("Das Haus ist groß.", 5),  # four words and a full stop
    ("Er sagte: „Nein!“", 7),  # every quotation mark and punctuation mark a token of its own
    ("3,5 Mio. Euro", 6),  # digits are word characters; the comma and the full stop tokens
    ("  ", 0),
    ("", 0),
    ("Straße—Weg…", 4),  # the dash and the ellipsis between words
])
def test_lengths_count_the_tokens_words_lists(text, tokens):
    assert length_cue.lengths(text) == (len(text), tokens) == (len(text), len(length_cue.words(text)))


@pytest.mark.parametrize("correct, strata, expected", [
    # a Claude that follows the cue: right where it is right, wrong where it is wrong -> chance
    ([1.0] * 20 + [0.0] * 20, [1.0] * 20 + [0.0] * 20, 0.5),
    # always right: 1 in both strata
    ([1.0] * 40, [1.0] * 20 + [0.0] * 20, 1.0),
    # right on 30 of the cue's 30 right pairs, on none of its 10 wrong ones: the strata weigh equally
    ([1.0] * 30 + [0.0] * 10, [1.0] * 30 + [0.0] * 10, 0.5),
    # ties split evenly: 20 ties (½ in each stratum), 10 right, 10 wrong, always correct
    ([1.0] * 40, [0.5] * 20 + [1.0] * 10 + [0.0] * 10, 1.0),
])
def test_stratified_s(correct, strata, expected):
    value, ci, note = stratified(KEYS, np.array(correct), np.array(strata), 200)
    assert note is None and value == pytest.approx(expected)
    assert ci is not None and ci[0] <= value + 1e-9 and value - 1e-9 <= ci[1]
    assert stratified(KEYS, np.array(correct), np.array(strata), 0)[1] is None  # no samples, no interval


@pytest.mark.parametrize("strata, side", [
    ([1.0] * 40, "wrong"),  # the cue is always right: nothing to stratify
    ([1.0] * 31 + [0.0] * 9, "wrong"),  # 9 < 10
    ([0.0] * 35 + [1.0] * 5, "right"),  # a reversed cue: few right
])
def test_undefined_with_the_reason(strata, side):
    value, ci, note = stratified(KEYS, np.ones(40), np.array(strata), 100)
    assert value is None and ci is None and f"pairs {side}" in note and "< 10" in note


def rounds(kind: str, n: int, seed: int = 0) -> list[dict]:
    """rounds.jsonl records of one Zellig: ``deletion`` pairs (the corrupted side shorter: a length
    cue) or ``swap`` pairs (equal length)."""
    rng = random.Random(seed)
    records = []
    for i in range(n):
        correct = f"Das Haus {i} steht da, weil es regnet."
        corrupted = f"Das Haus {i} steht da." if kind == "deletion" else f"Das Baum {i} steht da, weil es regnet."
        side = rng.randrange(2)
        candidates = [corrupted, correct] if side == 0 else [correct, corrupted]
        records.append({"round": f"1|{kind}{i}", "seed": 1, "john": "j", "zellig": kind, "status": "ok",
                        "instance": {"id": str(i), "source": "s", "reference": correct},
                        "variant": {"text": corrupted, "phenomenon": kind}, "candidates": candidates,
                        "corrupted": side})
    return records


@pytest.mark.parametrize("kind, n, defined", [
    ("deletion", 60, True),  # a strong nuisance cue on enough pairs
    ("deletion", 20, False),  # too few pairs for a verdict
    ("swap", 60, False),  # no length cue
])
def test_which_rounds_get_a_stratum(kind, n, defined):
    collector = Collector()
    for record in rounds(kind, n):
        collector.add_record(record)
    strata = collector.strata()
    assert bool(strata) is defined
    if defined:
        assert len(strata) == n and set(strata.values()) <= {0.0, 0.5, 1.0}


def test_left_out_rounds_and_balanced_johns():
    collector = Collector(balanced_johns=["j"])
    records = rounds("deletion", 40)
    records[0] = {**records[0], "status": "balanced_out"}
    records[1] = {**records[1], "counts": False}
    for record in records:
        collector.add_record(record)
    ((table, phenomenon), positions), = collector.tables().items()
    assert table == "deletion (balanced John j)" and phenomenon == "deletion" and len(positions) == 38


class LengthOnTexts:
    """The length cue fitted on and judging the pairs' texts (the features counted anew each fold)."""

    def __init__(self) -> None:
        self.weights: list[float] = []

    def fit(self, pairs, corrupted) -> None:
        self.weights = length_cue.fit(pairs, corrupted)

    def judge(self, pairs) -> list[Judgement]:
        margins = [length_cue.margin(self.weights, pair) for pair in pairs]
        return [Judgement(None if m == 0 else int(m > 0)) for m in margins]


@pytest.mark.parametrize("kind, n", [("deletion", 60), ("swap", 60), ("mixed", 200)])
def test_the_features_counted_once_score_as_the_texts_do(kind, n):
    """The collector keeps each pair's length features, not its texts: the cue's out-of-fold score on
    them equals, to the last digit, the score of the cue fitted on the texts (:func:`cues.score_cue`)."""
    records = (rounds("deletion", n // 2) + rounds("swap", n // 2, seed=1) if kind == "mixed" else rounds(kind, n))
    records = [{**r, "zellig": "z", "variant": {**r["variant"], "phenomenon": "p"}} for r in records]
    collector = Collector()
    for record in records:
        collector.add_record(record)
    ((_, positions),) = collector.tables().items()
    items = [CueItem(r["round"], r["instance"]["id"], "", r["candidates"][1 - r["corrupted"]],
                     r["candidates"][r["corrupted"]], "z", "p") for r in records]
    on_texts = cues.score_cue("length", LengthOnTexts(), LengthOnTexts, items, 5, 0)
    assert collector.score(positions) == on_texts


def test_scores_json_carries_it_streamed_and_in_memory_alike(tmp_path):
    """A run on Ding pairs (the length cue strong, wrong on enough pairs): every cell has S net of cues
    with its interval, and the streamed scores equal the in-memory reference."""
    from arena.cli import main
    from arena.codec import dump
    from arena.stats import schema, streamed
    from tests.arena.stats.oracle import score_run_in_memory
    from tests.conftest import DATA, require_shared

    distil = require_shared(DATA / "distil-lingeval")
    config = tmp_path / "c.yaml"
    config.write_text(f"""name: net
johns: [{{name: distil-lingeval, alias: ding, params: {{dir: {distil}/placeholder_ding.human, limit: 300}}}}]
zelligs: [{{name: replay}}]
claudes: [{{name: 'tests.arena.engine.helpers:HashScorer', alias: nmt}}, {{name: random}}]
seeds: [1]
bootstrap_samples: 50
""", encoding="utf-8")
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress", "--no-1best"]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    scores = json.loads((run_dir / "scores.json").read_text(encoding="utf-8"))
    schema.validate(scores)
    for cell in scores["cells"]:
        assert cell["s_net_of_cues"] is not None and len(cell["s_net_of_cues_ci95"]) == 2, cell["claude"]
        low, high = cell["s_net_of_cues_ci95"]
        assert low <= cell["s_net_of_cues"] <= high
    assert dump(score_run_in_memory(run_dir)) == dump(streamed.score_run(run_dir))
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "S net of cues" in report and "cue-neutral" not in report
