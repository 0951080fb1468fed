"""Tests for performers.german.np_context: the cases a noun phrase's context allows."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.np_context import context_cases
from performers.german.syntax import np_head

NOM_ACC = {"NOM", "ACC"}
FREE = {"NOM", "ACC", "DAT"}


@pytest.mark.parametrize(
    "text, occurrence, expected",
    [
        ("Er muss auf der Markt wirksam sein.", 0, {"ACC", "DAT"}),  # the preposition governs
        ("Es ist das Shem, das der Legende nach den Golem erweckt.", 1, None),  # nach: a postposition here
        ("Der Auswahl ist groß.", 0, NOM_ACC),  # the prefield, the only subject
        ("Der Börse in Taiwan fiel um 3,6 Prozent.", 0, NOM_ACC),  # with a prepositional attribute
        ("Der Prager Börse fehlt das Geld.", 0, None),  # das Geld may be the subject
        ("Den Kindern stehen Handwerker zur Seite.", 0, None),  # den: a dative in the prefield
        ("Tatsächlich wurde der Dividende gestrichen.", 0, NOM_ACC),  # right after the finite verb
        ("Er war der Ansicht, dass es reicht.", 0, FREE),  # sein: a genitive predicate, no subject position
        ("Der Regierung ist klar, dass es reicht.", 0, None),  # the dass-clause may be the subject
        ("Gleichzeitig stellte der Unternehmen fest, dass es wächst.", 0, FREE),  # free: no genitive
        ("Wir gedenken der Opfer.", 0, None),  # a verb with a genitive object
        ("Beim Betrachten des Bildes staunt man.", 0, None),  # after a noun the tagger took for a verb
        ("Die Reaktion des Marktes kam.", 0, NOM_ACC),
        ("Die Reaktion des Marktes kam.", 1, None),  # a genitive attribute
        ("Er ist seit der Gerichtshof entschied zufrieden.", 0, {"DAT", "NOM"}),  # seit: also a conjunction
    ],
)
def test_context_cases(text, occurrence, expected):
    analysis = analyze(text)
    articles = [t.index for t in analysis.tokens if t.pos == "ART" and t.text.lower() in ("der", "die", "das", "den", "dem", "des")]
    index = articles[occurrence]
    head = np_head(analysis.tokens, index, extended=False)
    cases = context_cases(analysis, index, head)
    assert (None if cases is None else set(cases)) == expected
