"""Per-row decoder positions for Hugging Face decoders with absolute position embeddings.

A Hugging Face decoder called with a key/value cache gives the new tokens of every row
the positions that follow the cache's length.  A follower batch
(:mod:`performers.claude.planning`) holds rows that share different numbers of positions
with their leaders: each row's cache is its leader's first ``shared`` positions, padded
to the batch's longest with masked slots, and its new tokens must continue at its own
``shared``, not at the padded length.

Decoders whose positions are an embedding added to the token embeddings by an
``embed_positions`` module (Marian/OPUS-MT, BART, mBART, Pegasus, M2M100, NLLB, …) can be
given per-row positions exactly: the module's output for positions ``0 … n-1`` is read
once (a forward hook on one decoder call), and while :meth:`RowPositions.given` is active
the module answers with that table's rows at each token's own position instead of running
its own forward, which would compute (and may index past its table) the positions after
the padded cache.
Decoders without such a module (T5's relative attention bias) have no ``RowPositions``;
the engine's probe against plain forward passes checks the result either way.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any


class RowPositions:
    """The position-embedding table of ``decoder`` for ``limit`` positions, and a hook that
    gives each row its own positions.  Raises ``ValueError`` where the decoder has no
    ``embed_positions`` module whose output is a ``[positions, d]`` table (after leading
    dimensions of one)."""

    def __init__(self, decoder, limit: int, token: int, width: int) -> None:
        import torch

        module = getattr(decoder, "embed_positions", None)
        if not isinstance(module, torch.nn.Module):
            raise ValueError(f"{type(decoder).__name__} has no embed_positions module")
        captured: list[Any] = []
        handle = module.register_forward_hook(lambda _module, _args, output: captured.append(output))
        parameter = next(decoder.parameters())
        try:
            with torch.inference_mode():
                decoder(input_ids=torch.full((1, limit), token, dtype=torch.long, device=parameter.device),
                        encoder_hidden_states=torch.zeros((1, 1, width), dtype=parameter.dtype, device=parameter.device),
                        encoder_attention_mask=torch.ones((1, 1), dtype=torch.long, device=parameter.device),
                        use_cache=False)
        finally:
            handle.remove()
        if len(captured) != 1 or not isinstance(captured[0], torch.Tensor) or captured[0].shape[-2:] != (limit, width) \
                or captured[0].numel() != limit * width:
            raise ValueError(f"{type(module).__name__} does not return a [{limit}, {width}] position table")
        self.table = captured[0].reshape(limit, width).clone()
        self.limit = limit
        self.module = module

    @contextmanager
    def given(self, positions):
        """Within the block, the decoder's tokens have ``positions`` (``[batch, length]``, each
        below ``limit``): the module's forward is, for this instance, a look-up in the table."""
        rows = self.table[positions]
        self.module.forward = lambda *args, **kwargs: rows
        try:
            yield
        finally:
            del self.module.forward
