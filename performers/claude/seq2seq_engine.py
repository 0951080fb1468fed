"""Exact, batched scoring and beam search for Hugging Face encoder–decoder models.

:class:`Seq2SeqEngine` wraps any ``AutoModelForSeq2SeqLM`` (Marian/OPUS-MT, FSMT,
NLLB and M2M100, mBART, T5/mT5, …) and its tokenizer.  Scoring follows
:mod:`performers.claude.planning`: each distinct source is encoded once, targets that
share a decoder prefix share its computation (key/value cache), batches are sorted
by length and bounded by a token budget, everything runs under
``torch.inference_mode`` without ``labels=``, and log-probabilities are gathered for
the target tokens only (:mod:`performers.claude.token_logprobs`).

Three engines compute the same numbers:

- ``prefix``: encoder once per source, decoder once per shared prefix, then per
  suffix from the cache; output layer applied to the decoder's hidden states;
- ``decoder``: encoder once per source, decoder over each full target;
- ``forward``: the model's own forward pass (``encoder_outputs`` reused), full
  logits — for architectures whose decoder cannot be called on its own (FSMT).

``engine="auto"`` (the default) probes the engines in that order on a few fixed
sentences against a plain per-pair forward pass and uses the first that agrees
(within 1e-4 per token in float32), so an architecture whose internals differ falls
back to a slower but exact path instead of giving wrong numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from typing import Any, Literal, get_args

from arena.errors import ConfigError, EnvError
from performers.claude.hub import require_model
from performers.claude.params import BatchTokens, Device, DType, ModelName, Threads
from performers.claude.planning import (
    BLOCK_BATCHES,
    DEFAULT_QUANTUM,
    Block,
    SourceGroup,
    TargetRequest,
    group_by_source,
    plan_blocks,
)
from performers.claude.row_positions import RowPositions
from performers.claude.token_ids import token_ids
from performers.claude.token_logprobs import gather_logprobs

log = logging.getLogger(__name__)

DTYPES = {
    "fp32": "float32", "float32": "float32",
    "bf16": "bfloat16", "bfloat16": "bfloat16",
    "fp16": "float16", "float16": "float16", "half": "float16",
}
Engine = Literal["auto", "prefix", "decoder", "forward"]  # a constructor param type
ENGINES = get_args(Engine)
DEFAULT_MAX_LENGTH = 256
# probe sentences: a long common target prefix exercises the shared-prefix path
PROBE = (
    (
        "The committee approved the new budget for the next two years on Tuesday.",
        (
            "Der Ausschuss hat den neuen Haushalt für die nächsten zwei Jahre am Dienstag genehmigt.",
            "Der Ausschuss hat den neuen Haushalt für die nächsten zwei Jahre am Dienstag nicht genehmigt.",
            "Der Ausschuss hat den neuen Haushalt für die Ding genehmigt.",
        ),
    ),
    ("Short.", ("Kurz.", "Ein kurzer Satz.")),
)


def torch_dtype(name: str):
    import torch

    try:
        return getattr(torch, DTYPES[str(name).lower()])
    except KeyError:
        raise ConfigError(f"dtype must be one of fp32, bf16, fp16 (or float32, bfloat16, float16), not {name!r}") from None


def resolve_device(device: str) -> str:
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if str(device).startswith("cuda") and not torch.cuda.is_available():
        raise EnvError(f"device {device!r} requested, but CUDA is not available on this machine")
    return str(device)


def config_positions(config) -> int | None:
    """The positions a Transformers model config allows; ``None`` where it sets no hard limit
    (relative positions, T5)."""
    for key in ("max_position_embeddings", "n_positions", "max_target_positions"):
        value = getattr(config, key, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


def default_batch_tokens(device: str) -> int:
    return 2048 if str(device) == "cpu" else 8192


# key/value cache a block may hold (prefix and cross-attention keys and values of its groups)
BLOCK_CACHE_BYTES = 1 << 28


def block_budget(batch_tokens: int, config, element_bytes: int) -> int:
    """Tokens per block: ``BLOCK_BATCHES`` batches, fewer where the keys and values of that many
    tokens (every layer, ``hidden_size`` each) would exceed ``BLOCK_CACHE_BYTES``; at least a batch."""
    per_token = 2 * config.num_hidden_layers * config.hidden_size * element_bytes
    return max(batch_tokens, min(BLOCK_BATCHES * batch_tokens, BLOCK_CACHE_BYTES // max(1, per_token)))


def batch_budget(batch_tokens: int | None, device: str) -> int:
    """A checked token budget per batch, or the device's default when ``None``."""
    if batch_tokens is not None and (not isinstance(batch_tokens, int) or batch_tokens < 16):
        raise ConfigError(f"batch_tokens must be an integer >= 16, not {batch_tokens!r}")
    return batch_tokens or default_batch_tokens(device)


