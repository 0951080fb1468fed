"""validate ≡ run: ``arena validate`` and ``arena run`` check a config with the same functions
(:func:`arena.engine.manifest.validate` → :func:`arena.specs.registry.validate`: the role's
protocol, the methods a nested performer needs, the params, the files they name), so they
agree: both pass, or both exit 2 with the same message. Walks the catalog × the roles (every
catalog class placed, as ``module:Class``, in a role it does not play) and a set of wrong specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.specs.registry import ROLE_METHODS, check_role, import_path
from performers.catalog import CATALOG
from tests.robustness.helpers import invoke, write_testset

ROLES = ("john", "zellig", "claude")


def experiment(tmp_path: Path, john: str = "", zellig: str = "[replay]", claude: str = "[oracle]",
               extra: str = "") -> Path:
    testset = write_testset(tmp_path / "set.human")
    john = john or f"[{{name: distil-lingeval, params: {{dir: {testset}}}}}]"
    path = tmp_path / "exp.yaml"
    path.write_text(f"name: agree\njohns: {john}\nzelligs: {zellig}\nclaudes: {claude}\nseeds: [1]\n"
                    f"bootstrap_samples: 10\n{extra}", encoding="utf-8")
    return path


def outcome(argv: list, capsys) -> tuple[int, str]:
    status, _, stderr = invoke(argv, capsys)
    assert "Traceback" not in stderr, stderr
    line = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    return status, line.partition(": ")[2] if line.startswith("arena ") else line


def agree(config: Path, tmp_path: Path, capsys) -> tuple[int, str]:
    """validate's and run's (status, message), asserted equal."""
    checked = outcome(["validate", config], capsys)
    ran = outcome(["-q", "run", config, "--out", tmp_path / "runs"], capsys)
    assert checked[0] in (0, 2) and ran[0] == checked[0], (checked, ran)
    if checked[0] == 2:
        assert ran[1] == checked[1]
    return checked


@pytest.mark.parametrize("role", ROLES)
def test_every_catalog_entry_plays_its_role(role):
    for name, path in CATALOG.table(role).items():
        check_role(role, import_path(path), f"{role} {name}")


@pytest.mark.parametrize("role,placed", [(r, p) for r in ROLES for p in ROLES if r != p])
def test_catalog_classes_in_a_role_they_do_not_play_are_refused_alike(tmp_path, capsys, role, placed):
    refused = 0
    for name, path in CATALOG.table(role).items():
        if callable(getattr(import_path(path), ROLE_METHODS[placed], None)):
            continue  # the class plays both roles
        spec = f'[{{name: "{path}"}}]'
        config = experiment(tmp_path, **{placed: spec})
        status, message = agree(config, tmp_path, capsys)
        assert status == 2 and f"is not a {placed.title()}: it has no {ROLE_METHODS[placed]}() method" in message, \
            (name, message)
        refused += 1
    assert refused


def write_patch(tmp_path: Path, action: str) -> Path:
    path = tmp_path / "patch.jsonl"
    path.write_text(json.dumps({"id": "x", "action": action, "reference": "Ein Text."}) + "\n", encoding="utf-8")
    return path


WRONG = {
    # name: (config pieces, words in the one message both print)
    "search-model-cannot-score": ({"zellig": "[{name: search, params: {base: placeholder-ding, model: length}}]"},
                                  "LengthClaude is not a scoring Claude: it has no score() method"),
    "model-guided-model-cannot-score": ({"zellig": "[{name: model-guided, params: {base: replay, model: oracle}}]"},
                                        "OracleClaude is not a scoring Claude"),
    "learned-claude-cannot-score": ({"claude": "[{name: learned, params: {claude: random}}]"},
                                    "RandomClaude is not a scoring Claude"),
    "a-function-as-claude": ({"claude": '[{name: "json:dumps"}]'}, "dumps is a function, not a Claude class"),
    "a-class-that-is-no-claude": ({"claude": '[{name: "json:JSONDecoder"}]'},
                                  "JSONDecoder is not a Claude: it has no judge() method"),
    "a-class-that-is-no-john": ({"john": '[{name: "pathlib:Path"}]'}, "Path is not a John: it has no instances()"),
    "search-base-is-no-zellig": ({"zellig": "[{name: search, params: {base: performers.claude.oracle:OracleClaude, "
                                            "model: toy-en-de}}]"}, "OracleClaude is not a Zellig"),
}


@pytest.mark.parametrize("case", list(WRONG))
def test_wrong_specs_are_refused_alike(tmp_path, capsys, case):
    pieces, words = WRONG[case]
    status, message = agree(experiment(tmp_path, **pieces), tmp_path, capsys)
    assert status == 2 and words in message, message


@pytest.mark.parametrize("action,status", [("explode", 2), ("reject", 0)])
def test_a_repairs_patch_is_read_by_validate_as_by_run(tmp_path, capsys, action, status):
    patch = write_patch(tmp_path, action)
    testset = write_testset(tmp_path / "set.human")
    john = (f"[{{name: mt-reference, params: {{john: {{name: distil-lingeval, params: {{dir: {testset}}}}}, "
            f"claude: toy-en-de, repairs: {patch}}}}}]")
    config = experiment(tmp_path, john=john)
    checked = outcome(["validate", config], capsys)
    assert checked[0] == status, checked
    if status == 2:
        assert agree(config, tmp_path, capsys) == checked
        assert f"{patch}:1" in checked[1] and "action" in checked[1]


def test_a_good_config_passes_both(tmp_path, capsys):
    assert agree(experiment(tmp_path), tmp_path, capsys) == (0, "")


PAIRS = "id\tsource\tcorrect\tincorrect\tphenomenon\tregister\nn1\tThe shop.\tDer Laden.\tDie Laden.\tagr\teveryday\n"


@pytest.mark.parametrize("breakdowns,zellig,words", [
    ("[register, john.register, john.origin, john.phenomenon]", "[replay]", None),
    ("[regsiter]", "[replay]", "no John gives variant metadata (which replay passes on) 'regsiter'"),
    ("[john.nope]", "[replay]", "no John gives instance metadata 'nope'"),
    ("[dimension]", "[replay, feature-flip]", None),   # a Zellig that makes its own variants: taken on trust
    ("[john.nope]", "[replay, feature-flip]", "no John gives instance metadata 'nope'"),
])
def test_breakdowns_no_performer_gives_are_refused_alike(tmp_path, capsys, breakdowns, zellig, words):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(PAIRS, encoding="utf-8")
    config = experiment(tmp_path, john=f"[{{name: pairs, params: {{path: {pairs}}}}}]", zellig=zellig,
                        extra=f"breakdowns: {breakdowns}\n")
    if words is None:
        assert outcome(["validate", config], capsys)[0] == 0
        return
    status, message = agree(config, tmp_path, capsys)
    assert status == 2 and words in message and f"{config}:7" in message, message


def test_declared_meta_covers_what_the_johns_give(tmp_path):
    from performers.john.distil_lingeval import DistilLingEvalJohn
    from performers.john.pairs import PairsJohn
    from performers.zellig.replay import ReplayZellig

    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(PAIRS, encoding="utf-8")
    for cls, params in ((DistilLingEvalJohn, {"dir": str(write_testset(tmp_path / "set.human"))}),
                        (PairsJohn, {"path": str(pairs)})):
        instance_keys, variant_keys = cls.declared_meta(params)
        for instance in cls(**params).instances():
            assert set(instance.meta) <= instance_keys
            assert all(set(v.meta) <= variant_keys for v in ReplayZellig().corrupt(instance))
