"""Bootstrap resamples drawn a block of rows at a time equal one (samples × n) draw, so bounded
memory changes no CI or p-value."""

from __future__ import annotations

import numpy as np
import pytest

from arena.stats import aggregate


def one_draw(arrays, samples, seed):
    index = np.random.default_rng(seed).integers(0, len(arrays[0]), size=(samples, len(arrays[0])))
    return [array[index].sum(axis=1) for array in arrays]


@pytest.mark.parametrize("n", [1, 2, 7, 1000, 4099])
@pytest.mark.parametrize("cells", [1, 5, 4096, 1 << 21])  # 1 << 21: one block for these sizes (no chunking)
def test_blocks_of_rows_equal_one_draw(monkeypatch, n, cells):
    monkeypatch.setattr(aggregate, "RESAMPLE_CELLS", cells)
    rng = np.random.default_rng(n)
    arrays = (rng.random(n), rng.integers(1, 3, n).astype(float))
    for got, expected in zip(aggregate.resampled_sums(arrays, 1000, 12345), one_draw(arrays, 1000, 12345)):
        assert np.array_equal(got, expected)


def test_cis_do_not_depend_on_the_block_size(monkeypatch):
    rng = np.random.default_rng(3)
    sums, counts = rng.integers(0, 2, 3001).astype(float), np.ones(3001)
    whole = aggregate.bootstrap_ci(sums, counts), aggregate.paired_bootstrap(sums, rng.random(3001))
    monkeypatch.setattr(aggregate, "RESAMPLE_CELLS", 10_000)
    rng = np.random.default_rng(3)
    sums, counts = rng.integers(0, 2, 3001).astype(float), np.ones(3001)
    assert (aggregate.bootstrap_ci(sums, counts), aggregate.paired_bootstrap(sums, rng.random(3001))) == whole
