"""Running a scoring plan's blocks (:mod:`performers.claude.planning`) through an encoder–decoder:
sources encoded batch by batch, leaders decoded in full, followers from their leaders' keys and
values (:mod:`performers.claude.kv_cache`), the output layer over all their states at once.

:class:`BlockDecoder` is the part of :class:`~performers.claude.seq2seq_engine.Seq2SeqEngine`
that does this; the engine loads the model and chooses the engine it runs with.
"""

from __future__ import annotations

import logging
from contextlib import nullcontext
from typing import Any

from performers.claude.engine_settings import cache_argument, pad_batch, real_tokens
from performers.claude.planning import (
    DEFAULT_QUANTUM,
    Block,
    SourceGroup,
    plan_blocks,
)
from performers.claude.row_positions import RowPositions
from performers.claude.token_logprobs import gather_logprobs

log = logging.getLogger(__name__)


class BlockDecoder:
    """Per-token log-probabilities of planned blocks; the attributes are set by the engine."""

    torch: Any
    model: Any
    config: Any
    device: Any
    pad_id: int
    vocabulary: int | None
    row_positions: RowPositions | None
    _head_parts: tuple[Any, Any, Any] | None

    def _plan(self, groups: list[SourceGroup], engine: str, budget: int, block_budget: int | None) -> list[Block]:
        """The scoring plan: with per-row positions, follower batches mix shared lengths and
        every shared position counts; without, shared lengths are rounded to ``DEFAULT_QUANTUM``."""
        mixed = self.row_positions is not None
        return plan_blocks(groups, budget, 1 if mixed else DEFAULT_QUANTUM, share_prefixes=engine == "prefix",
                           block_budget=block_budget, mixed=mixed)

    def _head(self, hidden, out=None):
        """The output layer as the model applies it to decoder states: T5's rescaling,
        the projection, and Marian/BART's ``final_logits_bias`` (fused into the matrix
        product, and skipped when it is all zeros, as in most checkpoints); into ``out``
        when given (see :func:`performers.claude.token_logprobs.gather_logprobs`)."""
        import torch.nn.functional as F

        if self._head_parts is None:
            layer = self.model.get_output_embeddings()
            bias = getattr(layer, "bias", None)
            extra = getattr(self.model, "final_logits_bias", None)
            if extra is not None and bool(extra.any()):
                bias = extra.reshape(-1) if bias is None else bias + extra.reshape(-1)
            scale = self.config.d_model**-0.5 if getattr(self.config, "scale_decoder_outputs", False) else None
            self._head_parts = (layer.weight, bias, scale)
        weight, bias, scale = self._head_parts
        if scale is not None:  # T5 with tied embeddings rescales before the head
            hidden = hidden * scale
        if out is None:
            return F.linear(hidden, weight, bias)
        if bias is None:
            return self.torch.mm(hidden, weight.t(), out=out)
        return self.torch.addmm(bias, hidden, weight.t(), out=out)

    def _run_block(self, block: Block, engine: str) -> list[tuple[int, Any]]:
        """Per-token log-probabilities of a block's targets (see :mod:`performers.claude.planning`):
        sources encoded batch by batch, leaders decoded batch by batch (keeping the keys and
        values their followers share), then followers batch by batch from them; the output
        layer over all their states at once."""
        import numpy as np

        torch = self.torch
        with torch.inference_mode():
            source_ids, source_mask, encoded = self._encode_block(block)
            states: list[Any] = []  # decoder states of the real (unpadded) tokens, batch after batch
            leader_rows, cache, slots = self._decode_leaders(block, engine, source_ids, source_mask, encoded, states)
            follower_rows = self._decode_followers(block, cache, slots, source_mask, encoded, states)
            rows, tokens, order = [], [], []
            for index, leader in enumerate(block.leaders):
                rows.append(leader_rows[index] + np.arange(leader.first_scored, len(leader.decoder_ids)))
                tokens.append(np.asarray(leader.labels[leader.first_scored:]))
                order.append(leader.index)
            for index, follower in enumerate(block.followers):
                target = follower.target
                positions = np.arange(target.first_scored, len(target.decoder_ids))
                # shared positions read the leader's states; the others, the follower's own
                own = follower_rows.get(index, 0) + positions - follower.shared
                rows.append(np.where(positions < follower.shared, leader_rows[follower.leader] + positions, own))
                tokens.append(np.asarray(target.labels[target.first_scored:]))
                order.append(target.index)
            hidden = torch.cat(states)
            head = (lambda x, out: x) if engine == "forward" else self._head
            vocabulary = hidden.shape[-1] if engine == "forward" else (self.vocabulary or 1)
            values = gather_logprobs(
                hidden,
                torch.as_tensor(np.concatenate(rows), device=self.device),
                torch.as_tensor(np.concatenate(tokens), device=self.device),
                head,
                vocabulary,
            )
        values = values.double().cpu().numpy()
        split = np.split(values, np.cumsum([len(r) for r in rows])[:-1])
        return list(zip(order, split))

    def _encode_block(self, block: Block):
        """The block's padded source ids, their mask and their encoder states (``[sources, width,
        d]``, zero-padded), encoded batch by batch."""
        torch = self.torch
        source_ids, source_mask = pad_batch(block.sources, self.pad_id, self.device)
        encoded = None
        for batch in block.encoder_batches:
            index = torch.tensor(batch, device=self.device)
            width = max(len(block.sources[i]) for i in batch)
            states = self.model.get_encoder()(input_ids=source_ids[:, :width].index_select(0, index),
                                              attention_mask=source_mask[:, :width].index_select(0, index)
                                              ).last_hidden_state
            if encoded is None:
                encoded = states.new_zeros((len(block.sources), source_ids.shape[1], states.shape[-1]))
            encoded[:, :width].index_copy_(0, index, states)
        return source_ids, source_mask, encoded

    def _decode_leaders(self, block: Block, engine: str, source_ids, source_mask, encoded, states: list):
        """The leaders, decoded batch by batch; their states appended to ``states``.  Returns
        each leader's first row in the concatenated states, the block's
        :class:`~performers.claude.kv_cache.BlockCache` (one slot per leader with followers to
        decode, as many positions as they share at most, the cross-attention keys and values as
        wide as the block's sources; written as the leaders are decoded) and each such leader's
        slot."""
        from performers.claude.kv_cache import BlockCache

        torch = self.torch
        needed = [0] * len(block.leaders)  # positions of a leader's keys and values its followers read
        for follower in block.followers:
            if follower.suffix:
                needed[follower.leader] = max(needed[follower.leader], follower.shared)
        slots = {leader: slot for slot, leader in enumerate(i for i, length in enumerate(needed) if length)}
        cache = BlockCache(len(slots), max(needed), encoded.shape[1]) if slots else None
        first_rows, offset = [0] * len(block.leaders), sum(len(s) for s in states)
        for batch in block.leader_batches:
            sources = torch.tensor([block.source_of[i] for i in batch], device=self.device)
            width = max(len(block.sources[block.source_of[i]]) for i in batch)
            decoder_ids, decoder_mask = pad_batch([block.leaders[i].decoder_ids for i in batch], self.pad_id,
                                                  self.device)
            kept = [row for row, leader in enumerate(batch) if needed[leader]]
            if engine == "forward":
                from transformers.modeling_outputs import BaseModelOutput

                # input_ids as well as encoder_outputs: FSMT builds its causal mask only when
                # it sees input_ids and use_cache is off (as it is with labels=)
                hidden = self.model(
                    input_ids=source_ids[:, :width].index_select(0, sources),
                    attention_mask=source_mask[:, :width].index_select(0, sources),
                    encoder_outputs=BaseModelOutput(last_hidden_state=encoded[:, :width].index_select(0, sources)),
                    decoder_input_ids=decoder_ids,
                    use_cache=False,
                ).logits
            else:
                decoder = self.model.get_decoder()
                output = decoder(
                    input_ids=decoder_ids,
                    encoder_hidden_states=encoded[:, :width].index_select(0, sources),
                    encoder_attention_mask=source_mask[:, :width].index_select(0, sources),
                    **cache_argument(decoder, cache.leader_cache(
                        torch.tensor(kept, device=self.device),
                        torch.tensor([slots[batch[row]] for row in kept], device=self.device))
                        if kept and cache is not None else None),  # kept rows have slots, so a cache
                    use_cache=bool(kept),
                )
                hidden = output.last_hidden_state
            for leader in batch:
                first_rows[leader] = offset
                offset += len(block.leaders[leader].decoder_ids)
            states.append(real_tokens(hidden, decoder_mask))
        return first_rows, cache, slots

    def _decode_followers(self, block: Block, cache, slots: dict[int, int], source_mask, encoded,
                          states: list) -> dict[int, int]:
        """The followers' unshared positions, decoded batch by batch from their leaders' keys
        and values; their states appended to ``states``.  Returns each decoded follower's
        first row in the concatenated states.  A batch whose rows share different numbers
        of positions pads each row's cache to the longest with masked slots and gives each
        row its own positions (:class:`performers.claude.row_positions.RowPositions`)."""
        torch = self.torch
        device = self.device
        first_rows, offset = {}, sum(len(s) for s in states)
        for batch in block.follower_batches:
            followers = [block.followers[i] for i in batch]
            leaders = [follower.leader for follower in followers]
            sources = torch.tensor([block.source_of[leader] for leader in leaders], device=device)
            width = max(len(block.sources[block.source_of[leader]]) for leader in leaders)
            decoder_ids, decoder_mask = pad_batch([f.target.decoder_ids[f.shared:] for f in followers], self.pad_id,
                                                  device)
            shared = torch.tensor([f.shared for f in followers], device=device)[:, None]
            length = max(f.shared for f in followers)
            arguments: dict[str, Any] = {}
            context: Any = nullcontext()
            if min(f.shared for f in followers) < length:  # mixed shared lengths: masked slots, own positions
                slot = torch.arange(length + decoder_ids.shape[1], device=device)[None, :]
                arguments["attention_mask"] = ((slot < shared) | (slot >= length)).long()
                positions = shared + torch.arange(decoder_ids.shape[1], device=device)[None, :]
                row_positions = self.row_positions
                assert row_positions is not None  # shared lengths mix only with row positions (_plan)
                context = row_positions.given(positions.clamp(max=row_positions.limit - 1))
            with context:
                # with the cross-attention keys and values cached, the decoder reads only the
                # encoder states' shape: a view of one row then stands for all (no copy)
                decoder = self.model.get_decoder()
                hidden = decoder(
                    input_ids=decoder_ids,
                    encoder_hidden_states=encoded[:1, :width].expand(len(batch), -1, -1),
                    encoder_attention_mask=source_mask[:, :width].index_select(0, sources),
                    **cache_argument(decoder, cache.follower_cache(
                        torch.tensor([slots[leader] for leader in leaders], device=device), length, width,
                        decoder_ids.shape[1])),
                    use_cache=True,
                    **arguments,
                ).last_hidden_state
            for index, follower in zip(batch, followers):
                first_rows[index] = offset
                offset += follower.suffix
            states.append(real_tokens(hidden, decoder_mask))
        return first_rows


    # -- engine choice ----------------------------------------------------------------
