"""Numbers the English source settles (performers/german/source_number.py): *sie*, the English subject's
number, and a bare opening German noun of either number checked against it."""

from __future__ import annotations

import pytest

from performers.german.analysis import analyze
from performers.german.source_number import english_subject_number, opening_disagreements, settled_sie, sie_number


@pytest.mark.parametrize(
    "source, expected",
    [
        ("Yesterday they won.", "PL"),
        ("Yesterday she won.", "SG"),
        ("It will likely soon blend in.", None),  # it is no evidence for sie
        ("She and they won.", None),
    ],
)
def test_sie_number(source, expected):
    assert sie_number(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        ("Representatives of the legislature met on Saturday.", "PL"),  # plural head before a preposition
        ("Researchers presume that it only came into being later.", "PL"),
        ("British scientists said the results were good.", "PL"),
        ("Politicians have expressed concern.", "PL"),
        ("The mayor of Gioia Tauro was disposed to help.", "SG"),  # the verb shows it
        # left open
        ("Judge temporarily blocks law that could close clinics", None),  # headline: blocks is the verb
        ("Staff gave evidence.", None),  # a collective noun
        ("Spain has more chances.", None),  # a singular first word may be a name
        ("In 2010, the troops were there.", None),  # no subject opens the sentence
        ("He said it.", None),
        ("Counterfeiters from China and Indonesia will bring more.", None),  # a coordination
        ("Politics is hard.", None),
    ],
)
def test_english_subject_number(source, expected):
    assert english_subject_number(source) == expected


@pytest.mark.parametrize(
    "text, source, expected",
    [
        ("Vertreter des Gesetzgebers traf sich am Samstag.", "Representatives of the legislature met on Saturday.",
         True),
        ("Forscher vermutet, dass es kurz nach dem Urknall entstand.", "Researchers presume that it came later.", True),
        # must not fire
        ("Vertreter des Gesetzgebers trafen sich am Samstag.", "Representatives of the legislature met on Saturday.",
         False),
        ("Vertreter des Gesetzgebers traf sich am Samstag.", None, False),  # no source
        ("Finanzminister Timms bestritt das.", "Finance ministers Timms denied it.", False),  # the name is the head
        ("Veranstalter sind der Förderverein und der Skiclub.", "Organisers are the club.", False),  # a copula
        ("Die Vertreter trafen sich.", "Representatives met.", False),  # not bare: left to subject_number
    ],
)
def test_opening_disagreements(text, source, expected):
    assert bool(opening_disagreements(analyze(text), source)) is expected


@pytest.mark.parametrize(
    "text, source, expected",
    [
        ("Gestern hat sie gewonnen.", "Yesterday they won.", "PL"),
        ("Die Polizei gibt an, sie sei im Besitz eines Videos.", "Police say they have a video.", None),  # die Polizei
        ("Die Kinder sagen, sie habe gewonnen.", "The children say she won.", None),  # a plural noun before sie
        ("Der Lehrer sagt, sie habe gewonnen.", "The teacher says she won.", "SG"),
        ("Sie hat die Märkte gewarnt.", "They have warned the markets.", None),  # sentence-initial: outside
    ],
)
def test_settled_sie(text, source, expected):
    assert settled_sie(analyze(text), source) == expected
