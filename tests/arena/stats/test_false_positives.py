"""The false-positive report: rates, intervals, the verdict, replicas, the pool, the CLI and the plot."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from arena.cli import main
from arena.codec import dump
from arena.record.rounds import JudgementRecord, OneBest, Round
from arena.records import Instance, Variant
from arena.stats import aggregate, false_positives, outcome_tests
from arena.stats.aggregate import greater_p_value, ratio_variance, wilson_ci

# -- statistics ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "successes, n, low, high",
    [
        (0, 10, 0.0, 0.2775),  # Wilson (1927) with z = 1.96: 3.84 / 13.84
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_interval(successes, n, low, high):
    interval = wilson_ci(successes, n)
    assert interval == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_of_nothing_is_none():
    assert wilson_ci(0, 0) is None


def test_wilson_bounds_are_exact_at_the_ends():
    assert wilson_ci(0, 500)[0] == 0.0 and wilson_ci(500, 500)[1] == 1.0


def test_plot_survives_intervals_that_miss_their_estimate(tmp_path):
    from arena.present.plots import false_positives as plot
    from arena.stats.false_positive_records import ClusteredRate, FalsePositiveRow, Rate

    row = FalsePositiveRow(
        "nmt", "ding", "placeholder_ding", "human", "wrong",
        ClusteredRate(15.0, 50, 50, 0.30, (0.31, 0.40), 0.004),  # a percentile bootstrap may do this
        Rate(0.0, 50, 0.0, (1e-18, 0.07)), None,
    )
    path = plot([row], tmp_path / "plot.png")
    assert path.stat().st_size > 0


def test_ratio_variance():
    # one round per instance: the binomial variance with the small-sample factor m / (m - 1)
    sums, counts = np.array([1.0] * 30 + [0.0] * 70), np.ones(100)
    assert ratio_variance(sums, counts) == pytest.approx(0.3 * 0.7 / 100 * 100 / 99)
    # the same rate from clustered rounds (all-or-nothing instances) has a larger variance
    clustered = ratio_variance(np.array([5.0] * 6 + [0.0] * 14), np.full(20, 5.0))
    assert clustered > ratio_variance(sums, counts)
    assert ratio_variance(np.array([1.0]), np.array([1.0])) == 0.0


def test_greater_p_value():
    assert greater_p_value(0.3, 0.001, 0.05, 0.0005) < 0.001
    assert greater_p_value(0.05, 0.001, 0.3, 0.0005) > 0.999
    assert greater_p_value(0.1, 0.001, 0.1, 0.001) == pytest.approx(0.5)
    assert greater_p_value(0.1, 0.0, 0.1, 0.0) == 1.0
    assert greater_p_value(0.2, 0.0, 0.1, 0.0) == 0.0
    # z = 1.6449 is the 95% one-sided quantile
    assert greater_p_value(1.6449, 0.5, 0.0, 0.5) == pytest.approx(0.05, abs=1e-4)


# -- rows from synthetic transcripts -------------------------------------------------------------


def report_rows(*args, **kwargs) -> list[dict]:
    """The report's rows as its JSON writes them."""
    return [dump(row) for row in false_positives.report_rows(*args, **kwargs)]


def outcomes_for(
    errors: list[bool], detected: list[bool], kind: str = "human", seed: int = 1, replica: int | None = None,
    claude: str = "nmt", zellig: str = "ding", prefix: str = "",
) -> tuple[list[aggregate.Outcome], list[OneBest]]:
    """One round per item: the corrupted candidate scores higher when ``errors[i]``; the 1-best of its
    source shows the phenomenon when ``detected[i]``."""
    outcomes, one_bests = [], []
    for i, (error, found) in enumerate(zip(errors, detected)):
        source = f"{prefix}source {i}"
        instance = Instance(f"{prefix}{i}", source, f"Referenz {i}.", {"reference_kind": kind})
        variant = Variant(instance.id, f"Ding {i}.", "placeholder_ding")
        round_ = Round(f"{seed}|{prefix}{i}", seed, kind, zellig, instance, variant,
                       (instance.reference, variant.text), 1)
        scores = (-1.0, -0.5) if error else (-0.5, -1.0)
        judgement = JudgementRecord(round_.id, claude, 0 if error else 1, 0 if error else 1, "claude",
                                    not error, scores)
        one_best = OneBest(claude, source, "Übersetzung.", -2.0, 4, {zellig: found}, "mean", replica)
        one_bests.append(one_best)
        outcomes.append(aggregate.Outcome(round_, judgement, one_best))
    return outcomes, one_bests


