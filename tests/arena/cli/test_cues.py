"""``arena cues`` on every input it reads (a DistilLingEval set and a directory of sets, LingEval97
JSON, a run and a tournament directory), its ``--json``, and bad input (exit 2 naming what)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from tests.conftest import DATA, require_shared


def write_set(directory: Path, rows: list[tuple[str, str, str]]) -> Path:
    directory.mkdir(parents=True)
    for index, name in enumerate(("src.en", "tgt.correct.de", "tgt.incorrect.de")):
        (directory / name).write_text("".join(row[index] + "\n" for row in rows), encoding="utf-8")
    return directory


CLAUSES = [(f"He came {i} because it rained.", f"Er kam {i}, weil es regnete.", f"Er kam {i}.") for i in range(30)]
FAST = ["--cue", "length", "--cue", "edit-words"]


def test_one_set_writes_one_object(tmp_path, capsys):
    directory = write_set(tmp_path / "clause_omission.human", CLAUSES)
    out = tmp_path / "cues.json"
    assert main(["cues", "--format", "distil-lingeval", "--testset", str(directory), "--json", str(out), *FAST]) == 0
    printed = capsys.readouterr().out
    assert "clause_omission.human" in printed and "confounded" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["n"] == 30 and data["strongest"] in data["cues"] and data["confounded"] is True
    assert set(data["cues"]) == {"length", "edit-words"}
    assert data["cues"]["length"]["accuracy"] == 1.0 and len(data["cues"]["length"]["ci"]) == 2


def test_a_directory_of_sets_writes_a_list_and_unfittable_says_so(tmp_path, capsys):
    write_set(tmp_path / "sets" / "clause_omission.human", CLAUSES)
    write_set(tmp_path / "sets" / "tiny.mt", CLAUSES[:5])
    out = tmp_path / "cues.json"
    assert main(["cues", "--testset", str(tmp_path / "sets"), "--json", str(out), *FAST]) == 0
    assert "unfittable: n < 10" in capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [d["set"] for d in data] == ["clause_omission.human", "tiny.mt"]
    assert data[1]["cues"]["length"]["accuracy"] is None and data[1]["confounded"] is False


def test_lingeval97_json(tmp_path, capsys):
    sentences = [{"source": s, "reference": c, "errors": [{"type": "clause_omission", "contrastive": x}]}
                 for s, c, x in CLAUSES]
    path = tmp_path / "le97.json"
    path.write_text(json.dumps(sentences), encoding="utf-8")
    out = tmp_path / "cues.json"
    assert main(["cues", "--format", "lingeval97", "--testset", str(path), "--json", str(out), *FAST]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["phenomenon"] == "clause_omission" and data["confounded"] is True


CONFIG = """name: cues
johns:
  - {{name: distil-lingeval, alias: affix, params: {{dir: {distil}/polarity_affix_del.mt, limit: 40}}}}
