"""The engine in process (no Ray): deduplicated scoring gives what each Claude's own
``judge`` gives, per-cell files and resume, model replicas, resources, leaderboards and plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.codec import load
from arena.engine import match
from arena.engine.resources import actor_count, resource_options
from arena.engine.scoring import ScoreBook
from arena.record import transcripts
from arena.record.rounds import JudgementRecord, Round
from arena.record.store import CELLS
from arena.records import Pair
from arena.specs.config import Experiment, experiment_from_dict, load_experiment
from arena.specs.registry import build
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG
from tests.arena.engine.helpers import HERE, InterruptibleClaude, run

TRANSCRIPTS = (transcripts.ROUNDS, transcripts.JUDGEMENTS, transcripts.ONEBEST)


def write_config(tmp_path: Path, distil_dir: Path, claudes: str, extra: str = "", limit: int = 25) -> Path:
    path = tmp_path / "tournament.yaml"
    path.write_text(
        f"""name: t
johns:
  - {{name: distil-lingeval, alias: ding-human, params: {{dir: {distil_dir / 'placeholder_ding.human'}, limit: {limit}}}}}
  - {{name: distil-lingeval, alias: clause-mt, params: {{dir: {distil_dir / 'clause_omission.mt'}, limit: {limit}}}}}
zelligs:
  - replay
  - {{name: replay, alias: ding-only, params: {{phenomena: [placeholder_ding]}}}}
  - {{name: "{HERE}:DetectingReplay", alias: detecting}}
claudes: {claudes}
seeds: [1, 2, 3]
bootstrap_samples: 50
ray: {{chunk_size: 16}}
{extra}""",
        encoding="utf-8",
    )
    return path


def contents(run_dir: Path) -> dict[str, bytes | None]:
    return {name: (run_dir / name).read_bytes() if (run_dir / name).exists() else None for name in TRANSCRIPTS}


# -- scoring: deduplication -----------------------------------------------------------------

def test_score_book_deduplicates_and_cuts_chunks_at_source_boundaries():
    book = ScoreBook("mean")
    book.add("s1", ["a", "b"])
    book.add("s2", ["c", "d"])
    book.add("s1", ["a", "e"])  # "a" again: one request
    book.add("s3", ["f", "g", "h", "i", "j"])
    assert (book.requested, book.unique) == (11, 10)
    chunks = book.chunks(4)
    assert chunks == [
        (("s1", "s1", "s1"), ("a", "b", "e")),  # s2 would not fit: cut before it
        (("s2", "s2"), ("c", "d")),
        (("s3",) * 4, ("f", "g", "h", "i")),  # a source larger than a chunk is split
        (("s3",), ("j",)),
    ]
    for sources, targets in chunks:
        book.record(sources, targets, [(-float(len(t)), 2) for t in targets])
    assert book.judge([Pair("p", "s1", ("a", "b"))])[0].corrupted is None  # equal scores
    assert book.chunks(4) == []  # nothing left to score


# -- the in-process engine against each Claude's own judge -------------------------------------

def own_judgements(experiment: Experiment, run_dir: Path) -> list[JudgementRecord]:
    """Every Claude's own ``judge`` on all judged rounds in one call (the naive way),
    in the engine's transcript order."""
    rounds = [load(Round, r) for r in transcripts.read_jsonl(run_dir / transcripts.ROUNDS)]
    records = []
    for spec in experiment.claudes:
        claude = build("claude", spec, CATALOG)
        records += match.judge_rounds(claude, spec.label, rounds)
    return records


def test_in_process_engine_deduplicates_and_equals_each_claudes_own_judge(tmp_path, distil_dir):
    path = write_config(tmp_path, distil_dir, f"[oracle, random, {{name: '{HERE}:HashScorer', alias: hash}}]")
    experiment = load_experiment(path)
    result = run(experiment, CATALOG, tmp_path / "tournament", "in-process", progress=False)
    judged = [load(JudgementRecord, j) for j in transcripts.read_jsonl(result.run_dir / transcripts.JUDGEMENTS)]
    assert judged == own_judgements(experiment, result.run_dir)
    assert contents(result.run_dir)[transcripts.ONEBEST] is not None  # the scorer decoded 1-bests
    assert result.cells == 2 * 3 * 3 * 3

    # every distinct (source, candidate) pair scored once for the whole tournament
    rounds = [json.loads(line) for line in (result.run_dir / transcripts.ROUNDS).read_text().splitlines()]
    ok = [r for r in rounds if r["status"] == "ok"]
    distinct = {(r["instance"]["source"], c) for r in ok for c in r["candidates"]}
    assert result.work["hash"]["requests"] == 2 * len(ok)
    assert result.work["hash"]["unique"] == len(distinct) < len(ok)
    assert result.work["hash"]["one_best_sources"] == len({r["instance"]["source"] for r in ok})
    one_best = [json.loads(line) for line in (result.run_dir / transcripts.ONEBEST).read_text().splitlines()]
    assert set(one_best[0]["detected"]) == {"detecting"}  # only the Zellig with a detector
    assert any(o["detected"]["detecting"] for o in one_best) and not all(o["detected"]["detecting"] for o in one_best)

    cells = sorted(p.name for p in (result.run_dir / CELLS).glob("s*.jsonl"))
    assert len(cells) == result.cells and "s2-j1-z0-c2.jsonl" in cells


