"""``arena transfer`` end to end on fake scoring Claudes (no model): the expanded Zelligs,
the matrix's shape, a transfer ratio of 1 against an identical copy, no gain against a
coin, the self/held-out label of every cell, and bad input refused with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.game.judges import labels_of
from arena.record import manifest
from arena.specs.transfer import load_transfer
from performers.catalog import CATALOG
from tests.conftest import require_shared

SCORER = "tests.arena.engine.helpers:HashScorer"
CELL_KEYS = ["zellig", "tuned_against", "judged_by", "n", "s", "ci", "gain_vs_base", "gain_ci", "p"]


def config(tmp_path: Path, data: Path, claudes: str, tuned: str = "", seeds: str = "[1, 2, 3]",
           limit: int = 40, extra: str = "") -> Path:
    require_shared(data / "wmt" / "newstest")
    path = tmp_path / "transfer.yaml"
    path.write_text(f"""name: t
johns: [{{name: newstest, params: {{dir: {data / 'wmt' / 'newstest'}, years: "2013", limit: {limit}}}}}]
claudes: {claudes}
seeds: {seeds}
discrepancy: false
bootstrap_samples: 200
schedule:
  block_size: 10
  phases:
    - {{rounds: null, transparent: [zellig], counts: true, name: evaluation}}
transfer:
  {tuned}
  zelligs:
    - {{name: search, params: {{base: placeholder-ding, budget: 8}}, base: placeholder-ding}}
    - {{name: model-guided, params: {{base: placeholder-ding}}, base: placeholder-ding}}
    - name: adaptive
      params: {{zelligs: [placeholder-ding, clause-omission]}}
      base: {{name: adaptive, params: {{zelligs: [placeholder-ding, clause-omission], strategy: uniform}}}}
{extra}""", encoding="utf-8")
    return path


COPIES = f"[{{name: '{SCORER}', alias: a, params: {{salt: x}}}}, {{name: '{SCORER}', alias: a-copy, params: {{salt: x}}}}]"
MIXED = (f"[{{name: '{SCORER}', alias: a, params: {{salt: x}}}}, {{name: '{SCORER}', alias: b, params: {{salt: y}}}}, "
         "{name: random, alias: coin}]")


def play(path: Path, out: Path, *extra: str) -> Path:
    assert main(["transfer", str(path), "--out", str(out), "--no-plots", "--no-progress", *extra]) == 0
    (run_dir,) = out.iterdir()
    return run_dir


def test_expansion_names_one_zellig_per_claude_and_one_base(tmp_path, data_dir):
    experiment, plan = load_transfer(config(tmp_path, data_dir, MIXED, "tuned_against: [a, b]"), CATALOG)
    labels = [z.label for z in experiment.zelligs]
    assert labels == ["search@base", "search@a", "search@b", "model-guided@a", "model-guided@b",
                      "adaptive@base", "adaptive@a", "adaptive@b"]  # one base for the same placeholder-ding
    by_label = {z.label: z for z in experiment.zelligs}
    assert by_label["search@b"].params["model"] == {"name": SCORER, "params": {"salt": "y"}}
    assert by_label["adaptive@a"].params["learn_from"] == ["a"]
    assert plan.bases == {"search": "search@base", "model-guided": "search@base", "adaptive": "adaptive@base"}


def test_an_identical_copy_transfers_fully(tmp_path, data_dir):
    run_dir = play(config(tmp_path, data_dir, COPIES), tmp_path / "runs")
    matrix = json.loads((run_dir / "transfer.json").read_text("utf-8"))
    assert list(matrix) == ["claudes", "zelligs", "seeds", "cells"]
    assert matrix["claudes"] == ["a", "a-copy"] and matrix["seeds"] == [1, 2, 3]
    assert all(list(cell) == CELL_KEYS for cell in matrix["cells"]) and len(matrix["cells"]) == 3 * 2 * 2
    ratios = json.loads((run_dir / "transfer-summary.json").read_text("utf-8"))["ratios"]
    for family in ("search", "model-guided"):  # eq. 2 Zelligs gain against the model they query
        assert ratios[family]["diagonal_gain"] > 0.1
        assert ratios[family]["transfer_ratio"] == pytest.approx(1.0, abs=0.05)
    labels = labels_of(manifest.read(run_dir / "manifest.json"))
    for cell in matrix["cells"]:
        alias = f"{cell['zellig']}@{cell['tuned_against']}"
        # the copy has the consulted model's name and params: it *is* the consulted model (self);
        # the adaptive Zellig consults the Claudes it learns from, by label
        same = cell["zellig"] != "adaptive" or cell["tuned_against"] == cell["judged_by"]
        assert labels[alias, cell["judged_by"]] == ("self" if same else "held-out"), cell


def test_a_coin_judge_shows_no_gain_and_labels_are_right(tmp_path, data_dir):
    run_dir = play(config(tmp_path, data_dir, MIXED, "tuned_against: [a, b]", limit=60), tmp_path / "runs")
    matrix = json.loads((run_dir / "transfer.json").read_text("utf-8"))
    labels = labels_of(manifest.read(run_dir / "manifest.json"))
    # a coin's choices do not depend on the pair: what the eq. 2 Zelligs learned from a scoring
    # model buys nothing against it (the adaptive Zellig's cells are left out: each of several
    # 95% CIs excludes 0 by chance now and then, and the adaptive one learns little here)
    coin = [c for c in matrix["cells"] if c["judged_by"] == "coin" and c["zellig"] != "adaptive"]
    assert len(coin) == 4 and all(c["gain_ci"][0] <= 0 <= c["gain_ci"][1] for c in coin)
    for cell in matrix["cells"]:
        expected = "self" if cell["tuned_against"] == cell["judged_by"] else "held-out"
        assert labels[f"{cell['zellig']}@{cell['tuned_against']}", cell["judged_by"]] == expected, cell
    report = (run_dir / "report.md").read_text("utf-8")
    assert report.count("### Transfer") == 1 and report.count("### Held-out judges") == 1
    assert "### S over seeds" in report and "mean over seeds" in report  # three seeds: per seed and over seeds


@pytest.mark.parametrize("claudes, tuned, extra, message", [
    (f"[{{name: '{SCORER}', alias: a}}]", "", "", "'claudes' lists 1 Claude"),
    (MIXED, "tuned_against: [a, nobody]", "", "'transfer.tuned_against.1' names 'nobody'"),
    (MIXED, "tuned_against: [coin]", "", "is not a scoring Claude"),
    (MIXED, "", "zelligs: [placeholder-ding]", "'zelligs' goes inside 'transfer'"),
], ids=["one-claude", "unknown-tuned-against", "non-scoring-consulted", "zelligs-beside-transfer"])
def test_bad_transfer_configs_exit_2(tmp_path, data_dir, capsys, claudes, tuned, extra, message):
    path = config(tmp_path, data_dir, claudes, tuned, extra=extra)
    assert main(["transfer", str(path), "--plan"]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err


@pytest.mark.parametrize("zellig, seeds, message", [
    ("{name: search, params: {base: placeholder-ding, model: no-such-model}}", "[1]",
     "zelligs[0]: SearchZellig parameter 'model': unknown Claude 'no-such-model'"),
    ("{name: model-guided, params: {base: placeholder-ding, model: random}}", "[1]", "is not a scoring Claude"),
    ("{name: adaptive, params: {zelligs: [placeholder-ding], learn_from: [nobody]}}", "[1]",
     "'zelligs.0.params.learn_from.0' names 'nobody'"),
    ("placeholder-ding", "[1, 2, 1]", "'seeds' lists a seed twice"),
], ids=["consulted-not-in-catalog", "consulted-does-not-score", "learns-from-no-claude", "repeated-seeds"])
def test_bad_game_configs_exit_2(tmp_path, data_dir, capsys, zellig, seeds, message):
    require_shared(data_dir / "wmt" / "newstest")
    path = tmp_path / "game.yaml"
    path.write_text(f"""name: g