zelligs: [{{name: replay}}]
claudes: [{{name: 'tests.arena.engine.helpers:HashScorer', alias: nmt}}, {{name: random}}]
seeds: [1]
bootstrap_samples: 20
"""


@pytest.mark.parametrize("verb", ["run", "tournament"])
def test_run_and_tournament_directories(tmp_path, capsys, verb):
    distil = require_shared(DATA / "distil-lingeval")
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG.format(distil=distil), encoding="utf-8")
    options = ["--executor", "in-process"] if verb == "tournament" else []
    assert main([verb, str(config), "--out", str(tmp_path / "runs"), "--no-progress", *options]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "### Surface cues" in report and "(confounded by length; edit-identity: edit-words)" in report
    assert "cue-neutral" not in report and "cue-hard" in report
    capsys.readouterr()
    out = tmp_path / "cues.json"
    assert main(["cues", str(run_dir), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "nmt S" in printed and "random S" not in printed  # compared with the model, not with chance
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["n"] == 40 and data["confounded"] and {"length", "edit-words", "target-lm"} == set(data["cues"])
    assert data["kinds"][0] == "nuisance" and data["enough"] is True and "length" in data["strong"]


@pytest.mark.parametrize("argv, message", [
    (["cues"], "give a RUN directory or --testset"),
    (["cues", "--testset", "/nonexistent/set"], "/nonexistent/set: no such file or directory"),
    (["cues", "--testset", "{tmp}", "--folds", "1"], "argument --folds: must be a whole number at least 2"),
    (["cues", "--testset", "{tmp}", "--folds", "101"], "at most 100"),
    (["cues", "--testset", "{tmp}", "--cue", "toy-en-de"], "not a surface Claude"),
    (["cues", "--testset", "{tmp}", "--cue", "lenght"], "lenght"),
    (["cues", "--format", "lingeval97", "--testset", "{tmp}/src.en"], "src.en"),
    (["cues", "--testset", "{tmp}", "--threshold", "2"], "--threshold"),
    (["cues", "--testset", "{tmp}", "--threshold", "0.5"], "--threshold"),
    (["cues", "--testset", "{tmp}", "--cue", "length", "--kind", "target-only"], "--kind 'target-only': no cue"),
    (["cues", "--testset", "{tmp}", "--kind", "fluency"], "--kind 'fluency'"),
])
def test_bad_input_exits_2(tmp_path, capsys, argv, message):
    directory = write_set(tmp_path / "set", CLAUSES)
    argv = [a.replace("{tmp}", str(directory)) for a in argv]
    try:
        status = main(argv)
    except SystemExit as exit_info:  # argparse's own checks (--folds)
        status = exit_info.code
    assert status == 2
    assert message in capsys.readouterr().err


# balance (issue 25, item 6): corrupted side 30 times shorter, 10 times longer, 5 times equal
MIXED = ([(f"He saw the house {i}.", f"Er sah das Haus {i}.", f"Er sah das Hau {i}.") for i in range(30)]
         + [(f"He saw the tree {i}.", f"Er sah den Baum {i}.", f"Er sah den Baumm {i}.") for i in range(10)]
         + [(f"He saw the dog {i}.", f"Er sah den Hund {i}.", f"Er sah den Hudn {i}.") for i in range(5)])


def test_balance_on_a_set_reports_n_before_after_and_the_residual(tmp_path, capsys):
    directory = write_set(tmp_path / "mixed.human", MIXED)
    out = tmp_path / "cues.json"
    assert main(["cues", "--testset", str(directory), "--balance", "length", "--cue", "length",
                 "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "10/30/5" in printed and "balanced" in printed
    assert "20 balanced out" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    balance = data["balance"]
    assert (balance["before"], balance["after"]) == (45, 25) and balance["balanced"] is True
    assert (balance["longer"], balance["shorter"], balance["equal"]) == (10, 30, 5)
    assert data["n"] == 25 and balance["residual"] == data["cues"]["length"]
    assert data["cues"]["length"]["accuracy"] < 0.75  # no longer confounded by length


def test_without_balance_the_json_has_no_balance(tmp_path):
    directory = write_set(tmp_path / "mixed.human", MIXED)
    out = tmp_path / "cues.json"
    assert main(["cues", "--testset", str(directory), "--cue", "length", "--json", str(out)]) == 0
    assert "balance" not in json.loads(out.read_text(encoding="utf-8"))


def test_a_set_that_cannot_be_balanced_is_named_and_the_others_kept(tmp_path, capsys):
    write_set(tmp_path / "sets" / "clause_omission.human", CLAUSES)
    write_set(tmp_path / "sets" / "mixed.human", MIXED)
    assert main(["cues", "--testset", str(tmp_path / "sets"), "--balance", "length", "--cue", "length"]) == 0
    printed = capsys.readouterr().out
    assert "clause_omission.human / clause_omission: cannot be balanced for length: the corrupted candidate is " \
           "always shorter or equal; kept the 0 pair(s) of equal length (30 → 0)" in printed
    assert "mixed.human" in printed and "50 balanced out" in printed


@pytest.mark.parametrize("argv, message", [
    (["cues", "--testset", "{set}", "--balance", "length"], "--balance length leaves no pair to audit"),
    (["cues", "--testset", "{set}", "--balance", "edit-words"], "--balance 'edit-words' is not a cue that can be balanced"),
])
def test_balance_bad_input_exits_2(tmp_path, capsys, argv, message):
    directory = write_set(tmp_path / "clause_omission.human", CLAUSES)
    assert main([a.replace("{set}", str(directory)) for a in argv]) == 2
    assert message in capsys.readouterr().err


BALANCED = """name: balanced
johns:
  - {{name: distil-lingeval, alias: ding, params: {{dir: {distil}/placeholder_ding.human, limit: 150}}}}
  - {{name: distil-lingeval, alias: ding-balanced, params: {{dir: {distil}/placeholder_ding.human, limit: 150}},
      balance: {{cue: length}}}}
  - {{name: distil-lingeval, alias: affix, params: {{dir: {distil}/polarity_affix_del.mt, limit: 20}}, balance: {{cue: length}}}}
