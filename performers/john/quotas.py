"""Seeded ranks and proportional quotas of a stratified, capped sample (largest remainder),
as :func:`performers.john.selection.select` draws it."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping


def rank(seed: int, key: str) -> int:
    """A stable pseudo-random rank of ``key`` under ``seed`` (lower comes first)."""
    return int.from_bytes(hashlib.blake2b(f"{seed}/{key}".encode(), digest_size=8).digest(), "big")


def allocate(total: int, sizes: Mapping[str, int]) -> dict[str, int]:
    """Split ``total`` over strata in proportion to ``sizes`` (largest remainder; ties
    by stratum name); no stratum gets more than its size."""
    pool = sum(sizes.values())
    if total >= pool:
        return dict(sizes)
    shares = {name: total * size / pool for name, size in sizes.items()}
    result = {name: math.floor(share) for name, share in shares.items()}
    left = total - sum(result.values())
    for name in sorted(shares, key=lambda n: (-(shares[n] - result[n]), n))[:left]:
        result[name] += 1
    return result


def allocate_quotas(cap: int, sizes: Mapping[str, int], applicable: Mapping[str, int]) -> dict[str, int]:
    """How many instances of a phenomenon each stratum contributes to a capped sample,
    given every stratum's size and its number of applicable instances.

    The cap is split in proportion to the strata's sizes (:func:`allocate`); a stratum
    with fewer applicable instances than its quota gives all it has, and the shortfall
    is split over the strata not yet found short, in proportion to their sizes, until
    nothing is short.  :func:`select` reaches the same quotas lazily, scanning a stratum
    to its end only when it needs to.
    """
    quota = allocate(cap, sizes)
    fixed: set[str] = set()
    while True:
        short = [n for n in sizes if n not in fixed and applicable.get(n, 0) < quota[n]]
        if not short:
            return quota
        deficit = sum(quota[n] - applicable.get(n, 0) for n in short)
        for name in short:
            quota[name] = applicable.get(name, 0)
            fixed.add(name)
        rest = {n: sizes[n] for n in sizes if n not in fixed}
        if not rest:
            return quota
        for name, amount in allocate(deficit, rest).items():
            quota[name] += amount
