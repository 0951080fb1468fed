"""Item 2: one schema.  ``arena validate`` and ``arena run`` check a config with the same
code (:func:`arena.specs.registry.check_params`, from the performers' annotated params),
so validate rejects exactly what run rejects.

The generated test feeds bad values for every declared parameter of every catalog entry
(:mod:`tests.robustness.bad_values`) to ``validate`` and to ``build``, which is what ``run``
does with each performer before its first round (``arena/engine``: every backend builds
performers through :func:`arena.specs.registry.build`).  A value that one refuses and the
other takes is a mismatch; an exception other than arena's own error types is a bug and
fails the test as well."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.errors import ArenaError
from arena.specs.registry import build, resolve, validate
from arena.specs.spec import PerformerSpec
from arena.specs.typecheck import type_hints
from performers.catalog import CATALOG
from tests.conftest import DATA, SHARED
from tests.performers.test_catalog_conformance import OWN_TESTS, PARAMS
from tests.robustness.bad_values import bad_values, edge_values
from tests.robustness.helpers import invoke, refused, write_experiment

TOY = SHARED / "models" / "toy-marian-en-de"
M2C = Path(__file__).resolve().parents[2] / "experiments" / "m2c" / "en_de.yaml"  # template pairs
# entries the conformance test leaves to their own tests, with params that build them here
MORE_PARAMS = {
    ("john", "select"): {"john": f"distil-lingeval:dir={DATA / 'distil-lingeval' / 'placeholder_ding.human'}",
                         "zellig": "replay"},
    ("john", "template"): {"spec": str(M2C), "n": 2},
    ("zellig", "feature-flip"): {},
    ("claude", "ensemble"): {"models": [str(TOY / "hf"), str(TOY / "hf")]},
}
# rules that need the model itself: run refuses these values when the tokenizer is loaded,
# validate (which loads no model) cannot; each is named here with its reason
NEEDS_THE_MODEL = {"target_lang": "must be a token of the model's tokenizer"}
# entries whose params need files made for them: a LingEval97 JSON test set, a tiny causal
# LM, a tiny fairseq checkpoint (written in fairseq's layout; fairseq itself is not needed)
MADE_PARAMS: dict[tuple[str, str], Callable[[Path], dict[str, Any]]] = {
    ("john", "lingeval97"): lambda made: {"path": str(lingeval97_set(made))},
    ("john", "mt-reference"): lambda made: {
        "john": f"newstest:dir={DATA / 'wmt' / 'newstest'},years=2009,limit=5",
        "outputs": str(DATA / "wmt" / "mt-outputs")},
    ("claude", "causal-lm"): lambda made: {"model": str(tiny_gpt2(made)), "cache": False, "progress": False},
    ("claude", "fairseq"): lambda made: {"checkpoint": str(fairseq_checkpoint(made)), "cache": False,
                                         "progress": False},
}
UNCOVERED = OWN_TESTS - set(MORE_PARAMS) - set(MADE_PARAMS)
ENTRIES = [
    pytest.param(role, name, id=f"{role}-{name}")
    for role in ("john", "zellig", "claude")
    for name in sorted(CATALOG.table(role))
    if (role, name) not in UNCOVERED
]


def lingeval97_set(made: Path) -> Path:
    path = made / "lingeval97.json"
    if not path.exists():
        sentences = [{"source": "The dog barks.", "reference": "Der Hund bellt.", "origin": "toy.1",
                      "errors": [{"type": "np_agreement", "contrastive": "Die Hund bellt.", "distance": 1}]},
                     {"source": "It rains.", "reference": "Es regnet.", "origin": "toy.2",
                      "errors": [{"type": "polarity_particle_nicht_ins", "contrastive": "Es regnet nicht."}]}]
        path.write_text(json.dumps(sentences), encoding="utf-8")
    return path


def tiny_gpt2(made: Path) -> Path:
    from tests.performers.claude.tiny_models import build_gpt2

    directory = made / "gpt2"
    return directory if (directory / "config.json").exists() else build_gpt2(directory)


def fairseq_checkpoint(made: Path) -> Path:
    from tests.performers.claude.test_fairseq import write_checkpoint

    directory = made / "fairseq"
    if not (directory / "model.pt").exists():
        write_checkpoint(directory)
    return directory


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """Where the files of :data:`MADE_PARAMS` are written (once per module)."""
    return tmp_path_factory.mktemp("made")


def refusal(action: Callable[[], Any]) -> str | None:
    """The message of arena's error type if ``action`` refuses, else ``None``; any other
    exception is raised (a bug)."""
    try:
        action()
    except ArenaError as error:
        return str(error)
    return None


@pytest.mark.parametrize(("role", "name"), ENTRIES)
def test_validate_rejects_exactly_what_run_rejects(role, name, data_dir, tmp_path, monkeypatch, made):
    monkeypatch.chdir(tmp_path)  # what a performer makes of a relative path (a cache) stays here
    monkeypatch.setenv("ARENA_CACHE_DIR", str(made / "cache"))  # model conversions and score caches
    cls = resolve(role, name, CATALOG)
    base = {**PARAMS.get((role, name), {}), **MORE_PARAMS.get((role, name), {})}
    if (role, name) in MADE_PARAMS:
        base.update(MADE_PARAMS[role, name](made))
    assert refusal(lambda: build(role, PerformerSpec(name, base), CATALOG)) is None, "the base params must build"
    declared = {key: annotation for key, annotation in type_hints(cls).items() if key != "return"}
    mismatches, tried = [], 0
    for key, annotation in declared.items():
        for value in bad_values(annotation) + edge_values(annotation):
            spec = PerformerSpec(name, {**base, key: value})
            by_validate = refusal(lambda spec=spec: validate(role, spec, CATALOG))
            by_run = refusal(lambda spec=spec: build(role, spec, CATALOG))
            tried += 1
            if role == "claude" and key in NEEDS_THE_MODEL and by_validate is None:
                continue
            if (by_validate is None) != (by_run is None):
                mismatches.append(f"{key}={value!r}: validate {by_validate or 'accepts'}; run {by_run or 'accepts'}")
    assert tried or not declared, "no bad value generated"
    assert not mismatches, "\n".join(mismatches)


# -- the cases of the issue, through the command line ------------------------------------------

def _has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


CASES = {
    "dtype-literal": ("claudes: [oracle, {name: toy-en-de, params: {dtype: f16}}]", ("'dtype'", "one of fp32")),
    "compute-type-literal": ("claudes: [oracle, {name: toy-en-de-ct2, params: {compute_type: int4}}]",
                             ("'compute_type'", "int8")),
    "device-unknown": ("claudes: [oracle, {name: toy-en-de, params: {device: gpu}}]", ("'device'", "cpu, cuda")),
    "device-cuda-without-gpu": ("claudes: [oracle, {name: toy-en-de, params: {device: cuda}}]",
                                ("'device'", "CUDA is not available")),
    "model-dir-missing": ("claudes: [oracle, {name: hf-seq2seq, params: {model: /no/such/model}}]",
                          ("'model'", "/no/such/model", "no such directory")),
    "hub-id-offline": ("claudes: [oracle, {name: hf-seq2seq, params: {model: nobody/no-such-model}}]",
                       ("'model'", "HF_HUB_OFFLINE")),
    "ensemble-model-missing": ("claudes: [oracle, {name: ensemble, params: {models: [/no/a, /no/b]}}]",
                               ("'models'", "/no/a")),
    "years-without-files": ("johns: [{name: newstest, params: {dir: NEWSTEST, years: 2031}}]",
                            ("'years'", "newstest2031.en: file not found")),
    "years-backwards": ("johns: [{name: newstest, params: {dir: NEWSTEST, years: '2016-2009'}}]",
                        ("'years'", "runs backwards")),
    "years-word": ("johns: [{name: newstest, params: {dir: NEWSTEST, years: recent}}]", ("'years'", "'recent'")),
    "template-unknown": ("johns: [{name: template, params: {spec: M2C, templates: [no_such_template]}}]",
                         ("no_such_template",)),
    "nested-spec": ("johns: [{name: select, params: {john: 'distil-lingeval:dir=/no/such/set', zellig: replay}}]",
                    ("parameter 'john'", "/no/such/set")),
}


@pytest.mark.parametrize("verb", ["validate", "run"])
@pytest.mark.parametrize("case", list(CASES))
def test_validate_and_run_refuse_alike(case, verb, tmp_path, testset, capsys, monkeypatch, data_dir):
    if case == "device-cuda-without-gpu" and _has_cuda():
        pytest.skip("this machine has a GPU")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    line, expect = CASES[case]
    config = write_experiment(tmp_path / "exp.yaml", testset)
    key = line.split(":", 1)[0]
    text = "".join(
        (line.replace("NEWSTEST", str(DATA / "wmt" / "newstest")).replace("M2C", str(M2C)) + "\n")
        if existing.startswith(f"{key}:") else existing
        for existing in _top_level(config.read_text(encoding="utf-8"))
    )
    config.write_text(text, encoding="utf-8")
    out = tmp_path / "runs"
    argv = ["validate", config] if verb == "validate" else ["run", config, "--out", out, "--no-progress"]
    refused(argv, capsys, str(config), *expect)
    assert not out.exists(), "a config refused before the first round leaves no run directory"


def _top_level(text: str) -> list[str]:
    """The config's top-level entries, each with its indented lines."""
    entries: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith((" ", "-")) and entries:
            entries[-1] += line
        else:
            entries.append(line)
    return entries


def test_a_game_that_fails_before_its_first_round_leaves_no_run_directory(tmp_path, testset, capsys):
    """A game writes its manifest first; a John whose files disagree fails while the game
    reads its first block, and the manifest-only directory it used to leave is removed.
    With observation rounds, validate reads the John too (counting its instances against
    them: :mod:`arena.game.fits`) and refuses it alike; without, only the run reads it."""
    (testset / "tgt.incorrect.de").write_text("Nur eine Zeile.\n", encoding="utf-8")
    config = write_experiment(tmp_path / "exp.yaml", testset, "schedule: supervised:2\n")
    refused(["validate", config], capsys, str(testset))
    config = write_experiment(tmp_path / "exp.yaml", testset, "schedule: zero-observation\n")
    assert invoke(["validate", config], capsys)[0] == 0  # the files exist: only reading them finds the fault
    out = tmp_path / "runs"
    refused(["run", config, "--out", out, "--no-progress"], capsys, str(testset))
    assert not out.exists() or not any(out.iterdir()), list(out.rglob("*"))
