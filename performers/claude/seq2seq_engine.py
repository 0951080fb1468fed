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
from typing import Any

from arena.sdk import ConfigError
from performers.claude.block_decoding import BlockDecoder
from performers.claude.engine_settings import (
    DEFAULT_MAX_LENGTH,
    PROBE,
    block_budget,
    config_positions,
    device_identity,
    pad_batch,
    torch_dtype,
)
from performers.claude.model_settings import ModelSettings
from performers.claude.planning import (
    SourceGroup,
    TargetRequest,
    group_by_source,
)
from performers.claude.row_positions import RowPositions
from performers.claude.token_ids import token_ids

log = logging.getLogger(__name__)

class Seq2SeqEngine(BlockDecoder):
    """A Hugging Face encoder–decoder model ready for exact batched scoring.

    ``model``: hub name or local directory; ``settings``: the Claude's
    (:class:`performers.claude.model_settings.ModelSettings`, the defaults when ``None``), of which
    ``tokenizer``: the same as the model by default.
    ``source_lang``/``target_lang``: language codes for multilingual models (NLLB
    ``eng_Latn``/``deu_Latn``, M2M100 ``en``/``de``, mBART ``en_XX``/``de_DE``); the
    target code becomes the forced first decoder token where the model expects one.
    ``source_prefix``: prepended to every source (T5: ``"translate English to German: "``).
    ``threads``: PyTorch's CPU threads (default: the CPUs this process may use, see
    :mod:`performers.claude.threads`).
    ``batch_tokens``: token budget per scoring batch (default 2048 on a CPU — 11%
    less CPU time than 1024 or 4096 on the toy model at one thread — 8192 on a GPU).
    """

    def __init__(self, model: str, settings: ModelSettings | None = None) -> None:
        settings = settings or ModelSettings()
        prepared = settings.prepare(model, "seq2seq model")
        import torch
        import transformers

        self.torch = torch
        self.name = prepared.name
        self.tokenizer_name = prepared.tokenizer_name
        self.revision = revision = prepared.revision
        self.device = prepared.device
        self.dtype_name = prepared.dtype_name
        self.dtype = torch_dtype(settings.dtype)
        self.batch_tokens = prepared.batch_tokens
        self.threads = prepared.threads
        self.source_lang = source_lang = settings.source_lang
        self.target_lang = target_lang = settings.target_lang
        self.source_prefix = settings.source_prefix or ""
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
        self.engine = self._choose_engine(settings.engine)
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
            **device_identity(self.device),
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
