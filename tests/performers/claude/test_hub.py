"""An unreachable hub model fails after one attempt, saying how to work offline."""

from __future__ import annotations

import time

import pytest

from arena.cli import main
from performers.claude.hub import require_model


def test_local_directories_pass(tmp_path):
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    require_model(str(tmp_path))


def test_a_local_directory_without_any_json_is_no_model(tmp_path):
    with pytest.raises(ValueError, match="holds no config.json"):
        require_model(str(tmp_path))


@pytest.mark.parametrize("offline", ["HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"])
def test_offline_and_not_cached(monkeypatch, offline):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv(offline, "1")
    with pytest.raises(ValueError, match="HF_HUB_OFFLINE is set") as error:
        require_model("no-such-org/no-such-model")
    assert "local directory" in str(error.value) and "hf download no-such-org/no-such-model" in str(error.value)


def test_unreachable_hub_fails_after_one_attempt(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens on the discard port
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"the hub cannot be reached \(127\.0\.0\.1:9: ") as error:
        require_model("no-such-org/no-such-model")
    assert time.perf_counter() - started < 10  # one attempt, not a minute of retries
    assert "HF_HUB_OFFLINE=1" in str(error.value)


@pytest.mark.parametrize("spec", ["hf-seq2seq:model=no-such-org/no-such-model",
                                  "causal-lm:model=no-such-org/no-such-model"])
def test_cli_says_how_to_work_offline_once(tmp_path, capsys, monkeypatch, spec):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    testset = tmp_path / "set"
    testset.mkdir()
    for name, text in (("src.en", "A house.\n"), ("tgt.correct.de", "Ein Haus.\n"), ("tgt.incorrect.de", "Ein Ding.\n")):
        (testset / name).write_text(text, encoding="utf-8")
    code = main(["score-pairs", "--claude", spec, "--format", "distil-lingeval", "--testset", str(testset),
                 "--out", str(tmp_path / "scores.txt")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("HF_HUB_OFFLINE") >= 1 and err.count("\n") == 1  # one line, no retry noise


@pytest.mark.parametrize("name", ["/nonexistent/model-dir", "./models/x", "~/no/such", "a/b/c"])
def test_a_missing_local_path_is_named_as_such(name):
    with pytest.raises(ValueError, match=r"cannot load model .*: no such directory"):
        require_model(name)