def test_ties_of_a_scoring_claude_go_to_the_coin_as_in_its_own_judge(tmp_path, distil_dir):
    path = write_config(
        tmp_path, distil_dir, f"[{{name: '{HERE}:HashScorer', alias: tie, params: {{tie_every: 3}}}}]",
        "discrepancy: false\n",
    )
    experiment = load_experiment(path)
    result = run(experiment, CATALOG, tmp_path / "tournament", "in-process", progress=False)
    judgements = [json.loads(x) for x in (result.run_dir / transcripts.JUDGEMENTS).read_text().splitlines()]
    assert [load(JudgementRecord, j) for j in judgements] == own_judgements(experiment, result.run_dir)
    assert {"tie", "claude"} <= {j["resolved_by"] for j in judgements}
    assert not (result.run_dir / transcripts.ONEBEST).exists()


def test_interrupted_tournament_resumes_cell_by_cell(tmp_path, distil_dir, monkeypatch):
    path = write_config(tmp_path, distil_dir, f"[oracle, {HERE}:InterruptibleClaude]")
    experiment = load_experiment(path)
    undisturbed = run(experiment, CATALOG, tmp_path / "ref", "in-process", progress=False)

    InterruptibleClaude.calls = 0
    monkeypatch.setenv("ARENA_TEST_INTERRUPT_AT", "7")  # Ctrl-C during the 7th cell of that Claude
    with pytest.raises(KeyboardInterrupt):
        run(experiment, CATALOG, tmp_path / "out", "in-process", progress=False)
    run_dir = tmp_path / "out" / undisturbed.run_dir.name
    assert not transcripts.is_finished(run_dir)
    finished = sorted((run_dir / CELLS).glob("s*.jsonl"))
    # all of the oracle's cells and the other's first seven (s1-j1-z1 asks nothing: ding-only has
    # no candidate in clause_omission.mt, so no call is made for it)
    assert len(finished) == 18 + 7
    (run_dir / CELLS / "s3-j1-z2-c0.jsonl").write_text('{"round": "3|clause-mt|det', encoding="utf-8")  # torn

    monkeypatch.delenv("ARENA_TEST_INTERRUPT_AT")
    resumed = run(experiment, CATALOG, tmp_path / "out", "in-process", progress=False)
    assert resumed.resumed and resumed.cells_before == 18 + 7 - 1  # the torn cell is played again
    assert contents(resumed.run_dir) == contents(undisturbed.run_dir)
    again = run(experiment, CATALOG, tmp_path / "out", "in-process", progress=False)
    assert again.already_finished  # a finished run is never overwritten


def test_a_different_config_in_the_run_directory_is_refused(tmp_path, distil_dir):
    path = write_config(tmp_path, distil_dir, "[oracle]")
    experiment = load_experiment(path)
    result = run(experiment, CATALOG, tmp_path / "out", "in-process", progress=False)
    (result.run_dir / transcripts.SCORES).unlink()
    manifest = json.loads((result.run_dir / transcripts.MANIFEST).read_text())
    manifest["experiment"]["seeds"] = [9]
    transcripts.atomic_write_json(result.run_dir / transcripts.MANIFEST, manifest)
    with pytest.raises(ValueError, match="different configuration"):
        run(experiment, CATALOG, tmp_path / "out", "in-process", progress=False)


# -- model replicas ---------------------------------------------------------------------------

