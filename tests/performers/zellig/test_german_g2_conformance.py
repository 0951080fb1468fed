"""Conformance of the German agreement, polarity-particle, auxiliary and particle Zelligs from the catalog:
built by name, versioned, edits reproduce the text, [] when nothing applies, deterministic."""

from __future__ import annotations

import pytest

from arena.specs.registry import import_path
from performers.catalog import ZELLIGS
from tests.performers.zellig.german_checks import corrupt

NAMES = [
    "hypercorrect-genitive",
    "np-agreement",
    "subj-verb-agreement",
    "subj-adequacy",
    "auxiliary",
    "verb-particle",
    "polarity-particle-kein-del",
    "polarity-particle-kein-ins",
]
SENTENCES = [
    "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
    "Seit dem Tag hat sie keinen Zweifel, dass er nach Hause gegangen ist.",
    "„Wir stellen im Mai einen neuen Mitarbeiter ein“, sagte sie.",
    "Ok.",
    "   ",
    "",
]


@pytest.fixture(scope="module", params=NAMES)
def zellig(request):
    cls = import_path(ZELLIGS[request.param])
    assert isinstance(cls.version, str)
    return request.param, cls()


def test_conformance(zellig):
    name, performer = zellig
    label = name.replace("-", "_")
    for sentence in SENTENCES:
        for variant in corrupt(performer, sentence):
            assert variant.phenomenon == label
            assert all(isinstance(k, str) for k in variant.meta)
    assert corrupt(performer, "Ok.") == []
