"""subj-verb-agreement's opt-in ``detector: rules+model``: its params are declared and checked (bad ones are
exit 2 from ``arena validate``), and the combined detector fires where the rules or the shipped verb-number
model reject a verb's number."""

from __future__ import annotations

import pytest

from arena.errors import ConfigError
from arena.specs.registry import build, validate
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG
from performers.zellig.subj_verb_agreement import SubjVerbAgreementZellig


@pytest.mark.parametrize(
    "params",
    [{}, {"detector": "rules"}, {"detector": "rules+model"}, {"detector": "rules+model", "model_threshold": 0.95},
     {"model_threshold": 0.5}],
)
def test_good_detector_params_pass_validate(params):
    validate("zellig", PerformerSpec("subj-verb-agreement", params), CATALOG)


@pytest.mark.parametrize(
    "params, key",
    [({"detector": "model"}, "detector"), ({"detector": 1}, "detector"), ({"model_threshold": 1.0}, "model_threshold"),
     ({"model_threshold": 0.2}, "model_threshold"), ({"model_threshold": "high"}, "model_threshold"),
     ({"model_threshold": True}, "model_threshold")],
)
def test_bad_detector_params_are_refused(params, key):
    with pytest.raises(ConfigError, match=key):
        validate("zellig", PerformerSpec("subj-verb-agreement", params), CATALOG)
    with pytest.raises(ConfigError, match=f"parameter '{key}' must be"):
        build("zellig", PerformerSpec("subj-verb-agreement", params), CATALOG)


def test_bad_detector_is_exit_2_naming_file_and_key(tmp_path, capsys):
    from arena.cli import main

    path = tmp_path / "exp.yaml"
    path.write_text("name: t\njohn: {name: distil-lingeval, params: {dir: /nowhere}}\n"
                    "zellig: {name: subj-verb-agreement, params: {detector: parser}}\nclaude: random\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "detector" in err and str(path) in err


@pytest.fixture(scope="module")
def combined():
    return SubjVerbAgreementZellig(detector="rules+model")


@pytest.fixture(scope="module")
def rules():
    return SubjVerbAgreementZellig(detector="rules")


@pytest.mark.parametrize(
    "text",
    ["Die Kinder spielt im Garten.", "Das Unternehmen kündigten an, dass es Stellen abbauen werde."],
)
def test_combined_detector_fires_on_disagreeing_verbs(combined, text):
    assert combined.detect(text)


@pytest.mark.parametrize(
    "text",
    [
        "Die Kinder spielen im Garten.",
        "Das Unternehmen kündigte an, dass es Stellen abbauen werde.",
        "Die Zahl der Arbeitslosen ist im vergangenen Monat gestiegen.",
        "Das sind gute Nachrichten für die Mitarbeiter.",
        "Es gibt viele Gründe, warum die Preise steigen.",
        "In den letzten Jahren sind die Preise stark gestiegen.",
    ],
)
def test_combined_detector_keeps_quiet_on_correct_sentences(combined, text):
    assert not combined.detect(text)


def test_model_adds_what_the_rules_miss(rules):
    text = "Die Regierung haben die Steuern erhöht."  # the rules leave a subject after the verb open
    assert not rules.detect(text)
    assert SubjVerbAgreementZellig(detector="rules+model", model_threshold=0.9).detect(text)


def test_default_detector_is_rules_and_model(rules):
    assert SubjVerbAgreementZellig().detector == "rules+model"
    assert rules.detector == "rules"
