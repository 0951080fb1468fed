"""A scoring block's decoder keys and values, kept in block tensors and handed to followers.

Leaders (:mod:`performers.claude.planning`) are decoded with a Hugging Face
``EncoderDecoderCache``; the positions their followers share are copied into per-layer
block tensors, one slot per leader (:func:`block_cache`, :func:`store_cache`).  A follower
batch gets a cache built from its leaders' slots (:func:`follower_cache`) without the
copies Transformers would make: ``DynamicCache``'s constructor concatenates given tensors
onto empty ones, and every decoder call concatenates its new keys and values onto the
cache's; here the rows are gathered once into buffers with room for the call's new
positions, which :class:`PrefilledLayer` writes in place.  Rows are gathered with
``index_select`` (4–5× faster on a CPU than advanced indexing of a strided view).
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.cache_utils import DynamicCache, DynamicLayer, EncoderDecoderCache

Parts = tuple[Any, Any, Any, Any]  # per layer: self keys, self values, cross keys, cross values


class PrefilledLayer(DynamicLayer):
    """A dynamic cache layer over key and value buffers ``[batch, heads, room, head dim]``
    whose first ``length`` positions are filled: a decoder call's new keys and values are
    written after them in place instead of concatenated (beyond the room, as usual)."""

    def __init__(self, keys, values, length: int) -> None:
        super().__init__()
        self.lazy_initialization(keys, values)
        self.room = (keys, values)
        self.keys, self.values = keys[:, :, :length], values[:, :, :length]

    def update(self, key_states, value_states, *args, **kwargs):
        keys, values = self.room
        start = self.keys.shape[-2]
        end = start + key_states.shape[-2]
        if end > keys.shape[-2]:
            return super().update(key_states, value_states, *args, **kwargs)
        keys[:, :, start:end] = key_states
        values[:, :, start:end] = value_states
        self.keys, self.values = keys[:, :, :end], values[:, :, :end]
        return self.keys, self.values


def cache_tensors(cache) -> list[Parts]:
    """Per decoder layer, ``(self keys, self values, cross keys, cross values)`` of an
    ``EncoderDecoderCache``, each ``[batch, heads, length, head dim]``."""
    return [(s.keys, s.values, c.keys, c.values)
            for s, c in zip(cache.self_attention_cache.layers, cache.cross_attention_cache.layers)]


def block_cache(like, slots: int, length: int, width: int) -> list[Parts]:
    """Zeroed per-layer block tensors shaped like the cache ``like`` for ``slots`` leaders, the
    self-attention ones ``length`` positions long, the cross-attention ones ``width`` source
    positions (zero keys and values at padded positions, which the source mask hides)."""
    return [tuple(part.new_zeros((slots, part.shape[1], length if kind < 2 else width, part.shape[3]))
                  for kind, part in enumerate(parts)) for parts in cache_tensors(like)]


def store_cache(tensors: list[Parts], cache, rows, slots, length: int) -> None:
    """Copy ``rows`` of ``cache`` into ``slots`` of block tensors: the first ``length``
    positions of the self-attention keys and values, all source positions of the
    cross-attention ones."""
    for whole, parts in zip(tensors, cache_tensors(cache)):
        for kind, (target, part) in enumerate(zip(whole, parts)):
            if kind < 2:
                target, part = target[:, :, :length], part[:, :, :length]
            target[:, :, : part.shape[2]].index_copy_(0, slots, part.index_select(0, rows))


def follower_cache(tensors: list[Parts], slots, length: int, width: int, room: int) -> EncoderDecoderCache:
    """A cache for a follower batch: per row, its leader's slot of the block tensors, the
    first ``length`` self-attention positions (in buffers with ``room`` more for the call's
    new ones) and the first ``width`` source positions."""
    self_layers, cross_layers = [], []
    for keys, values, cross_keys, cross_values in tensors:
        buffers = []
        for part in (keys, values):
            buffer = part.new_empty((slots.shape[0], part.shape[1], length + room, part.shape[3]))
            torch.index_select(part[:, :, :length], 0, slots, out=buffer[:, :, :length])
            buffers.append(buffer)
        self_layers.append(PrefilledLayer(*buffers, length))
        cross = [part[:, :, :width].index_select(0, slots) for part in (cross_keys, cross_values)]
        cross_layers.append(PrefilledLayer(*cross, width))
    self_attention, cross_attention = DynamicCache(), DynamicCache()
    self_attention.layers, cross_attention.layers = self_layers, cross_layers
    return EncoderDecoderCache(self_attention, cross_attention)
