"""The typed results: one serialiser and its inverse, and the versioned JSON Schema of
``scores.json`` (docs/scores.schema.json) that real runs must follow."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from arena.codec import dump, load
from arena.errors import DataError
from arena.stats import schema
from arena.stats.results import SCHEMA_VERSION, Bootstrap, Cell, Scores, Summary, Yield, read_scores, write_scores
from tests.arena.stats.runs import GAME, finished_run

DOCS = Path(__file__).resolve().parents[3] / "docs" / "scores.schema.json"


@pytest.fixture(scope="module", params=["static", "game"])
def scores(request, tmp_path_factory, distil_dir) -> dict:
    run_dir = finished_run(tmp_path_factory.mktemp(request.param), distil_dir, GAME if request.param == "game" else "")
    data = json.loads((run_dir / "scores.json").read_text(encoding="utf-8"))
    game = request.param == "game"  # the game's parts are there (and only there) to be checked
    assert all(("timeline" in c) == game and ("by_meta" in c) == game for c in data["cells"])
    assert all(c["generative_rate"]["sources"] > 0 for c in data["cells"] if c["zellig"] == "ding" and c["claude"] == "nmt")
    return data


@pytest.mark.parametrize("name", sorted(schema.FILES))
def test_the_checked_in_schemas_are_the_generated_ones(name):
    assert (DOCS.parent / name).read_text(encoding="utf-8") == schema.text(name), (
        f"docs/{name} is stale: python -m arena.stats.schema docs")


def test_real_scores_follow_the_schema(scores):
    jsonschema.Draft202012Validator(json.loads(DOCS.read_text(encoding="utf-8"))).validate(scores)
    assert scores["schema_version"] == SCHEMA_VERSION


def test_real_scores_read_back_to_the_same_bytes(scores):
    typed = load(Scores, scores)
    assert json.dumps(dump(typed), ensure_ascii=False, indent=2) == json.dumps(scores, ensure_ascii=False, indent=2)
    assert isinstance(typed.cells[0], Cell) and typed.cells[0].summary.rounds == scores["cells"][0]["rounds"]


def _written(run_dir: Path, data: dict) -> Path:
    run_dir.mkdir(exist_ok=True)
    (run_dir / "scores.json").write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return run_dir


def test_a_scores_json_that_does_not_fit_is_refused(scores, tmp_path):
    data = copy.deepcopy(scores)
    data["cells"][0]["rounds"] = "many"
    with pytest.raises(DataError, match="cells.0.summary.rounds"):  # the one serialiser: damage names the key
        load(Scores, data)
    with pytest.raises(DataError) as caught:  # what the verbs and Run.scores read: exit 2, naming file and key
        read_scores(_written(tmp_path / "RUN", data))
    assert caught.value.key == "cells.0.summary.rounds" and str(tmp_path / "RUN" / "scores.json") in str(caught.value)


@pytest.mark.parametrize("text, line", [("{\n  \"signature\": \n", 3), ("", 1)])
def test_a_scores_json_that_is_not_json_is_refused_naming_file_and_line(tmp_path, text, line):
    (tmp_path / "scores.json").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_scores(tmp_path)
    assert caught.value.file == str(tmp_path / "scores.json") and caught.value.line == line


def test_keys_this_arena_does_not_know_are_ignored_when_read(scores, tmp_path):
    data = copy.deepcopy(scores)
    data["later"], data["cells"][0]["later_metric"] = 1, 0.5
    assert dump(read_scores(_written(tmp_path / "later", data))) == dump(read_scores(_written(tmp_path / "now", scores)))


def test_scores_written_and_read_back_are_the_same_bytes(scores, tmp_path):
    original = _written(tmp_path / "a", scores)
    write_scores(tmp_path, read_scores(original))  # the one reader and the one writer: typed in between
    assert (tmp_path / "scores.json").read_bytes() == (original / "scores.json").read_bytes()


def _set(path: str, value):
    def change(data: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[int(key)] if isinstance(data, list) else data[key]
        if value is KeyError:
            del data[last]
        else:
            data[last] = value
    return change


BROKEN = {
    "another schema version": _set("schema_version", SCHEMA_VERSION + 1),
    "a cell without S": _set("cells.0.S", KeyError),
    "S as text": _set("cells.0.S", "0.5"),
    "an unknown text key in a cell": _set("cells.0.note", "x"),
    "a CI of three numbers": _set("cells.0.S_ci95", [0.1, 0.2, 0.3]),
    "an unknown top-level key": _set("extra", 1),
    "a seed as text": _set("over_seeds.0.seeds", "2"),
}


@pytest.mark.parametrize("case", BROKEN)
def test_broken_scores_do_not_validate(scores, case):
    data = copy.deepcopy(scores)
    BROKEN[case](data)
    with pytest.raises(jsonschema.ValidationError):
        schema.validate(data)


def test_a_metric_registered_elsewhere_still_validates(scores):
    data = copy.deepcopy(scores)
    data["cells"][0].update({"margin": 0.25, "margin_ci95": [0.1, 0.4]})
    schema.validate(data)


SUMMARY = Summary(3, 0.5, None, 1, {"claude": 3})
SHARE = Yield(4, 3, 0.75, 0, 1.0)


@pytest.mark.parametrize(
    "record, expected",
    [
        # flattened summary, "yield" under its key, absent optional keys left out
        (Cell("j", "z", "c", 1, SUMMARY, SHARE),
         {"john": "j", "zellig": "z", "claude": "c", "seed": 1, "rounds": 3, "S": 0.5, "S_ci95": None, "correct": 1,
          "resolved_by": {"claude": 3}, "yield": {"instances": 4, "applicable": 3, "share": 0.75, "timeouts": 0,
                                                  "mean_candidates": 1.0}, "phenomena": {}}),
        # an empty breakdown of metadata keys is written (the experiment asked for it); None is not
        (Cell("j", "z", "c", 1, SUMMARY, SHARE, by_meta={}, observation_rounds=0),
         {"john": "j", "zellig": "z", "claude": "c", "seed": 1, "rounds": 3, "S": 0.5, "S_ci95": None, "correct": 1,
          "resolved_by": {"claude": 3}, "yield": {"instances": 4, "applicable": 3, "share": 0.75, "timeouts": 0,
                                                  "mean_candidates": 1.0}, "phenomena": {}, "by_meta": {},
          "observation_rounds": 0}),
        (Bootstrap(0.1, -0.1, 0.3, 0.5, 7), {"delta": 0.1, "low": -0.1, "high": 0.3, "p_value": 0.5, "n": 7}),
    ],
)
def test_one_serialiser(record, expected):
    assert dump(record) == expected
    assert list(dump(record)) == list(expected)  # in field order: scores.json keeps its bytes
    assert load(type(record), expected) == record
