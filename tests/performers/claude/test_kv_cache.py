"""BlockCache: leader calls write their rows' keys and values into slots, zero what a slot's
leader did not have, and followers get their leaders' slots with room for new positions."""

from __future__ import annotations

import torch

from performers.claude.kv_cache import BlockCache


def states(rows: int, positions: int, seed: int):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(rows, 2, positions, 4, generator=generator)


def leader_call(block: BlockCache, rows, slots, self_states, cross_states):
    """What a two-layer decoder does with a leader cache: per layer, self- then cross-attention."""
    cache = block.leader_cache(torch.tensor(rows), torch.tensor(slots))
    for layer in range(2):
        keys, values = cache.self_attention_cache.update(self_states, self_states + 1, layer)
        assert keys is self_states  # attends to its own keys, uncopied
        cache.cross_attention_cache.update(cross_states, cross_states - 1, layer)
    assert cache.get_seq_length() == self_states.shape[2]


def test_leaders_write_their_rows_and_zero_the_rest():
    block = BlockCache(slots=3, length=5, width=6)
    poison = [torch.full((3, 2, n, 4), float("nan")) for n in (5, 6) for _ in range(8)]
    del poison  # freed NaN memory that the block tensors are likely given: zeros must be written
    first_self, first_cross = states(2, 7, 0), states(2, 6, 1)  # longer than the slots hold
    leader_call(block, [1, 0], [2, 0], first_self, first_cross)
    second_self, second_cross = states(3, 3, 2), states(3, 4, 3)  # shorter: zeros after
    leader_call(block, [2], [1], second_self, second_cross)
    for keys, values, cross_keys, cross_values in block.layers:
        assert torch.equal(keys[2], first_self[1, :, :5]) and torch.equal(keys[0], first_self[0, :, :5])
        assert torch.equal(values[2], first_self[1, :, :5] + 1)
        assert torch.equal(keys[1, :, :3], second_self[2]) and not keys[1, :, 3:].any()
        assert torch.equal(cross_keys[0], first_cross[0]) and torch.equal(cross_values[2], first_cross[1] - 1)
        assert torch.equal(cross_keys[1, :, :4], second_cross[2]) and not cross_values[1, :, 4:].any()


def test_followers_read_their_leaders_slots_and_append_in_place():
    block = BlockCache(slots=2, length=4, width=5)
    leader_call(block, [0, 1], [0, 1], states(2, 4, 4), states(2, 5, 5))
    cache = block.follower_cache(torch.tensor([1, 1, 0]), length=3, width=4, room=2)
    assert cache.get_seq_length() == 3
    keys, _, cross_keys, _ = block.layers[0]
    layer = cache.self_attention_cache.layers[0]
    assert torch.equal(layer.keys, keys[[1, 1, 0], :, :3])
    assert torch.equal(cache.cross_attention_cache.layers[0].keys, cross_keys[[1, 1, 0], :, :4])
    new = states(3, 2, 6)
    room = layer.room[0]
    updated, _ = cache.self_attention_cache.update(new, new, 0)
    assert updated.shape[2] == 5 and updated.data_ptr() == room.data_ptr()  # written in place, no concatenation
    assert torch.equal(updated[:, :, 3:], new) and torch.equal(updated[:, :, :3], keys[[1, 1, 0], :, :3])
