"""Request planning: grouping, leaders and followers, batches under a token budget."""

from __future__ import annotations

import random

import pytest

from performers.claude.planning import (
    SourceGroup,
    TargetRequest,
    common_prefix,
    group_by_source,
    plan_blocks,
    shared_positions,
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
    "prefix, length, quantum, expected",
    [
        (12, 20, 8, 8),  # common prefix 12 -> 8
        (7, 20, 8, 1),  # common prefix 7 < quantum: the start token only
        (12, 20, 1, 12),  # every shared position counts
        (20, 20, 8, 20),  # the target is a prefix of the leader's: nothing left to decode
        (20, 30, 8, 16),
        (0, 20, 8, 0),  # different from the start
        (12, 20, 0, 0),  # quantum 0 switches sharing off
    ],
)
def test_shared_positions(prefix, length, quantum, expected):
    assert shared_positions(prefix, length, quantum) == expected


def test_split_by_prefix_shares_long_prefixes_within_runs():
    stem = list(range(30))
    targets = [request(0, stem + [1, 2, 3]), request(1, [0] + [50] * 30), request(2, stem + [4, 5]),
               request(3, [0] + [50] * 25 + [7])]
    runs = split_by_prefix(SourceGroup((1, 2), targets), quantum=8)
    assert sorted(sorted(t.index for t, _ in run) for run in runs) == [[0, 2], [1, 3]]
    assert all(run[0][1] == 0 for run in runs)  # the leader shares nothing: it is decoded in full
    assert sorted(shared for run in runs for _, shared in run[1:]) == [24, 24]
    for run in runs:
        leader = run[0][0]
        assert all(t.decoder_ids[:shared] == leader.decoder_ids[:shared] for t, shared in run)
    # nothing gained by splitting: one run sharing the start token
    runs = split_by_prefix(SourceGroup((1,), [request(0, [0, 1, 2]), request(1, [0, 3, 4])]), quantum=8)
    assert [[(t.index, shared) for t, shared in run] for run in runs] == [[(0, 0), (1, 1)]]
    # different start tokens cannot share
    runs = split_by_prefix(SourceGroup((1,), [request(0, [0, 1, 2]), request(1, [5, 1, 2])]), quantum=1)
    assert [[(t.index, shared) for t, shared in run] for run in runs] == [[(0, 0)], [(1, 0)]]


def test_follower_inside_its_leader_needs_no_decoding():
    stem = (0, 4, 5, 6)
    targets = [TargetRequest(0, stem, (4, 5, 6, 9)), TargetRequest(1, stem, (4, 5, 6, 7))]
    (block,) = plan_blocks([SourceGroup((1,), targets)], 100, quantum=1, mixed=True)
    (follower,) = block.followers
    assert follower.shared == 4 and follower.suffix == 0
    assert block.follower_batches == []


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


@pytest.mark.parametrize("mixed", [True, False])
@pytest.mark.parametrize("share", [True, False])
@pytest.mark.parametrize("budget", [64, 400, 5000])
def test_plan_covers_every_target_once_within_budget(share, budget, mixed):
    groups, total = random_groups(budget)
    blocks = plan_blocks(groups, budget, quantum=1 if mixed else 8, share_prefixes=share, mixed=mixed)
    seen = sorted([t.index for b in blocks for t in b.leaders] + [f.target.index for b in blocks for f in b.followers])
    assert seen == list(range(total))
    source_of = {t.index: g.source_ids for g in groups for t in g.targets}
    for block in blocks:
        assert sorted(i for batch in block.encoder_batches for i in batch) == list(range(len(block.sources)))
        assert sorted(i for batch in block.leader_batches for i in batch) == list(range(len(block.leaders)))
        assert sorted(i for batch in block.follower_batches for i in batch) == \
            [i for i, f in enumerate(block.followers) if f.suffix]
        for index, leader in enumerate(block.leaders):
            assert block.sources[block.source_of[index]] == source_of[leader.index]
        if not share:
            assert block.followers == []
        for follower in block.followers:
            leader = block.leaders[follower.leader]
            assert source_of[follower.target.index] == source_of[leader.index]
            assert 1 <= follower.shared <= len(follower.target.decoder_ids)
            assert follower.target.decoder_ids[: follower.shared] == leader.decoder_ids[: follower.shared]
            assert mixed or follower.shared == 1 or follower.shared % 8 == 0 or not follower.suffix
        for batch in block.encoder_batches:
            assert len(batch) == 1 or padded([len(block.sources[i]) for i in batch]) <= budget
        for batch in block.leader_batches:
            assert len(batch) == 1 or padded([len(block.leaders[i].decoder_ids) for i in batch]) <= budget
        for batch in block.follower_batches:
            followers = [block.followers[i] for i in batch]
            assert mixed or len({f.shared for f in followers}) == 1
            assert len(batch) == 1 or padded([f.suffix for f in followers]) <= budget
        runs = len(block.leaders)
        tokens = sum(len(s) for s in block.sources) + sum(len(t.decoder_ids) for t in block.leaders) + \
            sum(f.suffix for f in block.followers)
        assert runs == 1 or tokens <= 8 * budget


def test_mixed_shared_lengths_need_fewer_batches():
    groups, _ = random_groups(3, count=200)
    bucketed = plan_blocks(groups, 400, quantum=8, block_budget=10**6)
    mixed = plan_blocks(groups, 400, quantum=1, mixed=True, block_budget=10**6)
    assert len(mixed[0].follower_batches) < len(bucketed[0].follower_batches) / 2
    decoded = [sum(len(t.decoder_ids) for t in b.leaders) + sum(f.suffix for f in b.followers) for b in (*bucketed, *mixed)]
    assert decoded[1] < decoded[0]  # every shared position counts


def test_batches_are_made_of_neighbours_in_length():
    groups, _ = random_groups(7, count=200)
    (block,) = plan_blocks(groups, 400, quantum=8, share_prefixes=False, block_budget=10**6)
    spans = [[len(block.leaders[i].decoder_ids) for i in batch] for batch in block.leader_batches]
    assert all(spans[i][-1] <= spans[i + 1][0] for i in range(len(spans) - 1))  # sorted, cut into runs
    padding = sum(len(s) * max(s) - sum(s) for s in spans) / sum(sum(s) for s in spans)
    assert padding < 0.1


def test_large_group_spans_blocks():
    targets = [request(i, [0] + [i] * 50) for i in range(200)]
    blocks = plan_blocks([SourceGroup((1, 2, 3), targets)], budget=40, quantum=8)
    seen = [t.index for b in blocks for t in b.leaders] + [f.target.index for b in blocks for f in b.followers]
    assert sorted(seen) == list(range(200))
    assert len(blocks) > 1 and all(b.sources == [(1, 2, 3)] for b in blocks)


def test_bad_budget_and_requests():
    with pytest.raises(ValueError, match="budget"):
        plan_blocks([], 0)
    with pytest.raises(ValueError, match="labels"):
        TargetRequest(0, (1, 2), (2,))
    with pytest.raises(ValueError, match="no target tokens"):
        TargetRequest(0, (), ())
