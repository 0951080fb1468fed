"""Tests for performers.german.relative_pronoun: may an article word after a comma be a relative pronoun?"""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.relative_pronoun import relative_pronoun_position


@pytest.mark.parametrize(
    "text, word, expected",
    [
        ("Sie verließ das Haus, in dem Geld lag.", "dem", True),  # das Haus: neuter, dem may refer to it
        ("Sie verließ die Stadt, in dem Hoffnung, Arbeit zu finden.", "dem", False),  # no masculine or neuter noun
        ("Solche, die Langholz transportieren, warten dort.", "die", True),  # no noun before: undecided
        ("Er sagte, das Distrikt müsse bessere Wege finden.", "das", False),  # the verb second: a main clause
        ("Er nannte den Titel des Albums, dem Genre oder der Bewertung.", "dem", False),  # no verb follows
        ("Er kannte das Ende des Systems, des Staates.", "des", False),  # des is never a relative pronoun
    ],
)
def test_relative_pronoun_position(text, word, expected):
    tokens = analyze(text).tokens
    index = next(t.index for t in tokens if t.text == word and t.index > 0 and tokens[t.index - 1].text in (",", "in"))
    assert relative_pronoun_position(tokens, index) is expected
