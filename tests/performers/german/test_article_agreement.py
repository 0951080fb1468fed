"""Tests for performers.german.article_agreement: article–noun readings and weak adjective endings."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.article_agreement import agreeing_cases, agreeing_readings, weak_endings


def _phrase(text: str):
    tokens = analyze(text).tokens
    head = max(t.index for t in tokens if t.pos in ("NN", "NE"))
    return tokens, head


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Er sah der Börse zu.", {"DAT", "GEN"}),
        ("Er kennt den Markt.", {"ACC"}),
        ("Die Reaktion der Marktes.", set()),  # agrees on no reading
        ("Er sah der ägyptische Regierung zu.", set()),  # der … -e: only a masculine nominative
        ("Er sah der ägyptischen Regierung zu.", {"DAT", "GEN"}),
        ("Er setzte auf dem Gewinnen.", {"DAT"}),  # a nominalised infinitive, neuter
        ("Er sprach mit die Verwaltungsrat.", set()),  # an unknown compound, head Rat
        ("Er kam mit der Abgeordnete.", None),  # a nominalised adjective: undecidable
        ("Er kam mit der Teil.", None),  # der/das Teil: two genders
    ],
)
def test_agreeing_cases(text, expected):
    tokens, head = _phrase(text)
    article = max(t.index for t in tokens if t.pos == "ART" and t.index < head)
    cases = agreeing_cases(tokens[article].text.lower(), tokens[head], weak_endings(tokens, article, head))
    assert (None if cases is None else set(cases)) == expected


def test_readings_carry_the_number():
    tokens, head = _phrase("Die Minister kamen.")
    assert agreeing_readings("die", tokens[head]) == {("PL", "NOM"), ("PL", "ACC")}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Der ägyptische Regierung kam.", ("e",)),
        ("Die große neuen Ereignisse kamen.", ()),  # endings that disagree among themselves say nothing
        ("Die Deutschen selbstfahrende Autos fahren.", ()),  # a capitalised adjective
        ("Die Prager Börse fiel.", ()),  # an invariable place adjective says nothing
    ],
)
def test_weak_endings(text, expected):
    tokens, head = _phrase(text)
    assert weak_endings(tokens, 0, head) == expected