EXCEEDS, UNDECIDED = outcome_tests.EXCEEDS, outcome_tests.UNDECIDED
EQUIVALENT = outcome_tests.equivalent_words(0.05)


@pytest.mark.parametrize(
    "errors, detected, verdict",
    [
        (40, 2, EXCEEDS),  # 40% errors, the model almost never produces it
        (10, 9, UNDECIDED),  # errs about as often as it produces it, but 100 pairs do not show ±5 points
        (5, 20, UNDECIDED),  # produces it more often than the test says: no n decides
        (0, 0, EQUIVALENT),  # 0 of 100 against 0 of 100 (with the pseudo-counts): within ±5 points
        (3, 0, UNDECIDED),  # 3 of 100 against 0 of 100: not significant, not shown equivalent
    ],
)
def test_verdict(errors, detected, verdict):
    outcomes, one_bests = outcomes_for([i < errors for i in range(100)], [i < detected for i in range(100)])
    (row,) = report_rows({}, {"nmt": outcomes}, one_bests)
    assert row["verdict"].startswith(verdict) and outcome_tests.is_outcome(row["verdict"])
    assert row["contrastive_error"]["n"] == 100 and row["contrastive_error"]["rate"] == errors / 100
    assert row["generative"]["n"] == 100 and row["generative"]["rate"] == detected / 100
    assert row["gap"] == pytest.approx((errors - detected) / 100)
    low, high = row["contrastive_error"]["ci95"]
    assert low <= errors / 100 <= high


def test_rows_split_by_reference_kind_and_a_zellig_without_detector():
    human, best_h = outcomes_for([True] * 10, [False] * 10, "human", prefix="h")
    machine, best_m = outcomes_for([False] * 10, [False] * 10, "machine", prefix="m")
    blind, best_b = outcomes_for([True] * 5, [False] * 5, "human", zellig="clause", prefix="b")
    best_b = [OneBest(o.claude, o.source, o.translation, o.logprob, o.tokens, {}) for o in best_b]
    rows = report_rows({}, {"nmt": human + machine + blind}, best_h + best_m + best_b)
    by_key = {(r["zellig"], r["reference_kind"]): r for r in rows}
    assert by_key["ding", "human"]["contrastive_error"]["rate"] == 1.0
    assert by_key["ding", "machine"]["contrastive_error"]["rate"] == 0.0
    assert by_key["clause", "human"]["verdict"] == false_positives.NO_DETECTOR
    assert by_key["clause", "human"]["generative"] is None


def test_too_few_items_are_undecided_with_the_n_that_would_decide():
    outcomes, best = outcomes_for([True] * 5, [False] * 5)
    (row,) = report_rows({}, {"nmt": outcomes}, best)
    assert row["verdict"] == "undecided (n ≈ 10 would decide)" and row["gap"] == 1.0


def test_pairs_of_one_instance_are_one_cluster():
    outcomes, best = outcomes_for([True] * 30 + [False] * 70, [False] * 100)
    clustered = [
        aggregate.Outcome(
            Round(o.round.id, o.round.seed, o.round.john, o.round.zellig,
                  Instance(f"i{index // 10}", f"source {index // 10}", "Referenz.", o.round.instance.meta),
                  o.round.variant, o.round.candidates, o.round.corrupted),
            o.judgement, o.one_best)
        for index, o in enumerate(outcomes)
    ]
    (independent,) = report_rows({}, {"nmt": outcomes}, best)
    (grouped,) = report_rows({}, {"nmt": clustered}, best)
    assert grouped["contrastive_error"]["rate"] == independent["contrastive_error"]["rate"] == 0.3
    assert grouped["contrastive_error"]["instances"] == 10
    assert grouped["contrastive_error"]["variance"] > independent["contrastive_error"]["variance"]


