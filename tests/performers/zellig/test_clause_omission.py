"""clause-omission: delete the first or last unit (sentence, ;/: part) or clause."""

from __future__ import annotations

import pytest

from arena.errors import ConfigError
from performers.zellig.clause_omission import ClauseOmissionZellig
from tests.performers.built import built
from tests.performers.zellig.helpers import candidates


@pytest.fixture(scope="module")
def zellig():
    return ClauseOmissionZellig()


@pytest.mark.parametrize(
    "reference, expected",
    [
        (
            "Genaue Angaben gibt es nicht; die Rede ist von 50 000 Besuchern.",
            ["die Rede ist von 50 000 Besuchern.", "Genaue Angaben gibt es nicht;"],
        ),
        (
            "Er begründet das Fehlen von Stewards. Seine Gesellschaft betreibt nur wenige Linien. ",
            ["Seine Gesellschaft betreibt nur wenige Linien. ", "Er begründet das Fehlen von Stewards. "],
        ),
        ("Er kam spät, sie ging früh.", ["Sie ging früh.", "Er kam spät."]),
        ("Er kam spät, weil der Zug Verspätung hatte.", ["Er kam spät."]),
        ("Indiana war der erste Staat, der das forderte.", ["Indiana war der erste Staat."]),
        ("Sie kichern: Die Deutsche ist total „kawaii“!", ["Die Deutsche ist total „kawaii“!", "Sie kichern:"]),
        # must not fire: one clause; commas of appositions and dates
        ("Der Mittwoch, der 1. Oktober 2008, wird in die Geschichte eingehen.", []),
        ("Er kaufte Äpfel, Birnen und Pflaumen.", []),
        ("Als er kam, ging sie.", []),  # neither "Ging sie." nor "Als er kam." stands alone
        ("", []),
    ],
)
def test_candidates(zellig, reference, expected):
    assert candidates(zellig, reference) == expected


def test_splitting_after_periods_reproduces_distil_lingeval():
    reference = "Angreifer hatten die Gruppe am 19. September entführt."
    assert candidates(ClauseOmissionZellig(), reference) == []
    assert "Angreifer hatten die Gruppe am 19." in candidates(ClauseOmissionZellig(split_after_periods=True), reference)


@pytest.mark.parametrize(
    "text, source, expected",
    [
        ("Er kam.", "He came late, because the train was delayed; nobody waited.", True),
        ("Er kam spät, weil der Zug Verspätung hatte; niemand wartete.",
         "He came late, because the train was delayed; nobody waited.", False),
        ("Er kam.", "He came.", False),
        ("Er kam.", None, False),
    ],
)
def test_detect(zellig, text, source, expected):
    assert zellig.detect(text, source) is expected


def test_bad_params():
    with pytest.raises(ConfigError, match="parameter 'clauses' must be a boolean"):
        built(ClauseOmissionZellig, clauses="yes")
    with pytest.raises(ConfigError, match="parameter 'detect_ratio' must be a number > 0 ≤ 2, not 0"):
        built(ClauseOmissionZellig, detect_ratio=0)
