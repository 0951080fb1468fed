"""Numbers checked once: calibration rates (``arena tournament --plan``), performer params and
config numbers go through the same finite/positive/range types (arena/specs/typecheck.py); a
negative, NaN or infinite number is refused naming the key. What must not fire: a rate of 0, a
small positive penalty."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from arena.engine import calibration
from arena.errors import DataError
from arena.specs.typecheck import FinitePositiveFloat, NonNegativeFloat, check_value
from tests.robustness.helpers import invoke, refused, write_experiment

RATES = {"unit": "CPU", "load": 0.5, "judge_per_round": 0.0}


def write_calibration(path: Path, driver: dict | None = None, rates: dict | None = None) -> Path:
    data = {"format": 1, "date": "2026-11-27", "machine": {"cpus": 2},
            "driver": {"per_round": 0.001, "per_cell": 0.02, **(driver or {})},
            "claudes": {"oracle@1()": {**RATES, **(rates or {})}, "random@1()": dict(RATES)}}
    # json writes NaN and Infinity as the tokens Python's json module reads back
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


BAD_RATES = {
    "negative-per-round": ({"per_round": -0.001}, None, "driver.per_round", "≥ 0"),
    "nan-per-cell": ({"per_cell": math.nan}, None, "driver.per_cell", "finite number, not nan"),
    "inf-load": (None, {"load": math.inf}, "claudes.oracle@1().load", "finite number, not inf"),
    "negative-judge-rate": (None, {"judge_per_round": -1.0}, "claudes.oracle@1().judge_per_round", "≥ 0"),
    "string-rate": (None, {"score_per_word": "fast"}, "claudes.oracle@1().score_per_word", "'fast'"),
    "boolean-rate": (None, {"load": True}, "claudes.oracle@1().load", "True"),
    "unknown-unit": (None, {"unit": "TPU"}, "claudes.oracle@1().unit", "CPU, GPU"),
}


@pytest.mark.parametrize("case", list(BAD_RATES))
def test_the_planner_refuses_an_unusable_calibration_naming_the_key(tmp_path, testset, capsys, case):
    driver, rates, key, words = BAD_RATES[case]
    cal = write_calibration(tmp_path / "cal.json", driver, rates)
    with pytest.raises(DataError) as caught:
        calibration.load(cal)
    assert caught.value.key == key and words in str(caught.value)
    config = write_experiment(tmp_path / "exp.yaml", testset)
    refused(["tournament", config, "--plan", "--calibration", cal, "--out", tmp_path / "runs", "--no-progress"],
            capsys, str(cal), key, words)
    assert not (tmp_path / "runs").exists()


def test_the_planner_takes_zero_rates(tmp_path, testset, capsys):
    cal = write_calibration(tmp_path / "cal.json", {"per_cell": 0.0}, {"load": 0})
    config = write_experiment(tmp_path / "exp.yaml", testset)
    status, out, err = invoke(["tournament", config, "--plan", "--calibration", cal, "--out", tmp_path / "runs",
                               "--no-progress"], capsys)
    assert status == 0 and "-" not in out.split("estimate", 1)[-1].split("\n", 1)[0], err


@pytest.mark.parametrize("value,annotation,refused_words", [
    (math.inf, FinitePositiveFloat, "finite"), (math.nan, FinitePositiveFloat, "finite"),
    (-1.0, NonNegativeFloat, "≥ 0"), (math.inf, float, "finite"), (math.nan, float, "finite"),
    (0.0, NonNegativeFloat, None), (1e-3, FinitePositiveFloat, None), (3, float, None),
])
def test_one_set_of_number_types(value, annotation, refused_words):
    problem = check_value(value, annotation)
    assert (problem is None) if refused_words is None else (refused_words in problem)


@pytest.mark.parametrize("zellig_or_claude,words", [
    ("zelligs: [{name: adaptive, params: {zelligs: [placeholder-ding], l2: .inf}}]", "finite"),
    ("claudes: [{name: edit-aware, params: {claude: toy-en-de, l2: .inf}}]", "finite"),
    ("claudes: [{name: length, params: {l2: .nan}}]", "finite"),
    ("zelligs: [{name: transliteration, params: {max_zipf: .nan}}]", "finite number, not nan"),
    ("time_budget: {zellig_seconds: .inf}", "finite"),
    ("time_budget: {claude_seconds_per_pair: -1}", "> 0"),
])
def test_performer_params_and_config_numbers_refuse_non_finite_values(tmp_path, testset, capsys, zellig_or_claude,
                                                                    words):
    config = write_experiment(tmp_path / "exp.yaml", testset)
    text = config.read_text(encoding="utf-8")
    key = zellig_or_claude.split(":", 1)[0]
    lines = [line for line in text.splitlines() if not line.startswith(f"{key}:")]
    config.write_text("\n".join(lines) + f"\n{zellig_or_claude}\n", encoding="utf-8")
    for argv in (["validate", config], ["-q", "run", config, "--out", tmp_path / "runs"]):
        refused(argv, capsys, str(config), words)