def test_seeds_of_one_model_count_each_pair_and_source_once():
    first, best = outcomes_for([True, False, False, False], [True, False, False, False], seed=1)
    second, _ = outcomes_for([True, False, False, False], [True, False, False, False], seed=2)
    (row,) = report_rows({}, {"nmt": first + second}, best)
    assert row["contrastive_error"]["n"] == 4 and row["generative"]["n"] == 4
    assert "per_seed" not in row


def test_replicas_are_pooled_with_mean_and_std_over_seeds():
    first, best1 = outcomes_for([True] * 2 + [False] * 8, [False] * 10, seed=1, replica=1)
    second, best2 = outcomes_for([True] * 4 + [False] * 6, [True] + [False] * 9, seed=2, replica=2)
    (row,) = report_rows({}, {"nmt": first + second}, best1 + best2)
    assert row["contrastive_error"]["n"] == 20 and row["contrastive_error"]["rate"] == pytest.approx(0.3)
    assert row["generative"]["n"] == 20 and row["generative"]["rate"] == pytest.approx(0.05)
    assert [s["seed"] for s in row["per_seed"]] == [1, 2]
    assert row["contrastive_error_over_seeds"]["mean"] == pytest.approx(0.3)
    assert row["contrastive_error_over_seeds"]["std"] == pytest.approx(math.sqrt(0.02))


def test_ties_follow_the_policy():
    outcomes, best = outcomes_for([False] * 4, [False] * 4)
    tied = [
        aggregate.Outcome(o.round, JudgementRecord(o.judgement.round, "nmt", 0, None, "tie", False, (-1.0, -1.0)),
                        o.one_best)
        for o in outcomes
    ]
    for ties, rate in (("wrong", 1.0), ("correct", 0.0), ("half", 0.5)):
        (row,) = report_rows({"contrastive_ties": ties}, {"nmt": tied}, best)
        assert row["contrastive_error"]["rate"] == rate


def test_the_pool_decides_the_verdict():
    outcomes, best = outcomes_for([i < 10 for i in range(100)], [False] * 100)
    pool = {("nmt", None): [OneBest("nmt", f"pool {i}", "x", -1.0, 2, {"ding": i < 100}) for i in range(1000)]}
    (row,) = report_rows({}, {"nmt": outcomes}, best, pool)
    assert row["generative_pool"]["n"] == 1000 and row["generative_used"] == "pool"
    # 10% errors against a 10% pool rate of 1,000: gap 0, but 100 pairs do not show ±5 points
    assert row["verdict"].startswith(UNDECIDED) and "would decide" in row["verdict"]
    (alone,) = report_rows({}, {"nmt": outcomes}, best)
    assert alone["verdict"] == EXCEEDS  # against 0 of 100 on the run's sources


def test_a_small_pool_leaves_the_verdict_to_the_run():
    """A pool with fewer than MIN_ITEMS translations the detector applies to (a source-conditioned
    detector on unrelated sources) does not decide the verdict."""
    outcomes, best = outcomes_for([i < 40 for i in range(100)], [i < 35 for i in range(100)])
    pool = {("nmt", None): [OneBest("nmt", f"pool {i}", "x", -1.0, 2, {"ding": False} if i < 3 else {})
                            for i in range(500)]}
    (row,) = report_rows({}, {"nmt": outcomes}, best, pool)
    assert row["generative_pool"]["n"] == 3 and row["generative_used"] == "run"
    assert row["verdict"].startswith(UNDECIDED)  # 40% against the run's 35%, not the pool's 0 of 3


