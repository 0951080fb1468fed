"""Rogan–Gladen correction of generative rates and the adjusted false-positive verdicts."""

from __future__ import annotations

import pytest

from arena.stats import fp_adjust
from arena.stats.false_positive_records import ClusteredRate, FalsePositiveRow, Rate
from arena.stats.rogan_gladen import Calibration, corrected, point

PERFECT = Calibration(1000, 1000, 0, 1000)
STRONG = Calibration(950, 1000, 5, 1000)
WEAK = Calibration(4, 20, 0, 20)


@pytest.mark.parametrize("observed, recall, false_alarm, expected", [
    (0.3, 1.0, 0.0, 0.3),
    (0.1, 0.5, 0.0, 0.2),
    (0.01, 0.9, 0.02, 0.0),  # fewer detections than false alarms: clipped at 0
    (0.9, 0.5, 0.0, 1.0),  # clipped at 1
    (0.3, 0.1, 0.1, None),  # no information
    (0.3, 0.05, 0.1, None),
])
def test_point(observed, recall, false_alarm, expected):
    assert point(observed, recall, false_alarm) == (None if expected is None else pytest.approx(expected))


def test_interval_contains_the_estimate_and_widens_with_a_weak_detector():
    strong, weak = corrected(10, 200, STRONG), corrected(10, 200, WEAK)
    for result in (strong, weak):
        low, high = result["ci95"]
        assert low <= result["rate"] <= high
    assert weak["rate"] == pytest.approx(0.25)  # 5% observed / 20% recall
    assert (weak["ci95"][1] - weak["ci95"][0]) > 3 * (strong["ci95"][1] - strong["ci95"][0])
    assert weak["variance"] > strong["variance"]
    assert corrected(10, 200, STRONG) == strong  # seeded


@pytest.mark.parametrize("calibration, n", [(Calibration(0, 0, 0, 10), 100), (STRONG, 0),
                                            (Calibration(1, 10, 5, 10), 100)])
def test_no_correction(calibration, n):
    assert corrected(1, n, calibration) is None


def row(verdict: str = "exceeds", count: float = 1, n: int = 200) -> FalsePositiveRow:
    return FalsePositiveRow(
        "nmt", "z", "p", "human", "wrong",
        contrastive_error=ClusteredRate(45.0, 300, 300, 0.15, (0.11, 0.19), 0.0004),
        generative=Rate(count, n, count / n, (0.0, 0.1)), distributional_discrepancy=None,
        generative_used="run", p_value=0.001, verdict=verdict,
    )


@pytest.mark.parametrize("calibration, expected", [
    (PERFECT, "exceeds"),  # an exact detector keeps the verdict
    (Calibration(2, 20, 0, 20), "undecided (n ≈"),  # a detector finding 10% of 20: the interval swallows the gap
])
def test_weak_detector_makes_the_corrected_verdict_undecided(calibration, expected):
    (adjusted,) = fp_adjust.adjust([row(count=4)], {"z": calibration})
    assert adjusted.verdict_corrected.startswith(expected) and adjusted.verdict == "exceeds"  # raw kept beside it
    assert adjusted.generative_corrected["recall"] == calibration.recall


CONFOUNDING = {"name": "length", "accuracy": 1.0, "ci": (0.98, 1.0), "kinds": ["nuisance"], "enough": True}


@pytest.mark.parametrize("cue, verdict, kinds", [
    (CONFOUNDING, "exceeds", ("nuisance",)),
    (CONFOUNDING, "equivalent (±5)", ("nuisance",)),
    ({**CONFOUNDING, "kinds": ["nuisance", "edit-identity"]}, "undecided (n ≈ 400 would decide)",
     ("nuisance", "edit-identity")),
    ({"name": "length", "accuracy": 0.52, "ci": (0.45, 0.6), "kinds": [], "enough": True}, "exceeds", ()),
    ({**CONFOUNDING, "enough": False}, "exceeds", ("too few pairs",)),
])
def test_the_cue_sits_beside_the_verdict_never_replacing_it(cue, verdict, kinds):
    (adjusted,) = fp_adjust.adjust([row(verdict)], cues={("z", "p"): cue})
    assert adjusted.verdict == verdict and adjusted.cue["name"] == "length" and adjusted.cue_kinds == kinds
    assert fp_adjust.cell(adjusted.cue, "cue").startswith("length ")
    assert fp_adjust.cell(adjusted.cue_kinds, "cue_kinds") == (", ".join(kinds) or "-")
