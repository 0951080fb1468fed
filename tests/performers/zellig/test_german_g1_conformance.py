"""Conformance of the German Zelligs placeholder-ding, polarity-affix-del/ins, clause-omission,
polarity-particle-nicht-del/ins, compound and transliteration: on edge cases and on real references,
``corrupt`` returns a list (``[]``, never ``None``), deterministically, with exact edits and the
right phenomenon label; detectors return booleans with and without a source."""

from __future__ import annotations

import pytest

from arena.edits import apply_edits
from arena.records import Instance
from arena.specs.conformance import assert_conforms, check_zellig
from arena.specs.registry import build
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG
from tests.conftest import DATA

NAMES = {
    "placeholder-ding": "placeholder_ding",
    "polarity-affix-del": "polarity_affix_del",
    "polarity-affix-ins": "polarity_affix_ins",
    "clause-omission": "clause_omission",
    "polarity-particle-nicht-del": "polarity_particle_nicht_del",
    "polarity-particle-nicht-ins": "polarity_particle_nicht_ins",
    "compound": "compound",
    "transliteration": "transliteration",
}

EDGE_CASES = [
    "",
    "   ",
    ".",
    "„…“",
    "Nicht.",
    "Ding",
    "Die unklare Lage des Bundesverfassungsgerichts ist nicht wichtig; Medwedew schweigt. Er kam, als sie ging.",
    "Er sagte: „Das ist unerwartet!“ – und ging.  Doppelte  Leerzeichen\tund Tab.",
    "EU-Kommission, Finanz- und Wirtschaftskrise: 3,5 Mio. Euro (ca. 20 %) am 19. September.",
]


def real_references(limit: int = 40) -> list[str]:
    path = DATA / "wmt" / "newstest" / "newstest2009.de"
    if not path.is_file():
        return []
    return path.read_text(encoding="utf-8").splitlines()[:limit]


@pytest.fixture(scope="module")
def instances():
    texts = EDGE_CASES + real_references()
    return [Instance(f"case.{i}", "This is not a thing, it is unclear.", text) for i, text in enumerate(texts)]


@pytest.mark.parametrize("name", sorted(NAMES))
def test_conforms(name, instances):
    zellig = build("zellig", PerformerSpec(name), CATALOG)
    assert_conforms(check_zellig(zellig, instances), f"zellig {name}")
    for instance in instances:
        variants = zellig.corrupt(instance)
        if not instance.reference.strip():
            assert variants == []
        for variant in variants:
            assert variant.phenomenon == NAMES[name]
            assert apply_edits(instance.reference, variant.edits) == variant.text
            assert all(isinstance(value, (str, int, float, bool, list)) for value in variant.meta.values())


@pytest.mark.parametrize("name", [n for n in sorted(NAMES) if n in {"placeholder-ding", "polarity-affix-del",
                                                                    "clause-omission", "polarity-particle-nicht-del"}])
def test_detectors_return_bools(name, instances):
    zellig = build("zellig", PerformerSpec(name), CATALOG)
    for instance in instances[:12]:
        assert isinstance(zellig.detect(instance.reference), bool)
        assert isinstance(zellig.detect(instance.reference, instance.source), bool)
