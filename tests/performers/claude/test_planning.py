"""Request planning: grouping, shared prefixes, batches under a token budget."""

from __future__ import annotations

import random

import pytest

from performers.claude.planning import (
    SourceGroup,
    TargetRequest,
    batch_cost,
    common_prefix,
    group_by_source,
    plan_batches,
    shared_length,
)


def request(index, decoder_ids, first_scored=0):
    decoder_ids = tuple(decoder_ids)
    return TargetRequest(index, decoder_ids, decoder_ids[1:] + (0,), first_scored)


@pytest.mark.parametrize(
    "sequences, expected",
    [
        ([(1, 2, 3), (1, 2, 4)], 2),
        ([(1, 2, 3), (1, 2, 3, 4)], 3),
        ([(1,), (2,)], 0),
        ([(5, 6, 7)], 3),
        ([(1, 2), (1, 2), (1, 3)], 1),
    ],
)
def test_common_prefix(sequences, expected):
    assert common_prefix(sequences) == expected


@pytest.mark.parametrize(
    "decoder_ids, quantum, expected",
    [
        ([range(20), list(range(12)) + [99] * 8], 8, 8),  # common prefix 12 -> 8
        ([range(20), list(range(7)) + [99] * 13], 8, 0),  # common prefix 7 < quantum: nothing shared
        ([range(20), list(range(16)) + [99]], 8, 16),
        ([range(17), range(30)], 8, 16),  # one target is a prefix of the other: keep one suffix token
        ([range(16), range(30)], 8, 8),  # capped at len - 1 = 15 -> 8
        ([range(30)], 8, 0),  # a single target shares nothing
        ([range(20), range(20, 40)], 8, 0),  # different from the start
        ([range(20), list(range(12)) + [99] * 8], 4, 12),
        ([range(20), list(range(12)) + [99] * 8], 0, 0),  # quantum 0 switches sharing off
    ],
)
def test_shared_length(decoder_ids, quantum, expected):
    targets = [request(i, ids) for i, ids in enumerate(decoder_ids)]
    assert shared_length(targets, quantum) == expected


def test_group_by_source_keeps_first_seen_order():
    sources = [(1, 2), (3,), (1, 2), (4,)]
    targets = [request(i, (7, i)) for i in range(4)]
    groups = group_by_source(sources, targets)
    assert [g.source_ids for g in groups] == [(1, 2), (3,), (4,)]
    assert [[t.index for t in g.targets] for g in groups] == [[0, 2], [1], [3]]


def random_groups(seed, count=60):
    rng = random.Random(seed)
    groups, index = [], 0
    for _ in range(count):
        source = tuple(rng.randrange(100) for _ in range(rng.randint(1, 40)))
        stem = [rng.randrange(100) for _ in range(rng.randint(1, 40))]
        targets = []
        for _ in range(rng.randint(1, 4)):
            tail = [rng.randrange(100) for _ in range(rng.randint(1, 20))]
            targets.append(request(index, [0] + stem + tail))
            index += 1
        groups.append(SourceGroup(source, targets))
    return groups, index


@pytest.mark.parametrize("share", [True, False])
@pytest.mark.parametrize("budget", [64, 400, 5000])
def test_plan_covers_every_target_once_within_budget(share, budget):
    groups, total = random_groups(budget)
    batches = plan_batches(groups, budget, quantum=8, share_prefixes=share)
    seen = sorted(t.index for b in batches for g in b.groups for t in g.targets)
    assert seen == list(range(total))
    for batch in batches:
        assert all(g.shared == batch.shared for g in batch.groups)
        if not share:
            assert batch.shared == 0
        if batch.rows > 1:
            assert batch_cost(batch.groups, batch.shared) <= budget
        for group in batch.groups:
            for target in group.targets:  # the shared part is common to the whole group
                assert target.decoder_ids[: group.shared] == group.targets[0].decoder_ids[: group.shared]
                assert len(target.decoder_ids) > group.shared


def test_plan_sorts_by_length_within_a_bucket():
    groups, _ = random_groups(7)
    batches = plan_batches(groups, 300, quantum=8, share_prefixes=False)
    lengths = [(g.longest_suffix, len(g.source_ids)) for b in batches for g in b.groups]
    assert lengths == sorted(lengths)


def test_oversized_group_is_split():
    targets = [request(i, [0] + [i] * 50) for i in range(10)]
    batches = plan_batches([SourceGroup((1, 2, 3), targets)], budget=120, quantum=8)
    assert sorted(t.index for b in batches for g in b.groups for t in g.targets) == list(range(10))
    assert len(batches) > 1


def test_bad_budget_and_requests():
    with pytest.raises(ValueError, match="budget"):
        plan_batches([], 0)
    with pytest.raises(ValueError, match="labels"):
        TargetRequest(0, (1, 2), (2,))
    with pytest.raises(ValueError, match="no target tokens"):
        TargetRequest(0, (), ())
