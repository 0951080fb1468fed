"""Item 5's hunt over the verbs added recently (score-pairs --pairs, cues, tournament --plan)
and the surface, edit-aware, search and target-lm performers' params: each hostile input
is refused with exit 2, no traceback, a message naming the file, line or key; ``validate``
refuses what ``run`` refuses; and the inputs next to them that are fine still pass."""

from __future__ import annotations

import json

import pytest

from arena.errors import UsageError
from arena.formats.pairs import parse_columns
from tests.robustness.helpers import invoke, refused, write_experiment

TSV = "source\tcorrect\tincorrect\nThe dog barks.\tDer Hund bellt.\tDer Hund bellen.\n"


def _claude(tmp_path, testset, claude: str, extra: str = "") -> str:
    """A config whose Claudes are ``[CLAUDE]``."""
    config = write_experiment(tmp_path / "exp.yaml", testset, extra)
    text = config.read_text(encoding="utf-8").replace("claudes: [oracle, random]", f"claudes: [{claude}]")
    config.write_text(text, encoding="utf-8")
    return str(config)


def _zellig(tmp_path, testset, zellig: str) -> str:
    config = write_experiment(tmp_path / "exp.yaml", testset)
    config.write_text(config.read_text(encoding="utf-8").replace("zelligs: [replay]", f"zelligs: [{zellig}]"),
                      encoding="utf-8")
    return str(config)


CONFIGS = {  # a performer entry → what the one-line refusal names
    "edit-aware-base-does-not-score": ("claude", "{name: edit-aware, params: {claude: random}}",
                                       ("EditAwareClaude", "RandomClaude is not a scoring Claude")),
    "edit-aware-base-unknown": ("claude", "{name: edit-aware, params: {claude: no-such-claude}}",
                                ("parameter 'claude'", "unknown Claude 'no-such-claude'")),
    "edit-aware-base-bad-param": ("claude", "{name: edit-aware, params: {claude: 'toy-en-de:dtype=f8'}}",
                                  ("parameter 'claude'", "'dtype'")),
    "learned-base-bad-device": ("claude", "{name: learned, params: {claude: 'toy-en-de:device=gpu'}}",
                                ("LearnedClaude parameter 'claude'", "'device'")),
    "length-l2-infinite": ("claude", "{name: length, params: {l2: .inf}}", ("LengthClaude parameter 'l2'",)),
    "edit-aware-l2-infinite": ("claude", "{name: edit-aware, params: {claude: toy-en-de, l2: .inf}}",
                               ("EditAwareClaude parameter 'l2'",)),
    "target-lm-empty-corpus": ("claude", "{name: target-lm, params: {corpus: EMPTY}, sees: {source: false}}",
                               ("empty.txt", "no words")),
    "target-lm-latin1-corpus": ("claude", "{name: target-lm, params: {corpus: LATIN1}, sees: {source: false}}",
                                ("latin1.txt:2: not valid UTF-8",)),
    "target-lm-asked-for-1-bests": ("claude", "{name: target-lm, params: {corpus: GOOD}}",
                                    ("discrepancy", "cannot translate", "sees: {source: false}")),
    "model-dir-without-json": ("claude", "{name: hf-seq2seq, params: {model: NOJSONDIR}}",
                               ("'model'", "holds no config.json")),
    "search-model-unknown": ("zellig", "{name: search, params: {base: placeholder-ding, model: nope}}",
                             ("SearchZellig parameter 'model'", "unknown Claude 'nope'")),
    "model-guided-base-unknown": ("zellig", "{name: model-guided, params: {base: nope, model: toy-en-de}}",
                                  ("ModelGuidedZellig parameter 'base'", "unknown Zellig 'nope'")),
    "adaptive-member-unknown": ("zellig", "{name: adaptive, params: {zelligs: [placeholder-ding, nope]}}",
                                ("AdaptiveZellig parameter 'zelligs'", "unknown Zellig 'nope'")),
}
FINE = {  # next to the refused ones: must NOT be refused
    "target-lm-fluency-only": ("claude", "{name: target-lm, params: {corpus: GOOD}, sees: {source: false}}"),
    "target-lm-no-discrepancy": ("claude", "{name: target-lm, params: {corpus: GOOD}}", "discrepancy: false\n"),
    "edit-aware-scoring-base": ("claude", "{name: edit-aware, params: {claude: toy-en-de, l2: 1000000.0}}"),
    "search-known-model": ("zellig", "{name: search, params: {base: placeholder-ding, model: toy-en-de}}"),
}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "empty.txt").write_text("\n \n", encoding="utf-8")
    (tmp_path / "latin1.txt").write_bytes(b"Der Hund bellt.\nDie Stra\xdfe ist lang.\n")
    (tmp_path / "good.txt").write_text("Der Hund bellt.\nDie Katze schläft.\n", encoding="utf-8")
    (tmp_path / "empty-dir").mkdir()
    return {"EMPTY": tmp_path / "empty.txt", "LATIN1": tmp_path / "latin1.txt", "GOOD": tmp_path / "good.txt",
            "NOJSONDIR": tmp_path / "empty-dir"}


