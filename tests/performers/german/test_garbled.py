"""Garbled machine translation: loops, copied sources, fragments; and ordinary German,
including short sentences and names shared with the source, that must not count."""

from __future__ import annotations

import pytest

from performers.german.garbled import garbled

SOURCE = "The outcome of the negotiations in Brussels is still unclear to the ministers."


@pytest.mark.parametrize(
    ("text", "source", "reason"),
    [
        ("Das Ergebnis der Verhandlungen in der Kommission, der Kommission, der Kommission.", SOURCE, "loop"),
        ("Die die die Verhandlungen sind klar.", SOURCE, "loop"),
        ("The outcome of the negotiations in Brussels is still klar.", SOURCE, "copied"),
        ("Das Ergebnis.", SOURCE, "length"),
        ("Das Ergebnis: " + " ".join(f"Punkt {letter}" for letter in "abcdefghijklmnopqrst") + " ist klar.", SOURCE, "length"),
        # must not fire
        ("Das Ergebnis der Verhandlungen in Brüssel ist für die Minister noch klar.", SOURCE, None),
        ("Das Ergebnis der Verhandlungen in Brussels ist für die Minister noch klar.", SOURCE, None),
        ("Das ist klar.", "This is unclear.", None),
        ("Er sagte: Nein, nein.", "He said: no, no.", None),
        ("Die Ergebnisse von 2011, 2012 und 2013.", "The results of 2011, 2012 and 2013.", None),
        ("Das ist klar.", None, None),
    ],
)
def test_garbled(text, source, reason):
    assert garbled(text, source) == reason
