"""The per-John data digest of a run's signature, computed one instance at a time, equals the digest
of the whole list of instances (first appearance order, each once)."""

from __future__ import annotations

import pytest

from arena.specs.signature import data_digests, digest


def whole_list(records):
    seen: dict[str, dict] = {}
    for record in records:
        seen.setdefault(record["john"], {}).setdefault(record["instance"]["id"], record["instance"])
    return {john: digest(list(instances.values())) for john, instances in seen.items()}


def rounds(pattern: str):
    """One record per character: the John is the case, the instance the letter."""
    return [{"john": "upper" if c.isupper() else "lower",
             "instance": {"id": c.lower(), "source": f"Ü {c.lower()}", "meta": {"z": 1, "a": [c.lower()]}}}
            for c in pattern]


@pytest.mark.parametrize("pattern", ["", "a", "aaa", "abAcBa", "xyzXYZzyx", "aAaAbB"])
def test_streamed_digest_equals_the_whole_list_digest(pattern):
    assert data_digests(rounds(pattern)) == whole_list(rounds(pattern))


def test_order_of_first_appearance_matters():
    assert data_digests(rounds("ab")) != data_digests(rounds("ba"))
    assert data_digests(rounds("aba")) == data_digests(rounds("ab"))  # repeats do not count