def pad_batch(sequences: Sequence[Sequence[int]], pad_id: int, device):
    """Right-padded ``[B, L]`` long tensor and its 0/1 mask."""
    import numpy as np
    import torch

    lengths = np.fromiter((len(s) for s in sequences), dtype=np.int64, count=len(sequences))
    mask = np.arange(int(lengths.max())) < lengths[:, None]
    ids = np.full(mask.shape, pad_id, dtype=np.int64)
    ids[mask] = np.fromiter((token for s in sequences for token in s), dtype=np.int64, count=int(lengths.sum()))
    return torch.from_numpy(ids).to(device), torch.from_numpy(mask.astype(np.int64)).to(device)


def real_tokens(hidden, mask):
    """The states ``[tokens, d]`` of the real tokens of a right-padded ``[batch, length, d]``
    batch, row after row (``index_select``: several times faster on a CPU than a boolean mask)."""
    return hidden.reshape(-1, hidden.shape[-1]).index_select(0, mask.reshape(-1).nonzero().reshape(-1))


class Seq2SeqEngine:
    """A Hugging Face encoder–decoder model ready for exact batched scoring.

    ``model``: hub name or local directory; ``tokenizer``: the same by default.
    ``source_lang``/``target_lang``: language codes for multilingual models (NLLB
    ``eng_Latn``/``deu_Latn``, M2M100 ``en``/``de``, mBART ``en_XX``/``de_DE``); the
    target code becomes the forced first decoder token where the model expects one.
    ``source_prefix``: prepended to every source (T5: ``"translate English to German: "``).
    ``threads``: PyTorch's CPU threads (default: the CPUs this process may use, see
    :mod:`performers.claude.threads`).
    ``batch_tokens``: token budget per scoring batch (default 2048 on a CPU — 11%
    less CPU time than 1024 or 4096 on the toy model at one thread — 8192 on a GPU).
    """

    def __init__(
        self,
        model: ModelName,
        *,
        tokenizer: ModelName | None = None,
        revision: str | None = None,
        device: Device = "cpu",
        dtype: DType = "fp32",
        batch_tokens: BatchTokens | None = None,
        source_lang: str | None = None,
        target_lang: str | None = None,
        source_prefix: str = "",
        engine: str = "auto",
        threads: Threads | None = None,
    ) -> None:
        for name in dict.fromkeys((str(model), str(tokenizer or model))):
            require_model(name, revision, "seq2seq model")  # before the heavy imports: fail fast when it cannot be had
        from performers.claude.threads import set_torch_threads

        if engine not in ENGINES:
            raise ConfigError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        self.threads = set_torch_threads(threads)  # before torch loads its OpenMP runtime
        import torch
        import transformers

        self.torch = torch
        self.name = str(model)
        self.tokenizer_name = str(tokenizer or model)
        self.revision = revision
        self.device = resolve_device(device)
        self.dtype_name = DTYPES.get(str(dtype).lower()) or str(dtype)
        self.dtype = torch_dtype(dtype)
        self.batch_tokens = batch_budget(batch_tokens, self.device)
        self.source_lang = source_lang
        self.target_lang = target_lang
        self.source_prefix = source_prefix or ""
        tokenizer_kwargs: dict[str, Any] = {}
        if source_lang:
            tokenizer_kwargs["src_lang"] = source_lang
        if target_lang:
            tokenizer_kwargs["tgt_lang"] = target_lang
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(
                self.tokenizer_name, revision=revision, **tokenizer_kwargs
            )
            self.model = transformers.AutoModelForSeq2SeqLM.from_pretrained(
                self.name, revision=revision, dtype=self.dtype
            )
        except (OSError, ValueError) as error:
            raise ConfigError(f"cannot load seq2seq model {self.name!r}: {error}") from error
        self.model.to(self.device).eval()
        self.config = self.model.config
        self.pad_id = self._pad_id()
        self.forced_bos = self._forced_bos()
        self.max_positions = config_positions(self.config)
        self.block_tokens = block_budget(self.batch_tokens, self.config, self.dtype.itemsize)
        self.vocabulary = int(self.model.get_output_embeddings().weight.shape[0]) if self._has_output_layer() else None
        self._commit = getattr(self.config, "_commit_hash", None)
        self._head_parts = None
        self.row_positions: RowPositions | None = None
        self.engine = self._choose_engine(engine)
        log.info("%s: %s on %s (%s), %s engine", self.name, type(self.model).__name__, self.device,
                 self.dtype_name, self.engine)

    # -- model facts --------------------------------------------------------------
    def _pad_id(self) -> int:
        for value in (self.tokenizer.pad_token_id, self.config.pad_token_id, self.tokenizer.eos_token_id):
            if value is not None:
                return int(value)
        raise ValueError(f"{self.name}: neither the tokenizer nor the config defines a padding token")

    def _forced_bos(self) -> int | None:
        """The forced first target token: the target language code for models that
        generate one (NLLB, M2M100, mBART-50), else the config's own setting."""
        if self.target_lang:
            token = self.tokenizer.convert_tokens_to_ids(self.target_lang)
            unknown = self.tokenizer.unk_token_id
            model_type = self.config.model_type
            if token is None or (token == unknown and self.target_lang != self.tokenizer.unk_token):
                raise ConfigError(f"{self.name}: target_lang {self.target_lang!r} is not a token of the tokenizer")
            if model_type in ("m2m_100", "nllb", "nllb-moe") or type(self.tokenizer).__name__.startswith(
                ("MBart50", "Nllb", "M2M100")
            ):
                return int(token)
        forced = getattr(self.model.generation_config, "forced_bos_token_id", None)
        return int(forced) if forced is not None else None

    def _has_output_layer(self) -> bool:
        layer = self.model.get_output_embeddings()
        return layer is not None and hasattr(layer, "weight")

    def identity(self, cache: Any = None) -> dict[str, Any]:
        """What scores depend on (for the score cache key)."""
        from performers.claude.fingerprint import TOKENIZER_PATTERNS, WEIGHT_PATTERNS, source_identity

        return {
            "model": source_identity(self.name, self.revision, WEIGHT_PATTERNS, cache, self._commit),
            "architecture": type(self.model).__name__,
            "tokenizer": {
                **source_identity(self.tokenizer_name, self.revision, TOKENIZER_PATTERNS, cache),
                "class": type(self.tokenizer).__name__,
                "source_lang": self.source_lang,
                "target_lang": self.target_lang,
                "source_prefix": self.source_prefix,
            },
            "dtype": self.dtype_name,
        }

    def generation_settings(self) -> dict[str, Any]:
        """Decoding settings that change 1-best outputs (translation cache key)."""
        return {"generation": self.model.generation_config.to_json_string(use_diff=True), "forced_bos": self.forced_bos}

    # -- requests -----------------------------------------------------------------
    def encode_sources(self, sources: Sequence[str]) -> list[tuple[int, ...]]:
        return [tuple(ids) for ids in token_ids(self.tokenizer, [self.source_prefix + source for source in sources])]

    def encode_targets(self, targets: Sequence[str]) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        """``(decoder_ids, labels, first_scored)`` per target, exactly as the model
        would build decoder inputs from ``labels=`` (its own shift), with a forced
        target-language token kept as unscored context."""
        if not targets:
            return []
        distinct = list(dict.fromkeys(targets))
        by_text = dict(zip(distinct, token_ids(self.tokenizer, distinct, target=True)))
        label_lists = [by_text[target] for target in targets]
        if self.forced_bos is not None:
            label_lists = [ids if ids and ids[0] == self.forced_bos else [self.forced_bos, *ids] for ids in label_lists]
        padded, _ = pad_batch(label_lists, self.pad_id, "cpu")
        if hasattr(self.model, "prepare_decoder_input_ids_from_labels"):
            starts = self.model.prepare_decoder_input_ids_from_labels(labels=padded)[:, 0].tolist()
        else:
            start = self.config.decoder_start_token_id
            if start is None:
                raise ValueError(f"{self.name}: the config has no decoder_start_token_id")
            starts = [int(start)] * len(label_lists)
        encoded = []
        for start, labels in zip(starts, label_lists):
            first = 1 if self.forced_bos is not None and len(labels) > 1 and labels[0] == self.forced_bos else 0
            encoded.append(((int(start), *labels[:-1]), tuple(labels), first))
        return encoded

    def requests(self, pairs: Sequence[tuple[str, str]],
                 too_long: list[tuple[int, int]] | None = None) -> list[SourceGroup]:
        """Tokenise distinct (source, target) pairs into source groups.  A pair longer
        than the model's positions is a ``ValueError``, or, when ``too_long`` is a
        list, left out and listed there as ``(index, target tokens)``."""
        sources = list(dict.fromkeys(source for source, _ in pairs))
        source_ids = dict(zip(sources, self.encode_sources(sources)))
        encoded = self.encode_targets([target for _, target in pairs])
        requests, owners = [], []
        for index, ((source, _), (decoder_ids, labels, first)) in enumerate(zip(pairs, encoded)):
            ids = source_ids[source]
            if self.max_positions is not None and max(len(ids), len(decoder_ids)) > self.max_positions:
                if too_long is None:
                    raise ConfigError(
                        f"pair {index}: source has {len(ids)} tokens and target {len(labels)}; {self.name} accepts "
                        f"at most {self.max_positions} (source: {source[:60]!r}…)"
                    )
                too_long.append((index, len(labels) - first))
                continue
            requests.append(TargetRequest(index, decoder_ids, labels, first))
            owners.append(ids)
        return group_by_source(owners, requests)

    # -- scoring --------------------------------------------------------------------
    def token_logprobs(self, pairs: Sequence[tuple[str, str]]) -> Iterator[list[tuple[int, Any]]]:
        """Per block, ``(index into pairs, float64 numpy array of the scored tokens'
        log-probabilities)``.  Pairs longer than the model's positions get NaN
        log-probabilities (and a warning that counts them): a model cannot score them,
        and DistilLingEval leaves NaN scores out of its discrepancy."""
        import numpy as np

        too_long: list[tuple[int, int]] = []
        groups = self.requests(pairs, too_long)
        if too_long:
            log.warning("%s: %d of %d pairs exceed the model's %d positions and are scored as NaN (e.g. pair %d)",
                        self.name, len(too_long), len(pairs), self.max_positions, too_long[0][0])
            yield [(index, np.full(tokens, np.nan)) for index, tokens in too_long]
        # the forward engine holds full logits for every row of a block: one batch's worth per block
        blocks = self._plan(groups, self.engine, self.batch_tokens,
                            self.batch_tokens if self.engine == "forward" else self.block_tokens)
        log.debug("%d pairs, %d sources, %d blocks", len(pairs), len(groups), len(blocks))
        for block in blocks:
            yield self._run_block(block, self.engine)

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
                output = self.model.get_decoder()(
                    input_ids=decoder_ids,
                    encoder_hidden_states=encoded[:, :width].index_select(0, sources),
                    encoder_attention_mask=source_mask[:, :width].index_select(0, sources),
                    past_key_values=cache.leader_cache(
                        torch.tensor(kept, device=self.device),
                        torch.tensor([slots[batch[row]] for row in kept], device=self.device))
                    if kept and cache is not None else None,  # kept rows have slots, so a cache
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
                hidden = self.model.get_decoder()(
                    input_ids=decoder_ids,
                    encoder_hidden_states=encoded[:1, :width].expand(len(batch), -1, -1),
                    encoder_attention_mask=source_mask[:, :width].index_select(0, sources),
                    past_key_values=cache.follower_cache(torch.tensor([slots[leader] for leader in leaders],
                                                                      device=device), length, width,
                                                         decoder_ids.shape[1]),
                    use_cache=True,
                    **arguments,
                ).last_hidden_state
            for index, follower in zip(batch, followers):
                first_rows[index] = offset
                offset += follower.suffix
            states.append(real_tokens(hidden, decoder_mask))
        return first_rows


    # -- engine choice ----------------------------------------------------------------
    def reference_logprobs(self, pairs: Sequence[tuple[str, str]]) -> list[Any]:
        """Plain per-pair forward passes (no batching, full logits): the reference
        the fast engines are checked against."""
        torch = self.torch
        results = []
        for group in self.requests(pairs):
            for target in group.targets:
                with torch.inference_mode():
                    source = torch.tensor([group.source_ids], device=self.device)
                    logits = self.model(
                        input_ids=source,
                        attention_mask=torch.ones_like(source),
                        decoder_input_ids=torch.tensor([target.decoder_ids], device=self.device),
                        use_cache=False,  # as with labels= (FSMT skips its causal mask otherwise)
                    ).logits[0].float()
                    logprobs = torch.log_softmax(logits, dim=-1)
                    labels = torch.tensor(target.labels, device=self.device)
                    values = logprobs.gather(-1, labels[:, None])[:, 0][target.first_scored :]
                results.append((target.index, values.double().cpu().numpy()))
        ordered: list[Any] = [None] * len(pairs)
        for index, values in results:
            ordered[index] = values
        return ordered

    def _choose_engine(self, requested: str) -> str:
        """``auto``: the fastest engine that reproduces a plain forward pass on probe sentences.  An
        engine asked for by name is used as asked, but one that cannot run this architecture's decoder
        alone (FSMT's, for instance) is a ``ValueError`` here rather than a failure mid-run.  The
        prefix engine gives follower rows their own positions where that too reproduces the plain
        forward pass (:meth:`_checked_row_positions`)."""
        pairs = [(source, target) for source, targets in PROBE for target in targets]
        if requested in ("decoder", "forward"):
            if requested == "decoder":
                self._require(requested, pairs)
            return requested
        try:
            reference = self.reference_logprobs(pairs)
        except (IndexError, RuntimeError) as error:
            raise ValueError(
                f"{self.name}: a plain forward pass over probe sentences fails ({type(error).__name__}: {error}); "
                "does the tokenizer belong to the model?"
            ) from error
        tolerance = 1e-4 if self.dtype_name == "float32" else 5e-2
        self.row_positions = self._checked_row_positions(pairs, reference, tolerance)
        if requested == "prefix":
            self._require(requested, pairs)
            return requested
        for engine in ("prefix", "decoder"):
            try:
                worst = self._worst(engine, pairs, reference)
            except Exception as error:  # an architecture whose decoder cannot run alone
                log.info("%s: %s engine unavailable (%s: %s)", self.name, engine, type(error).__name__, error)
                continue
            if worst <= tolerance:
                return engine
            log.warning("%s: %s engine differs from the plain forward pass by %.2g per token; not used",
                        self.name, engine, worst)
        return "forward"

    def _checked_row_positions(self, pairs, reference, tolerance: float) -> RowPositions | None:
        """Per-row decoder positions, where the decoder's position embeddings allow them and the
        prefix engine with mixed shared lengths reproduces the plain forward pass; else ``None``
        (follower batches then keep to one shared length)."""
        if self.max_positions is None:
            return None
        try:
            self.row_positions = RowPositions(self.model.get_decoder(), self.max_positions,
                                              (self.pad_id + 1) % max(2, self.vocabulary or 2), self.config.hidden_size)
            worst = self._worst("prefix", pairs, reference)
        except Exception as error:  # no position embedding module, or a decoder that cannot run alone
            log.info("%s: no per-row decoder positions (%s: %s)", self.name, type(error).__name__, error)
            return None
        if worst > tolerance:
            log.info("%s: per-row decoder positions differ from the plain forward pass by %.2g; not used",
                     self.name, worst)
            return None
        return self.row_positions

    def _require(self, engine: str, pairs: list[tuple[str, str]]) -> None:
        try:
            self._probe(engine, pairs)
        except Exception as error:
            raise ValueError(
                f"{self.name}: engine={engine} cannot run this model ({type(error).__name__}: {error}); "
                "use engine=auto or engine=forward"
            ) from None

    def _worst(self, engine: str, pairs: list[tuple[str, str]], reference: list[Any]) -> float:
        """The largest per-token difference of ``engine`` from ``reference`` on ``pairs``."""
        return max(float(abs(a - b).max()) for a, b in zip(self._probe(engine, pairs), reference))

    def _probe(self, engine: str, pairs: list[tuple[str, str]]) -> list[Any]:
        """Per-token log-probabilities of ``pairs`` computed by ``engine`` in one block."""
        got: list[Any] = [None] * len(pairs)
        for block in self._plan(self.requests(pairs), engine, 1 << 20, None):
            for index, values in self._run_block(block, engine):
                got[index] = values
        return got

    # -- translation --------------------------------------------------------------------
    def default_max_length(self) -> int:
        limit = DEFAULT_MAX_LENGTH
        if self.max_positions is not None:
            limit = min(limit, self.max_positions - 2)
        return max(1, limit)

    def translate(self, sources: Sequence[str], beam: int, max_length: int | None) -> Iterator[list[tuple[int, str]]]:
        """Beam-search 1-best translations, per batch ``(index, text)``; sources are
        sorted by length and batched under the token budget."""
        from performers.claude.scoring import length_cap, translation_order

        torch = self.torch
        encoded = self.encode_sources(sources)
        caps = [length_cap(len(tokens), self.default_max_length(), max_length) for tokens in encoded]
        order, unreadable = translation_order([len(e) for e in encoded], self.max_positions, self.name)
        if unreadable:
            yield [(i, "") for i in unreadable]
        batch: list[int] = []

        def run(indices: list[int]) -> list[tuple[int, str]]:
            ids, mask = pad_batch([encoded[i] for i in indices], self.pad_id, self.device)
            kwargs: dict[str, Any] = {
                "num_beams": beam, "max_new_tokens": caps[indices[0]], "do_sample": False, "num_return_sequences": 1,
            }
            if self.forced_bos is not None:
                kwargs["forced_bos_token_id"] = self.forced_bos
            with torch.inference_mode():
                output = self.model.generate(input_ids=ids, attention_mask=mask, **kwargs)
            texts = self.tokenizer.batch_decode(output, skip_special_tokens=True)
            return [(i, text.strip()) for i, text in zip(indices, texts)]

        for index in order:
            longest = max([len(encoded[i]) for i in batch] + [len(encoded[index])])
            # beam × source length per sentence, within twice the scoring budget; one length cap per batch
            if batch and ((len(batch) + 1) * beam * longest > 2 * self.batch_tokens or caps[index] != caps[batch[0]]):
                yield run(batch)
                batch = []
            batch.append(index)
        if batch:
            yield run(batch)