def test_conditional_detectors_count_only_sources_they_apply_to():
    from arena.engine.jobs import detect_all
    from arena.roles import ConditionalDetector
    from performers.zellig.clause_omission import ClauseOmissionZellig
    from performers.zellig.placeholder_ding import PlaceholderDingZellig
    from performers.zellig.polarity_affix_del import PolarityAffixDelZellig
    from performers.zellig.polarity_particle_kein_del import PolarityParticleKeinDelZellig
    from performers.zellig.polarity_particle_nicht_del import PolarityParticleNichtDelZellig

    for zellig in (ClauseOmissionZellig, PolarityAffixDelZellig, PolarityParticleKeinDelZellig,
                   PolarityParticleNichtDelZellig):
        assert issubclass(zellig, ConditionalDetector), zellig
    assert not issubclass(PlaceholderDingZellig, ConditionalDetector)
    sources = ["The answer was unclear.", "The answer was clear.", "He did not come.", "He came."]
    texts = ["Die Antwort war klar.", "Die Antwort war klar.", "Er kam.", "Er kam."]
    assert detect_all(PolarityAffixDelZellig(), texts, sources) == [True, None, None, None]
    assert detect_all(PolarityParticleNichtDelZellig(), texts, sources) == [None, None, True, None]
    assert detect_all(PlaceholderDingZellig(), texts, sources) == [False] * 4


# -- end to end: a run, a tournament with replicas, the CLI ---------------------------------------

CONFIG = """name: fp
johns:
  - {{name: distil-lingeval, alias: ding-human, params: {{dir: {distil}/placeholder_ding.human, limit: 20}}}}
  - {{name: distil-lingeval, alias: ding-mt, params: {{dir: {distil}/placeholder_ding.mt, limit: 20}}}}
zelligs:
  - {{name: "tests.arena.engine.helpers:DetectingReplay", alias: ding}}
  - {{name: replay, alias: blind}}
claudes: {claudes}
seeds: [1, 2]
bootstrap_samples: 20
"""


def make_run(tmp_path: Path, distil_dir: Path, verb: str, claudes: str, *options: str) -> Path:
    config = tmp_path / "fp.yaml"
    config.write_text(CONFIG.format(distil=distil_dir, claudes=claudes), encoding="utf-8")
    assert main([verb, str(config), "--out", str(tmp_path / "runs"), "--no-progress", *options]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    return run_dir


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, distil_dir) -> Path:
    """A finished run of a hash-scoring Claude (two seeds) with a detecting and a blind Zellig."""
    return make_run(tmp_path_factory.mktemp("fp"), distil_dir, "run",
                    "[{name: 'tests.arena.engine.helpers:HashScorer', alias: nmt}]")


