"""``manifest.json`` as the pydantic :class:`~arena.record.manifest.Manifest`: real runs' manifests
follow the generated schema (docs/manifest.schema.json), read back to the same bytes, an older
manifest without the newer keys is still read, and a damaged one is a DataError naming the key."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from arena.errors import DataError
from arena.record import manifest
from arena.record.manifest import Manifest
from arena.record.run_dir import RunDir
from tests.arena.stats.runs import GAME, finished_run

DOCS = Path(__file__).resolve().parents[3] / "docs" / "manifest.schema.json"


@pytest.fixture(scope="module", params=["static", "game"])
def played(request, tmp_path_factory, distil_dir) -> tuple[str, Path]:
    game = request.param == "game"
    return request.param, finished_run(tmp_path_factory.mktemp(request.param), distil_dir, GAME if game else "")


@pytest.fixture
def run_dir(played) -> Path:
    return played[1]


def test_real_manifests_follow_the_schema(played):
    kind, run_dir = played
    data = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json.loads(DOCS.read_text(encoding="utf-8"))).validate(data)
    assert {"plan", "written", "backend"} <= data.keys() and ("game" in data) == (kind == "game")


def test_real_manifests_read_back_to_the_same_bytes(run_dir):
    text = (run_dir / "manifest.json").read_text(encoding="utf-8")
    typed = RunDir.open(run_dir).manifest
    assert isinstance(typed, Manifest) and typed.plan is not None and typed.plan.rounds > 0
    assert json.dumps(typed.dump(), ensure_ascii=False, indent=2) + "\n" == text
    assert typed.experiment["name"] == "typed" and set(typed.written or {}) == {"judgements.jsonl", "onebest.jsonl"}


OLD = {"experiment": {"name": "old", "johns": [], "zelligs": [], "claudes": []}, "config_file": "old.yaml",
       "signatures": {}, "versions": {"arena": "0.1"}, "git_commit": None}


def test_an_older_manifest_without_the_newer_keys_is_read(tmp_path):
    typed = manifest.parse(OLD, tmp_path / "manifest.json")
    assert typed.plan is None and typed.written is None and typed.backend is None and typed.judge_labels() == {}
    assert typed.dump() == OLD  # keys it does not have are not written


def test_a_key_this_arena_does_not_know_is_kept(tmp_path):
    typed = manifest.parse({**OLD, "later": {"x": 1}}, tmp_path / "manifest.json")
    assert typed.dump()["later"] == {"x": 1}


@pytest.mark.parametrize("change, key", [
    (lambda data: data.pop("experiment"), "experiment"),
    (lambda data: data.update(experiment=[1]), "experiment"),
    (lambda data: data.update(plan={"rounds": "many", "sha256": "x"}), "plan.rounds"),
    (lambda data: data.update(written={"judgements.jsonl": {"lines": 1}}), "written.judgements.jsonl.sha256"),
])
def test_a_damaged_manifest_names_the_key(tmp_path, change, key):
    data = json.loads(json.dumps(OLD))
    change(data)
    with pytest.raises(DataError) as caught:
        manifest.parse(data, tmp_path / "manifest.json")
    assert caught.value.key == key


def test_what_is_not_json_names_the_line(tmp_path):
    path = tmp_path / "manifest.json"
    path.write_text('{"experiment": {}\n', encoding="utf-8")
    with pytest.raises(DataError, match="not valid JSON"):
        manifest.read(path)
