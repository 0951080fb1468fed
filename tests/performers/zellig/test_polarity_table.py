"""The polarity Zelligs: one transformation (performers.zellig.polarity) over a (negator, direction) table."""

from __future__ import annotations

import itertools

import pytest

from performers.catalog import CATALOG
from performers.zellig.polarity import PolarityZellig, table


def test_one_zellig_per_negator_and_direction_each_in_the_catalog_under_its_phenomenon():
    rows = table()
    assert set(rows) == set(itertools.product(("affix", "kein", "nicht"), ("del", "ins")))
    paths = CATALOG.table("zellig")
    for zellig in rows.values():
        name = zellig.polarity.phenomenon.replace("_", "-")
        assert paths[name] == f"{zellig.__module__}:{zellig.__name__}"


@pytest.mark.parametrize(
    "negator, direction, source, applies",
    [
        # a deletion needs the source's negation of its kind
        ("affix", "del", "The timing is unclear.", True),
        ("affix", "del", "The timing is not clear.", False),
        ("nicht", "del", "It is not decisive.", True),
        ("kein", "del", "No panic has emerged.", True),
        ("kein", "del", "Panic has emerged.", False),
        # an insertion needs a source that negates nothing
        ("affix", "ins", "The situation is clear.", True),
        ("kein", "ins", "He bought a dog.", True),
        ("nicht", "ins", "He did not read the book.", False),
        ("nicht", "ins", "", False),
        # without a source nothing applies
        ("affix", "del", None, False),
        ("kein", "ins", None, False),
    ],
)
def test_applies_by_direction(negator, direction, source, applies):
    zellig: PolarityZellig = table()[(negator, direction)]()
    assert zellig.applies(source) is applies
    assert zellig.detect("Er kam nicht.", None) is False  # undecidable without a source
