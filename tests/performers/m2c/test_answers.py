"""Answer validation for M2C's QA items: exact, normalised, regex, morphology-aware."""

from __future__ import annotations

import pytest

from performers.m2c.answers import (
    CORRECT,
    MORPHOLOGY,
    WRONG_WORD,
    AnswerValidator,
    error_summary,
    exact_match,
    normalized_match,
    regex_match,
    split_qa,
)

from .helpers import JOBS, NAMES, space


def test_split_qa():
    item = split_qa("C: Anna ist Lehrerin. Q: Wer ist Lehrerin? A: Anna.")
    assert (item.context, item.question, item.answer) == ("Anna ist Lehrerin.", "Wer ist Lehrerin?", "Anna.")
    with pytest.raises(ValueError):
        split_qa("Anna ist Lehrerin.")


@pytest.mark.parametrize(
    "prediction,gold,exact,normalized",
    [
        ("Anna.", "Anna.", True, True),
        ("  anna ", "Anna.", False, True),
        ("ANNA!", "Anna.", False, True),
        ("Anne", "Anna", False, False),
        ("l'homme", "L'homme.", False, True),
    ],
)
def test_exact_and_normalized_match(prediction, gold, exact, normalized):
    assert exact_match(prediction, gold) is exact
    assert normalized_match(prediction, gold) is normalized


def test_regex_match_is_whole_and_case_insensitive():
    assert regex_match(" Sieben. ", r"sieben\.?")
    assert not regex_match("siebenundzwanzig", r"sieben")


@pytest.fixture(scope="module")
def validator():
    template = "C: {name} ist {ein:name.SG.MASC|eine:name.SG.FEM|:name.PL} {job.<name.NUMBER.GENDER>}. Q: Wer? A: {job.<name.NUMBER>.MASC}."
    return AnswerValidator.from_space(space(template, name=NAMES, job=JOBS))


@pytest.mark.parametrize(
    "prediction,gold,label",
    [
        ("Lehrer.", "Lehrer", CORRECT),
        ("Lehrerin", "Lehrer", MORPHOLOGY),  # right word, wrong form
        ("Ärztinnen", "Arzt", MORPHOLOGY),
        ("eine Lehrerin", "ein Lehrer", MORPHOLOGY),  # every difference is inflectional
        ("Arzt", "Lehrer", WRONG_WORD),
        ("ein Arzt", "eine Lehrerin", WRONG_WORD),  # one difference is another word
        ("Lehrer und Arzt", "Lehrer", WRONG_WORD),
        ("", "Lehrer", WRONG_WORD),
    ],
)
def test_morphology_aware_classification(validator, prediction, gold, label):
    assert validator.classify(prediction, gold) == label


def test_error_summary_reports_the_morphology_share():
    summary = error_summary([CORRECT, CORRECT, MORPHOLOGY, WRONG_WORD, WRONG_WORD, WRONG_WORD])
    assert summary["total"] == 6 and summary["accuracy"] == pytest.approx(2 / 6)
    assert summary["morphology_share_of_errors"] == pytest.approx(1 / 4)
    assert error_summary([])["accuracy"] == 0.0
