"""The double-sampling estimator of a validation sample, and the sensitivity band of the Rogan–Gladen
verdict where there is none."""

from __future__ import annotations

import pytest

from arena.stats import fp_adjust, fp_band
from arena.stats.false_positive_records import ClusteredRate, FalsePositiveRow, Rate
from arena.stats.fp_validation import METHOD, Validation, corrected
from arena.stats.rogan_gladen import Calibration


def validation(n_f: int, a_f: int, n_u: int, a_u: int, flagged: int = 100, unflagged: int = 900) -> Validation:
    return Validation("nmt", "z", flagged, unflagged, n_f, a_f, n_u, a_u)


@pytest.mark.parametrize("count, n, labels, expected", [
    (10, 100, (10, 10, 10, 0), 0.10),  # a perfect detector: the flagged share
    (10, 100, (10, 5, 10, 0), 0.05),  # half its firings are wrong
    (10, 100, (10, 10, 10, 1), 0.10 + 0.9 * 0.1),  # it misses one in ten of the unflagged
    (0, 100, (0, 0, 20, 2), 0.10),  # never fired: the rate among the unflagged
])
def test_point_is_flagged_share_times_ppv_plus_unflagged_share_times_false_omission(count, n, labels, expected):
    flagged = 0 if count == 0 else 100
    result = corrected(count, n, validation(*labels, flagged=flagged))
    assert result["rate"] == pytest.approx(expected)
    low, high = result["ci95"]
    assert low <= result["rate"] <= high and result["method"] == METHOD


def test_a_small_validation_sample_widens_the_interval():
    small, large = corrected(20, 200, validation(4, 3, 4, 1)), corrected(20, 200, validation(100, 75, 100, 25))
    assert small["rate"] == pytest.approx(large["rate"])
    width = [r["ci95"][1] - r["ci95"][0] for r in (small, large)]
    assert width[0] > 2 * width[1] and small["variance"] > large["variance"]
    assert small["sensitivity"] == pytest.approx(0.1 * 0.75 / small["rate"])


@pytest.mark.parametrize("labels, flagged", [((0, 0, 0, 0), 100), ((5, 5, 0, 0), 100), ((0, 0, 5, 0), 100)])
def test_no_estimate_without_labels_in_every_phase(labels, flagged):
    assert corrected(10, 100, validation(*labels, flagged=flagged)) is None


def row(count: float = 4, n: int = 200, error: float = 0.15) -> FalsePositiveRow:
    return FalsePositiveRow(
        "nmt", "z", "p", "human", "wrong",
        contrastive_error=ClusteredRate(error * 300, 300, 300, error, (error - 0.04, error + 0.04), 0.0004),
        generative=Rate(count, n, count / n, (0.0, 0.1)), distributional_discrepancy=None,
        generative_used="run", p_value=0.001, verdict="exceeds",
    )


def test_validation_labels_take_over_from_rogan_gladen_and_carry_no_band():
    labels = {("nmt", "z"): validation(10, 10, 10, 0)}
    (validated,) = fp_adjust.adjust([row()], {"z": Calibration(900, 1000, 5, 1000)}, validations=labels)
    assert validated.generative_corrected["method"] == METHOD
    assert validated.sensitivity_band is None and validated.flips_in_band is None
    assert "labels 10+10" in fp_adjust.cell(validated.generative_corrected, "generative_corrected")
    assert "validation sample" in fp_adjust.legend([validated])
    other = {("other", "z"): validation(10, 10, 10, 0)}  # another Claude's labels do not apply
    (unvalidated,) = fp_adjust.adjust([row()], {"z": Calibration(900, 1000, 5, 1000)}, validations=other)
    assert unvalidated.generative_corrected["method"] == fp_adjust.ROGAN_GLADEN


@pytest.mark.parametrize("calibration, error, flips", [
    (Calibration(900, 1000, 5, 1000), 0.15, False),  # far above any corrected rate: no flip
    (Calibration(900, 1000, 5, 1000), 0.01, True),  # close to it: equivalent at some rates, undecided at others
    (Calibration(250, 1000, 0, 1000), 0.15, True),  # recall 0.15-0.35: 2% observed corrects to 5.7%-13.3%
])
def test_verdicts_that_flip_inside_the_band(calibration, error, flips):
    (adjusted,) = fp_adjust.adjust([row(count=4, n=200, error=error)], {"z": calibration})
    band = adjusted.sensitivity_band
    assert adjusted.flips_in_band is flips
    assert band["recall"] == pytest.approx([calibration.recall - 0.1, calibration.recall + 0.1])
    assert band["false_alarm_rate"] == pytest.approx([calibration.false_alarm_rate / 2, calibration.false_alarm_rate * 2])
    assert fp_band.outcome(adjusted.verdict_corrected) in band["verdicts"] and (len(band["verdicts"]) > 1) is flips
    low, high = band["rate"]
    assert low <= adjusted.generative_corrected["rate"] <= high
    assert fp_band.ASSUMPTION in fp_adjust.legend([adjusted])
    assert fp_adjust.cell(adjusted.flips_in_band, "flips_in_band") == ("yes" if flips else "no")


def test_band_stays_within_zero_and_one():
    points = fp_band.grid(Calibration(95, 100, 60, 100))
    assert max(r for r, _ in points) == 1.0 and max(f for _, f in points) == 1.0


@pytest.mark.parametrize("verdict, expected", [
    ("undecided (n ≈ 300 would decide)", "undecided"), ("equivalent (±5)", "equivalent"),
    ("exceeds", "exceeds"), ("undecided", "undecided"),
])
def test_a_verdict_detail_that_moves_with_the_rates_is_no_flip(verdict, expected):
    assert fp_band.outcome(verdict) == expected