zelligs: [{{name: replay}}]
claudes: [{{name: 'tests.arena.engine.helpers:HashScorer', alias: nmt}}]
seeds: [1]
bootstrap_samples: 20
discrepancy: false
generative_rate: false
"""


def test_a_run_with_balanced_johns(tmp_path, capsys):
    distil = require_shared(DATA / "distil-lingeval")
    config = tmp_path / "c.yaml"
    config.write_text(BALANCED.format(distil=distil), encoding="utf-8")
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    rounds = [json.loads(line) for line in (run_dir / "rounds.jsonl").read_text(encoding="utf-8").splitlines()]
    out_ids = {r["round"] for r in rounds if r["status"] == "balanced_out"}
    assert {r["john"] for r in rounds if r["status"] == "balanced_out"} == {"ding-balanced", "affix"}
    judged = {json.loads(line)["round"] for line in (run_dir / "judgements.jsonl").read_text(encoding="utf-8").splitlines()}
    assert out_ids and not out_ids & judged  # recorded, never judged
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "Balanced pairs" in report and "cannot be balanced" in report
    capsys.readouterr()
    out = tmp_path / "cues.json"
    assert main(["cues", str(run_dir), "--cue", "length", "--json", str(out)]) == 0
    tables = {(t["set"], t["phenomenon"]): t for t in json.loads(out.read_text(encoding="utf-8"))}
    plain = tables["replay", "placeholder_ding"]
    balanced = tables["replay (balanced John ding-balanced)", "placeholder_ding"]
    assert "balance" not in plain and plain["n"] == 150
    assert balanced["balance"]["before"] == 150 and balanced["balance"]["after"] == balanced["n"] < 150
    assert ("replay (balanced John affix)", "polarity_affix_del") not in tables  # nothing left to audit
    assert "replay (balanced John affix) / polarity_affix_del: cannot be balanced" in capsys.readouterr().out


# issue 34, item 5: a fitted cue Claude no round would teach is refused; one that abstains is not ranked

UNFITTED = """name: unfitted
johns: [{{name: distil-lingeval, params: {{dir: {distil}/polarity_affix_del.mt, limit: 40}}}}]
zelligs: [{{name: replay}}]
claudes: [{{name: random}}, {{name: {cue}}}]
{schedule}
"""


@pytest.mark.parametrize("cue, schedule, refused", [
    ("length", "", True),  # a normal run: it would abstain on every round
    ("edit-words", "", True),
    ("length", "schedule: supervised:10", False),  # it learns from rounds transparent to Claudes
    ("target-lm", "discrepancy: false", False),  # not fitted: it judges as it is
])
def test_validate_refuses_a_fitted_cue_claude_no_round_teaches(tmp_path, capsys, cue, schedule, refused):
    distil = require_shared(DATA / "distil-lingeval")
    config = tmp_path / "u.yaml"
    config.write_text(UNFITTED.format(distil=distil, cue=cue, schedule=schedule), encoding="utf-8")
    assert main(["validate", str(config)]) == (2 if refused else 0)
    err = capsys.readouterr().err
    if refused:
        assert "claudes[1]" in err and "arena cues RUN" in err and "abstain on every round" in err
        assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"]) == 2
        assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_claude_that_abstained_is_not_ranked():
    from arena.record.rounds import JudgementRecord, Round
    from arena.records import Instance, Variant
    from arena.stats.aggregate import Outcome
    from arena.stats.leaderboards import leaderboards

    def outcomes(claude: str, abstain_every: int | None, n: int = 40) -> list[Outcome]:
        result = []
        for i in range(n):
            instance = Instance(str(i), "s", "r")
            r = Round(f"1|{i}", 1, "j", "z", instance, Variant(str(i), "v", "p"), ("r", "v"), 1)
            resolved = "abstain" if abstain_every and i % abstain_every == 0 else "claude"
            result.append(Outcome(r, JudgementRecord(r.id, claude, 1, 1, resolved, True), None))
        return result

    boards = leaderboards({"bootstrap_samples": 10}, {"model": outcomes("model", None),
                                                      "few": outcomes("few", 2),  # answered 20 of 40
                                                      "most": outcomes("most", 40)}, [])  # answered 39
    by_name = {e.claude: e for e in boards.claudes}
    assert by_name["model"].rank is not None and by_name["model"].unranked is None and by_name["model"].abstained == 0
    assert by_name["most"].rank is not None and by_name["most"].abstained == 1
    assert by_name["few"].rank is None and by_name["few"].abstained == 20
    assert "answered 20" in by_name["few"].unranked and "fewer than 30" in by_name["few"].unranked
    assert [e.claude for e in boards.claudes][-1] == "few"
