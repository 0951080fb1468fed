"""Detector calibrations resample correct sentences, not pairs: the design effect of the clusters, the
effective n it gives, and the wider Rogan–Gladen interval of a calibration whose sentences repeat."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arena.codec import dump, load
from arena.stats.rogan_gladen import Calibration, clusters_of, corrected, design_effect


def effect(rows):
    table = np.asarray(rows, dtype=float)
    return design_effect(table[:, 0], table[:, 1], table[:, 2])


@pytest.mark.parametrize("rows, expected", [
    ([(1, 1, 80), (1, 0, 20)], 1.0),  # one pair a sentence: no design effect
    ([(2, 2, 40), (2, 0, 10)], 2.0),  # both pairs of a sentence agree: Σm²/Σm
    ([(3, 0, 10), (1, 0, 10)], (9 * 10 + 10) / 40),  # a rate of 0: the bound of sentences that agree
    ([(2, 1, 50)], 1.0),  # every sentence splits its pairs evenly: less spread than binomial, floored at 1
])
def test_design_effect(rows, expected):
    assert effect(rows) == pytest.approx(expected)


def test_the_effective_n_has_the_spread_of_a_cluster_bootstrap_by_sentence():
    rng = np.random.default_rng(7)
    sizes = rng.choice([1, 2, 3], size=400, p=[0.7, 0.2, 0.1])
    hits = np.array([rng.binomial(m, rng.choice([0.2, 0.95])) for m in sizes])
    clusters = clusters_of(zip(sizes, hits, np.zeros_like(sizes)))
    calibration = Calibration(int(hits.sum()), int(sizes.sum()), 0, int(sizes.sum()), "", clusters)
    draws = []
    for _ in range(3000):
        pick = rng.integers(0, len(sizes), len(sizes))
        draws.append(hits[pick].sum() / sizes[pick].sum())
    recall = calibration.recall
    assert recall * (1 - recall) / calibration.effective("positives") == pytest.approx(np.var(draws), rel=0.15)
    assert calibration.effective("positives") < calibration.positives


def repeated(times: int) -> Calibration:
    """800 pairs, 600 hits, 8 false alarms, each correct sentence repeated ``times`` times."""
    clusters = ((times, times, 0, 600 // times), (times, 0, 0, 192 // times), (times, 0, times, 8 // times))
    return Calibration(600, 800, 8, 800, "", clusters)


def test_intervals_widen_when_sentences_repeat():
    pairs, once, twice = Calibration(600, 800, 8, 800), repeated(1), repeated(2)
    assert once.effective("positives") == once.positives and twice.effective("negatives") == pytest.approx(400)
    widths = [np.diff(corrected(400, 4000, c)["ci95"])[0] for c in (pairs, once, twice)]
    assert widths[0] == pytest.approx(widths[1])  # clusters of one pair change nothing
    assert widths[2] > widths[1] * 1.1
    assert corrected(30, 400, twice)["rate"] == corrected(30, 400, pairs)["rate"]  # the point stays


def test_json_round_trip_and_checks():
    calibration = repeated(2)
    data = json.loads(json.dumps(dump(calibration)))
    assert data["sentences"] == 400 and data["effective_negatives"] == 400.0
    assert load(Calibration, data) == Calibration(*[getattr(calibration, f) for f in
                                                    ("hits", "positives", "false_alarms", "negatives", "source",
                                                     "clusters")])
    with pytest.raises(ValueError, match="add up"):
        load(Calibration, {**data, "hits": 601})
    with pytest.raises(ValueError, match="clusters.0"):
        load(Calibration, {**data, "clusters": [[1, 2, 3]]})
    assert "clusters" not in dump(Calibration(1, 2, 0, 2))  # a version-1 entry has no clusters


def test_shipped_calibration_is_version_2_with_sentences():
    from performers.zellig import detector_calibration

    data = json.loads(detector_calibration.PATH.read_text(encoding="utf-8"))
    assert data["version"] == 2
    np_agreement = load(Calibration, data["detectors"]["np-agreement"])
    assert np_agreement.sentences < np_agreement.positives  # a correct sentence per ~1.4 variants
    for name, entry in data["detectors"].items():
        calibration = load(Calibration, entry)
        # the insertions are measured on their own variants of newstest references, one per reference
        assert bool(calibration.clusters) == ("self-made" not in calibration.source), name
        assert calibration.effective("positives") <= calibration.positives
