"""Request planning: grouping, shared prefixes, batches under a token budget."""

from __future__ import annotations

import random

import pytest

from performers.claude.planning import (
    SourceGroup,
    TargetRequest,
    common_prefix,
    group_by_source,
    group_tokens,
    plan_blocks,
    shared_length,
    split_by_prefix,
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
        ([range(20), list(range(7)) + [99] * 13], 8, 1),  # common prefix 7 < quantum: the start token only
        ([range(20), list(range(16)) + [99]], 8, 16),
        ([range(17), range(30)], 8, 16),  # one target is a prefix of the other: keep one suffix token
        ([range(16), range(30)], 8, 8),  # capped at len - 1 = 15 -> 8
        ([range(30)], 8, 1),  # a single target shares its start token
        ([(5,), (5, 6)], 8, 0),  # a target of one position leaves nothing to share
        ([range(20), range(20, 40)], 8, 0),  # different from the start
        ([range(20), list(range(12)) + [99] * 8], 4, 12),
        ([range(20), list(range(12)) + [99] * 8], 0, 0),  # quantum 0 switches sharing off
    ],
)
def test_shared_length(decoder_ids, quantum, expected):
    targets = [request(i, ids) for i, ids in enumerate(decoder_ids)]
    assert shared_length(targets, quantum) == expected


def test_split_by_prefix_shares_long_prefixes_within_runs():
    stem = list(range(30))
    targets = [request(0, stem + [1, 2, 3]), request(1, [0] + [50] * 30), request(2, stem + [4, 5]),
               request(3, [0] + [50] * 25 + [7])]
    parts = split_by_prefix(SourceGroup((1, 2), targets), quantum=8)
    assert sorted(sorted(t.index for t in part.targets) for part in parts) == [[0, 2], [1, 3]]
    assert sorted(part.shared for part in parts) == [24, 24]
    assert all(part.source_ids == (1, 2) for part in parts)
    # nothing gained by splitting: one group sharing the start token
    parts = split_by_prefix(SourceGroup((1,), [request(0, [0, 1, 2]), request(1, [0, 3, 4])]), quantum=8)
    assert [(sorted(t.index for t in p.targets), p.shared) for p in parts] == [([0, 1], 1)]


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


def padded(lengths):
    return len(lengths) * max(lengths)


@pytest.mark.parametrize("share", [True, False])
@pytest.mark.parametrize("budget", [64, 400, 5000])
def test_plan_covers_every_target_once_within_budget(share, budget):
    groups, total = random_groups(budget)
    blocks = plan_blocks(groups, budget, quantum=8, share_prefixes=share)
    seen = sorted(t.index for b in blocks for g in b.groups for t in g.targets)
    assert seen == list(range(total))
    for block in blocks:
        assert sorted(t.index for batch in block.row_batches for _, t in batch) == \
            sorted(t.index for g in block.groups for t in g.targets)
        assert sorted(i for batch in block.encoder_batches for i in batch) == list(range(len(block.sources)))
        assert sorted(g for batch in block.prefix_batches for g in batch) == \
            [g for g, group in enumerate(block.groups) if group.shared]
        for g, group in enumerate(block.groups):
            assert block.sources[block.source_of[g]] == group.source_ids
            if not share:
                assert group.shared == 0
            for target in group.targets:  # the shared part is common to the whole group
                assert target.decoder_ids[: group.shared] == group.targets[0].decoder_ids[: group.shared]
                assert len(target.decoder_ids) > group.shared
        for batch in block.encoder_batches:
            assert len(batch) == 1 or padded([len(block.sources[i]) for i in batch]) <= budget
        for batch in block.prefix_batches:
            assert len({block.groups[g].shared for g in batch}) == 1
        for batch in block.row_batches:
            (shared,) = {block.groups[g].shared for g, _ in batch}
            assert len(batch) == 1 or padded([len(t.decoder_ids) - shared for _, t in batch]) <= budget
        if len(block.groups) > 1:
            assert sum(len(s) for s in block.sources) + sum(map(group_tokens, block.groups)) <= 8 * budget


def test_batches_are_made_of_neighbours_in_length():
    groups, _ = random_groups(7, count=200)
    (block,) = plan_blocks(groups, 400, quantum=8, share_prefixes=False, block_budget=10**6)
    spans = [[len(t.decoder_ids) for _, t in batch] for batch in block.row_batches]
    assert all(spans[i][-1] <= spans[i + 1][0] for i in range(len(spans) - 1))  # sorted, cut into runs
    padding = sum(len(s) * max(s) - sum(s) for s in spans) / sum(sum(s) for s in spans)
    assert padding < 0.1


def test_oversized_group_is_split():
    targets = [request(i, [0] + [i] * 50) for i in range(10)]
    blocks = plan_blocks([SourceGroup((1, 2, 3), targets)], budget=40, quantum=8)
    assert sorted(t.index for b in blocks for g in b.groups for t in g.targets) == list(range(10))
    assert len(blocks) > 1


def test_bad_budget_and_requests():
    with pytest.raises(ValueError, match="budget"):
        plan_blocks([], 0)
    with pytest.raises(ValueError, match="labels"):
        TargetRequest(0, (1, 2), (2,))
    with pytest.raises(ValueError, match="no target tokens"):
        TargetRequest(0, (), ())