def test_model_replicas_vary_the_claude_with_the_seed(tmp_path, distil_dir):
    replicas = (
        f"[{{name: '{HERE}:HashScorer', alias: nmt, params: {{salt: base}},"
        " replicas: {1: {salt: a}, 2: {salt: b}, 3: {salt: c}}}]"
    )
    path = write_config(tmp_path, distil_dir, replicas)
    experiment = load_experiment(path)
    assert experiment.claudes[0].for_seed(2) == PerformerSpec(f"{HERE}:HashScorer", {"salt": "b"}, "nmt")
    result = run(experiment, CATALOG, tmp_path / "replicas", "in-process", progress=False)
    assert set(result.work) == {"nmt#seed1", "nmt#seed2", "nmt#seed3"}
    assert result.scores.over_seeds[0].claude == "nmt"
    signatures = json.loads((result.run_dir / transcripts.MANIFEST).read_text())["signatures"]["claudes"]
    assert signatures["nmt (seed 2)"] == f"{HERE}:HashScorer@1(salt=b)"
    from arena.present.console import format_scores

    assert "claude nmt (seed 3) = " in format_scores(result.scores)

    # seed 2 of the replicas is exactly what the replica for seed 2 gives on its own
    single = write_config(tmp_path, distil_dir, f"[{{name: '{HERE}:HashScorer', alias: nmt, params: {{salt: b}}}}]")
    alone = run(load_experiment(single, ["seeds=[2]"]), CATALOG, tmp_path / "alone", "in-process",
                           progress=False)

    def seed_lines(run_dir: Path, name: str, seed: int) -> list[dict]:
        lines = [json.loads(x) for x in (run_dir / name).read_text().splitlines()]
        return [x for x in lines if x.get("round", "").startswith(f"{seed}|") or x.get("seed") == seed]

    assert seed_lines(result.run_dir, transcripts.JUDGEMENTS, 2) == seed_lines(alone.run_dir, transcripts.JUDGEMENTS, 2)
    replica_best = [{k: v for k, v in x.items() if k != "seed"} for x in seed_lines(result.run_dir, transcripts.ONEBEST, 2)]
    alone_best = [json.loads(x) for x in (alone.run_dir / transcripts.ONEBEST).read_text().splitlines()]
    assert replica_best == alone_best
    cells = {(c.claude, c.seed): c for c in result.scores.cells if c.zellig == "replay"}
    assert all(c.summary.metric("discrepancy") is not None for c in cells.values())


@pytest.mark.parametrize(
    "claude, error",
    [
        ({"name": "random", "replicas": {1: {"seed": 3}}}, "no entry for seed 2"),
        ({"name": "random", "replicas": {"x": {"seed": 3}}}, "'claude.0.replicas' has the key 'x'; its keys must be seeds"),
        ({"name": "random", "replicas": {1: 3}}, "'claude.0.replicas.1' must be a mapping of params, not 3"),
        ({"name": "random", "replicas": []}, "'claude.0.replicas' must be a mapping of seeds to params"),
    ],
)
def test_bad_replicas_are_clear_errors(claude, error):
    data = {"name": "t", "john": "parallel-text", "zellig": "replay", "claude": claude, "seeds": [1, 2]}
    with pytest.raises(ValueError, match=error):
        experiment_from_dict(data)


