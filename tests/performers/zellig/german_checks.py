"""Shared checks for the German rule Zelligs' tests: conformance of every candidate and table cases."""

from __future__ import annotations

from arena.edits import apply_edits
from arena.records import Instance, Variant


def corrupt(zellig, reference: str, source: str = "") -> list[Variant]:
    """Run ``zellig`` on one reference and check the contract on the way (list, edits, determinism)."""
    instance = Instance("test.1", source, reference)
    variants = zellig.corrupt(instance)
    assert isinstance(variants, list)
    for variant in variants:
        assert variant.instance_id == instance.id
        assert variant.text != reference
        assert apply_edits(reference, variant.edits) == variant.text
        assert all(reference[e.start : e.end] == e.before for e in variant.edits)
    assert list(zellig.corrupt(instance)) == list(variants)
    assert len({v.text for v in variants}) == len(variants), "duplicate candidates"
    return variants


def texts(zellig, reference: str) -> list[str]:
    return [variant.text for variant in corrupt(zellig, reference)]