johns: [{{name: newstest, params: {{dir: {data_dir / 'wmt' / 'newstest'}, years: "2013", limit: 5}}}}]
zelligs: [{zellig}]
claudes: [{{name: '{SCORER}', alias: a}}]
seeds: {seeds}
""", encoding="utf-8")
    for verb in ("validate", "run"):
        assert main([verb, str(path), "--out", str(tmp_path / "runs")] if verb == "run" else [verb, str(path)]) == 2
        err = capsys.readouterr().err
        assert message in err and f"{path}:" in err, err
    assert not (tmp_path / "runs").exists()


def test_judge_labels_of_each_consulting_performer():
    from arena.game.judges import judge_labels
    from arena.specs.config import experiment_from_dict

    scorer_x = {"name": SCORER, "params": {"salt": "x"}}
    experiment = experiment_from_dict({
        "name": "labels", "johns": ["newstest:dir=x"],
        "zelligs": [
            {"name": "search", "alias": "s", "params": {"base": "placeholder-ding", "model": scorer_x}},
            {"name": "adaptive", "alias": "ad", "params": {"zelligs": ["placeholder-ding"], "learn_from": ["b"]}},
            {"name": "adaptive", "alias": "all", "params": {"zelligs": ["placeholder-ding"]}},
            {"name": "placeholder-ding", "alias": "plain"},
        ],
        "claudes": [{**scorer_x, "alias": "a"}, {"name": SCORER, "alias": "b", "params": {"salt": "y"}},
                    {"name": "edit-aware", "alias": "wrap", "params": {"claude": scorer_x}}],
    })
    labels = {(e["zellig"], e["claude"]): e["judge"] for e in judge_labels(experiment, CATALOG)}
    assert labels == {
        ("s", "a"): "self", ("s", "b"): "held-out", ("s", "wrap"): "self",  # wrap consults s's model
        ("ad", "a"): "held-out", ("ad", "b"): "self", ("ad", "wrap"): "held-out",
        ("all", "a"): "self", ("all", "b"): "self", ("all", "wrap"): "self",  # learns from every Claude
    }  # a Zellig that consults no model ('plain') gets no label