def test_a_replica_param_can_be_overridden_on_the_command_line(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(
        "name: t\njohn: parallel-text\nzellig: replay\nseeds: [1, 2]\n"
        "claudes: [{name: random, alias: r, replicas: {1: {seed: 11}, 2: {seed: 12}}}]\n",
        encoding="utf-8",
    )
    experiment = load_experiment(path, ["claudes.0.replicas.2.seed=99"])
    assert experiment.claudes[0].replicas == {1: {"seed": 11}, 2: {"seed": 99}}
    assert experiment.claudes[0].for_seed(2).params == {"seed": 99}


def test_replicas_are_for_claudes_only():
    data = {"name": "t", "john": "parallel-text", "zellig": {"name": "replay", "replicas": {1: {}}}, "claude": "random"}
    with pytest.raises(ValueError, match="replicas are for Claudes"):
        experiment_from_dict(data)


# -- Ray resources of performers (checked without Ray) ------------------------------------------

@pytest.mark.parametrize(
    "role, resources, expected",
    [
        ("claude", {}, {"num_cpus": 1}),
        ("claude", {"num_gpus": 1, "num_cpus": 2, "actors": 4}, {"num_cpus": 2, "num_gpus": 1}),
        ("claude", {"num_gpus": 0.5, "memory": 2**30, "accelerator_type": "H100"},
         {"num_cpus": 1, "num_gpus": 0.5, "memory": 2**30, "accelerator_type": "H100"}),
        ("zellig", {"num_cpus": 0.5, "resources": {"german": 1}}, {"num_cpus": 0.5, "resources": {"german": 1}}),
    ],
)
def test_resource_options(role, resources, expected):
    assert resource_options(role, PerformerSpec("x", {}, None, resources)) == expected


@pytest.mark.parametrize(
    "role, resources, error",
    [
        ("claude", {"gpus": 1}, "unknown resources key 'gpus'"),
        ("zellig", {"actors": 2}, "unknown resources key 'actors'"),
        ("claude", {"num_gpus": -1}, "num_gpus must be a non-negative number"),
        ("claude", {"num_cpus": True}, "num_cpus must be a non-negative number"),
        ("claude", {"memory": 1.5}, "memory must be a non-negative integer"),
        ("claude", {"resources": [1]}, "must map custom resource names"),
    ],
)
def test_bad_resources_name_the_performer_and_key(role, resources, error):
    with pytest.raises(ValueError, match=error):
        resource_options(role, PerformerSpec("x", {}, "my-claude", resources))


def test_actor_count():
    assert actor_count(PerformerSpec("x", {}, None, {"actors": 3})) == 3
    with pytest.raises(ValueError, match="actors must be an integer ≥ 1"):
        actor_count(PerformerSpec("x", {}, None, {"actors": 0}))


def test_bad_resources_fail_before_anything_runs(tmp_path, distil_dir):
    path = write_config(tmp_path, distil_dir, "[{name: random, resources: {num_gpu: 1}}]")
    with pytest.raises(ValueError, match=r"claudes\[0\]: unknown resources key 'num_gpu'"):
        run(load_experiment(path), CATALOG, tmp_path / "out", "in-process", progress=False)
    assert not (tmp_path / "out").exists()


# -- leaderboards, plots and the CLI ------------------------------------------------------------

def test_cli_tournament_prints_leaderboards_and_writes_plots(tmp_path, distil_dir, capsys):
    from arena.cli import main

    path = write_config(tmp_path, distil_dir, f"[random, oracle, {{name: '{HERE}:HashScorer', alias: hash}}]")
    code = main(["tournament", str(path), "--out", str(tmp_path / "runs"), "--executor", "in-process", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert "scoring requests" in out and "after deduplication" in out
    claudes = out.split("Claudes by S")[1].split("Zelligs by S")[0]
    assert claudes.index("oracle") < claudes.index("random")  # the oracle ranks first
    assert "Johns by S" in out and "sign test" in out
    run_dir = next((tmp_path / "runs").iterdir())
    boards = json.loads((run_dir / "report" / "leaderboard.json").read_text())
    assert boards["claudes"][0]["claude"] == "oracle" and boards["claudes"][0]["S"] == 1.0
    assert boards["claudes"][0]["vs_next"]["p_value"] < 0.05
    assert {z["zellig"] for z in boards["zelligs"]["random"]} == {"replay", "ding-only", "detecting"}
    kinds = {(r["claude"], r["phenomenon"], r["reference_kind"]) for r in boards["phenomena"]}
    assert ("hash", "placeholder_ding", "human") in kinds and ("hash", "clause_omission", "machine") in kinds
    assert {r["metric"] for r in boards["phenomena"] if r["claude"] == "hash"} == {"accuracy"}
    for name in ("s_zellig_claude.png", "phenomena_human_vs_mt.png"):
        assert (run_dir / "report" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # a second call shows the finished run; `arena leaderboard` rebuilds the report
    assert main(["tournament", str(path), "--out", str(tmp_path / "runs"), "--executor", "in-process"]) == 0
    assert "already finished" in capsys.readouterr().out
    assert main(["leaderboard", str(run_dir), "--no-plots"]) == 0
    assert "Zelligs by S against hash" in capsys.readouterr().out
    assert main(["leaderboard", str(tmp_path)]) == 2


def test_sign_test():
    from arena.stats.leaderboards import sign_test

    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 0) == pytest.approx(2 / 32)
    assert sign_test(3, 3) == 1.0


def test_a_real_nmt_claude_decides_the_same_from_deduplicated_chunks(tmp_path, distil_dir):
    """toy-en-de judged from deduplicated, chunked scores vs its own one-call ``judge``
    (what ``arena run`` did before it shared the engine): the same decisions, scores
    within 1e-4 (batching changes last bits)."""
    pytest.importorskip("torch")
    path = tmp_path / "toy.yaml"
    path.write_text(
        f"""name: toy
john: {{name: distil-lingeval, params: {{dir: {distil_dir / 'placeholder_ding.mt'}, limit: 12}}}}
zelligs: [replay]
claude: {{name: toy-en-de, alias: toy, params: {{cache: false, threads: 1, progress: false}}}}
seeds: [1, 2]
discrepancy: false
bootstrap_samples: 0
ray: {{chunk_size: 8}}
""",
        encoding="utf-8",
    )
    experiment = load_experiment(path)
    result = run(experiment, CATALOG, tmp_path / "tournament", "in-process", progress=False)
    assert result.work["toy"]["unique"] < result.work["toy"]["requests"]
    ours = [load(JudgementRecord, j) for j in transcripts.read_jsonl(result.run_dir / transcripts.JUDGEMENTS)]
    theirs = own_judgements(experiment, result.run_dir)
    assert [j.round for j in ours] == [j.round for j in theirs] and len(ours) == 24
    assert [j.choice for j in ours] == [j.choice for j in theirs]
    for mine, other in zip(ours, theirs):
        assert mine.scores == pytest.approx(other.scores, abs=1e-4)