def _config(tmp_path, testset, files, role: str, entry: str, extra: str = "") -> str:
    for name, path in files.items():
        entry = entry.replace(name, str(path))
    if role == "zellig":
        return _zellig(tmp_path, testset, entry)
    return _claude(tmp_path, testset, entry, extra)


@pytest.mark.parametrize("verb", ["validate", "run"])
@pytest.mark.parametrize("case", list(CONFIGS))
def test_validate_and_run_refuse_hostile_params_alike(case, verb, tmp_path, testset, files, capsys, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    role, entry, fragments = CONFIGS[case]
    config = _config(tmp_path, testset, files, role, entry)
    out = tmp_path / "runs"
    argv = ["validate", config] if verb == "validate" else ["run", config, "--out", out, "--no-progress"]
    refused(argv, capsys, f"{config}:", *fragments)
    assert not out.exists(), "refused before the first round: no run directory"


@pytest.mark.parametrize("case", list(FINE))
def test_validate_passes_the_inputs_next_to_them(case, tmp_path, testset, files, capsys, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    role, entry, *extra = FINE[case]
    status, _, err = invoke(["validate", _config(tmp_path, testset, files, role, entry, *extra)], capsys)
    assert status == 0, err


def test_a_claude_that_fails_to_load_leaves_no_run_directory(tmp_path, testset, capsys, monkeypatch):
    """Validate cannot load the model; run finds it is none while building the Claude, after
    planning: a user's fault before the first cell, so the planned run is removed."""
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    model = tmp_path / "not-a-model"
    model.mkdir()
    (model / "config.json").write_text("{}", encoding="utf-8")
    config = _claude(tmp_path, testset, f"{{name: hf-seq2seq, params: {{model: {model}}}}}")
    out = tmp_path / "runs"
    refused(["run", config, "--out", out, "--no-progress"], capsys, "cannot load", str(model))
    assert not out.exists() or not any(out.iterdir()), sorted(out.rglob("*"))


@pytest.mark.parametrize("text, fragments", [
    ("source\tcorrect\tincorrect\nThe\x00 dog.\tDer Hund.\tDie Hund.\n", ("pairs.tsv:2", "'source'", "U+0000")),
    ("source\tcorrect\n\"open\tx\n", ("pairs.tsv:2", "RFC 4180", "unexpected end of data")),  # an unclosed quote
    ("", ("pairs.tsv:1", "empty file")),
])
def test_score_pairs_refuses_damaged_pairs(tmp_path, capsys, text, fragments):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(text, encoding="utf-8")
    refused(["score-pairs", "--claude", "toy-en-de:cache=false", "--pairs", pairs, "--out", tmp_path / "o.tsv"],
            capsys, *fragments)
    assert not (tmp_path / "o.tsv").exists()


@pytest.mark.parametrize("columns, refusal", [
    ("source=correct", "source and correct would both be read from column 'correct'"),
    ("correct=good,incorrect=good", "correct and incorrect would both be read from column 'good'"),
    ("id=source", "source and id would both be read from column 'source'"),
    ("source=src,correct=good,incorrect=bad", None),   # every name to its own column: fine
    ("correct=incorrect,incorrect=correct", None),     # swapped on purpose: fine
    ("id=number", None),
])
def test_columns_that_read_one_column_twice_are_refused(columns, refusal):
    if refusal is None:
        assert parse_columns(columns)
        return
    with pytest.raises(UsageError, match=refusal) as raised:
        parse_columns(columns)
    assert raised.value.key == "--columns"


@pytest.mark.parametrize("argv, fragments", [
    (["--json"], ("--json goes with --plan",)),
    (["--calibration", "CAL"], ("--calibration goes with --plan",)),
    (["--plan", "--calibration", "DEEP"], ("deep.json", "nested more than")),
    (["--plan", "--calibration", "CUT"], ("cut.json:1:", "malformed JSON")),
])
def test_tournament_plan_flags_and_calibrations(tmp_path, testset, capsys, argv, fragments):
    config = write_experiment(tmp_path / "exp.yaml", testset)
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    (tmp_path / "cut.json").write_text('{"format": 1, "date": ', encoding="utf-8")
    (tmp_path / "cal.json").write_text(json.dumps({"format": 1}), encoding="utf-8")
    paths = {"DEEP": tmp_path / "deep.json", "CUT": tmp_path / "cut.json", "CAL": tmp_path / "cal.json"}
    argv = [str(paths.get(item, item)) for item in argv]
    refused(["tournament", config, "--out", tmp_path / "runs", "--no-progress", *argv], capsys, *fragments)
    assert not (tmp_path / "runs").exists()


def test_tournament_plan_as_json_still_answers(tmp_path, testset, capsys):
    status, out, err = invoke(["tournament", write_experiment(tmp_path / "exp.yaml", testset), "--plan", "--json",
                               "--no-progress"], capsys)
    assert status == 0 and json.loads(out), err


@pytest.mark.parametrize("folds, accepted", [("1", False), ("101", False), ("many", False), ("2", True), ("100", True)])
def test_cues_folds_have_a_range(folds, accepted, capsys):
    """Folds beyond 100 refit a cue once per source sentence (minutes on 13k pairs)."""
    from arena.cli import build_parser

    parser = build_parser()
    if accepted:
        assert parser.parse_args(["cues", "x", "--folds", folds]).folds == int(folds)
        return
    with pytest.raises(SystemExit) as exit_info:
        parser.parse_args(["cues", "x", "--folds", folds])
    assert exit_info.value.code == 2 and "argument --folds" in capsys.readouterr().err


@pytest.mark.parametrize("text, problem", [
    ("Der Zug kommt\nam Ding an.", "line break"),
    ("Der Zug kommt\u2028am Ding an.", "line break"),
    ("Der Zug kommt am Ding an.\x00", "control character U+0000"),
    ("Der Zug \x1b[31mkommt an.", "control character U+001B"),
    ("Der Zug kommt am \ud800 an.", "unpaired surrogate U+D800"),
    ("\u200b\u200b", "only invisible characters"),
    ("Der Zug \u202ekommt an.", "bidi control U+202E"),
    ("Der Zug kommt am Ding an.", None),            # must NOT fire
    ("Der Zug\tkommt am Ding an.", None),
    ("Der Zug kommt am Dïng an. 😀", None),
])
def test_serve_zellig_refuses_edits_that_are_no_line(text, problem):
    from arena.text_policy import text_problem  # the one policy every server's bodies go through

    found = text_problem(text)
    assert (found is None) if problem is None else (problem in found)


def test_serve_zellig_answers_400_to_an_edit_with_a_line_break(tmp_path, distil_dir):
    import re

    from arena.cli.serve import zellig_pages
    from arena.people.web import Arena, create_app
    from tests.arena.people.helpers import planned, write_config

    experiment, run_dir, rounds = planned(write_config(tmp_path, distil_dir), tmp_path / "runs")
    app = create_app(Arena(run_dir, rounds, experiment.time_budget.claude_seconds_per_pair, experiment.name),
                     None, ["localhost"])
    app.register_blueprint(zellig_pages(experiment, run_dir, rounds))
    client = app.test_client()
    token = re.search(r"[A-Za-z0-9_-]{40,}", client.get("/zellig/").get_data(as_text=True)).group()
    assert client.post("/zellig/login", data={"name": "ann", "csrf": token}).status_code == 302
    shown = client.get("/zellig/api/next").get_json()
    headers = {"X-CSRF-Token": token}
    for url in ("/zellig/api/live", "/zellig/api/submit"):
        answer = client.post(url, json={"instance": shown["instance"], "text": shown["reference"] + "\nDing",
                                        "phenomenon": "placeholder_ding"}, headers=headers)
        assert answer.status_code == 400 and "line break" in answer.get_json()["error"]
    fine = client.post("/zellig/api/submit", json={"instance": shown["instance"], "text": shown["reference"] + " Ding",
                                                   "phenomenon": "placeholder_ding"}, headers=headers)
    assert fine.status_code == 200 and fine.get_json()["written"]
