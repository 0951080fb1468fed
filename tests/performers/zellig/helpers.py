"""Helpers for the table-driven tests of G1's German Zelligs."""

from __future__ import annotations

from arena.edits import apply_edits
from arena.records import Instance


def candidates(zellig, reference: str, source: str = "") -> list[str]:
    """The candidate texts of ``zellig`` for ``reference``, checking the contract on the way: a list,
    edits that reproduce each text from the reference, no unchanged or duplicate candidates, and the
    same answer twice."""
    instance = Instance("t", source, reference)
    variants = zellig.corrupt(instance)
    assert isinstance(variants, list)
    for variant in variants:
        assert apply_edits(reference, variant.edits) == variant.text
        assert variant.text != reference and variant.instance_id == "t"
    texts = [variant.text for variant in variants]
    assert len(set(texts)) == len(texts), "duplicate candidates"
    assert list(zellig.corrupt(instance)) == list(variants)
    return texts