def test_cli_on_a_run(run_dir, capsys):
    assert main(["false-positives", str(run_dir), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| phenomenon | zellig | refs | claude |")
    report = json.loads((run_dir / "report" / "false_positives.json").read_text(encoding="utf-8"))
    kinds = {(r["zellig"], r["reference_kind"]) for r in report["rows"]}
    assert kinds == {("ding", "human"), ("ding", "machine"), ("blind", "human"), ("blind", "machine")}
    for row in report["rows"]:
        assert row["contrastive_error"]["n"] == 20  # two seeds of one model: each pair once
        if row["zellig"] == "ding":
            assert row["generative"]["n"] == 20
            # *Ding* pairs (the audit pools both Johns: 40): the edit's own words give the corrupted side away;
            # the cue sits beside the verdict, in its own columns
            assert outcome_tests.is_outcome(row["verdict"]) and row["cue"]["accuracy"] >= 0.75
            assert "edit-identity" in row["cue_kinds"]
        else:
            assert row["verdict"] == false_positives.NO_DETECTOR
    for row in report["rows"]:
        assert all(outcome_tests.is_outcome(v) for k, v in row.items() if "verdict" in k)
    assert "consistent" not in out and "cue kinds" in out
    assert (run_dir / "report" / "false_positives.png").stat().st_size > 0
    assert (run_dir / "report" / "false_positives.md").read_text(encoding="utf-8").startswith("| phenomenon")


def test_cli_on_a_tournament_with_replicas_and_a_pool(tmp_path, distil_dir, capsys):
    claudes = ("[{name: 'tests.arena.engine.helpers:HashScorer', alias: nmt, params: {salt: base},"
               " replicas: {1: {salt: a}, 2: {salt: b}}}]")
    run_dir = make_run(tmp_path, distil_dir, "tournament", claudes, "--executor", "in-process", "--no-plots")
    pool = tmp_path / "pool.en"
    pool.write_text("".join(f"Pool sentence {i}.\n" for i in range(30)) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["false-positives", str(run_dir), "--pool-sources", str(pool), "--pool-limit", "25",
                 "--no-plot", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["pool_sources"] == 25
    ding = [r for r in report["rows"] if r["zellig"] == "ding"]
    assert len(ding) == 2
    for row in ding:
        assert row["contrastive_error"]["n"] == 40  # two replicas × 20 pairs
        assert row["generative"]["n"] == 40
        assert row["generative_pool"]["n"] == 50  # two replicas × 25 pool sources
        assert [s["seed"] for s in row["per_seed"]] == [1, 2]
        assert row["generative_used"] == "pool"
    cached = sorted((run_dir / "report").glob("pool-*/*.jsonl"))
    assert [len(path.read_text(encoding="utf-8").splitlines()) for path in cached] == [25, 25]  # one per replica
    before = [path.read_bytes() for path in cached]
    assert main(["false-positives", str(run_dir), "--pool-sources", str(pool), "--pool-limit", "25",
                 "--no-plot"]) == 0
    assert [path.read_bytes() for path in cached] == before  # read back, not translated again
    assert "generative on pool" in capsys.readouterr().out


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["false-positives", "{tmp}/nowhere"], "not a (started) run directory"),
        (["false-positives", "{run}", "--pool-sources", "{tmp}/missing.en"], "no such file"),
        (["false-positives", "{run}", "--pool-sources", "{tmp}/empty.en"], "no non-empty line"),
        (["false-positives", "{run}", "--pool-sources", "{tmp}/empty.en", "--pool-limit", "0"], "at least 1"),
        (["false-positives", "{run}", "--alpha", "1.5"], "--alpha"),
    ],
)
def test_cli_usage_errors(tmp_path, run_dir, capsys, arguments, message):
    (tmp_path / "empty.en").write_text("\n \n", encoding="utf-8")
    capsys.readouterr()
    argv = [a.format(tmp=tmp_path, run=run_dir) for a in arguments]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_table1_script_takes_its_verdicts_from_the_report(run_dir, capsys):
    """experiments/false_positives/table1.py: mean ± std per set, reference kind and Claude, with the
    verdict arena false-positives wrote (the report is built when it has not been written)."""
    import importlib.util

    script = Path(__file__).resolve().parents[3] / "experiments" / "false_positives" / "table1.py"
    spec = importlib.util.spec_from_file_location("table1", script)
    table1 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table1)
    assert main(["false-positives", str(run_dir), "--no-plot", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = table1.table(run_dir)
    assert {(r["set"], r["reference"]) for r in rows} == {("placeholder_ding", "human"), ("placeholder_ding", "MT")}
    assert {r["zellig"] for r in rows} == {"ding", "blind"}
    verdicts = {("human" if r["reference_kind"] == "human" else "MT", r["zellig"]): r["verdict"] for r in report["rows"]}
    for row in rows:
        assert row["verdict"] == verdicts[row["reference"], row["zellig"]]
        assert row["seeds"] == 2 and row["accuracy"][1] == 0  # one model: both seeds judge alike
        assert row["tested_against"].startswith("run ") or row["verdict"] == false_positives.NO_DETECTOR
    assert table1.markdown(rows).count("\n") == len(rows) + 1 and "| zellig |" in table1.markdown(rows)
    assert table1.main([str(run_dir.parent / "missing")]) == 2


@pytest.mark.parametrize("margin", ["0", "0.5", "-0.05", "nan"])
def test_a_margin_outside_0_to_half_exits_2_naming_the_key(run_dir, capsys, margin):
    assert main(["false-positives", str(run_dir), "--margin", margin, "--no-cues", "--no-plot"]) == 2
    assert "--margin" in capsys.readouterr().err


def test_the_margin_is_stated(run_dir, capsys):
    assert main(["false-positives", str(run_dir), "--margin", "0.1", "--no-cues", "--no-plot", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["margin"] == 0.1
    assert all(outcome_tests.is_outcome(r["verdict"]) for r in report["rows"])
