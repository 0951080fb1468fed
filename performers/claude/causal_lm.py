"""``causal-lm``: a Claude backed by a causal (decoder-only) language model.

For monolingual minimal pairs in the style of BLiMP (Warstadt et al. 2020) and Linzen
et al. (2016): a candidate's score is the sum (default; ``convention="mean"`` for the
length-normalised score) of the natural-log probabilities of its tokens given the
context ``[BOS] + prefix + source``; ``Pair.source`` may be empty (plain sentence
pairs) or a context such as the start of a sentence.  The candidate is tokenised
separately from the context, after ``separator`` (a space) when there is a
context, so that both candidates are scored against the same context tokens.
``add_eos`` also scores the end-of-sequence token.

``translate`` continues the context with beam search (the model's own 1-best
continuation), so that the arena's discrepancy measure applies to causal models too.

Any ``AutoModelForCausalLM`` by hub name or local path, e.g.
``causal-lm:model=gpt2`` or ``causal-lm:model=dbmdz/german-gpt2,device=cuda,dtype=bf16``.
Scoring dedupes requests, sorts them by length, batches them under a token budget,
never passes ``labels=`` and gathers the log-probabilities of the scored tokens
only (:mod:`performers.claude.token_logprobs`); results equal a plain per-sequence
forward pass within 1e-4 per token in float32 (checked on load, as for
``hf-seq2seq``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from arena.sdk import ConfigError
from performers.claude.engine_settings import device_identity
from performers.claude.model_settings import ModelSettings, takes_settings
from performers.claude.params import ModelName
from performers.claude.scoring import ScoringClaude

log = logging.getLogger(__name__)

PROBE = ("The keys to the cabinet", ("are on the table.", "is on the table."))


class CausalLMClaude(ScoringClaude):
    """Scoring Claude for a Hugging Face causal language model.

    Params: ``model`` (hub name or local directory), ``tokenizer`` (default: the
    model's), ``revision`` (hub branch, tag or commit), ``device`` (``cpu``, ``cuda``,
    ``auto``), ``dtype`` (``fp32``, ``bf16``, ``fp16``), ``batch_tokens`` (token budget
    per batch), ``threads`` (CPU threads for torch), ``prefix`` (text before every context), ``separator`` (between
    context and candidate), ``add_bos`` (start with the BOS token, default true),
    ``add_eos`` (score an end-of-sequence token, default false), ``convention``
    (``sum`` of the candidate's token log-probabilities, the default, or their ``mean``), ``cache``, ``progress``.
    """

    version = "1"

    @takes_settings("model", "tokenizer", "revision", "device", "dtype", "batch_tokens", "prefix", "separator",
                    "add_bos", "add_eos", "convention", "cache", "threads", "progress", defaults={"convention": "sum"})
    def __init__(
        self,
        settings: ModelSettings,
        model: ModelName,
        prefix: str = "",
        separator: str = " ",
        add_bos: bool = True,
        add_eos: bool = False,
    ) -> None:
        super().__init__(convention=settings.convention, cache=settings.cache, progress=settings.progress)
        prepared = settings.prepare(model, "causal language model")
        import torch
        import transformers

        from performers.claude.engine_settings import loading_bars, torch_dtype

        self.torch = torch
        self.name = prepared.name
        self.tokenizer_name = prepared.tokenizer_name
        self.revision = revision = prepared.revision
        self.device = prepared.device
        self.dtype_name = prepared.dtype_name
        self.batch_tokens = prepared.batch_tokens
        self.threads = prepared.threads
        self.prefix = prefix or ""
        self.separator = separator
        self.add_bos = bool(add_bos)
        self.add_eos = bool(add_eos)
        try:
            with loading_bars(self.progress):
                self.tokenizer = transformers.AutoTokenizer.from_pretrained(self.tokenizer_name, revision=revision)
                self.model = transformers.AutoModelForCausalLM.from_pretrained(
                    self.name, revision=revision, dtype=torch_dtype(settings.dtype)
                )
        except (OSError, ValueError) as error:
            raise ConfigError(f"cannot load causal language model {self.name!r}: {error}") from error
        self.model.to(self.device).eval()
        self.pad_id = next(
            (int(v) for v in (self.tokenizer.pad_token_id, self.tokenizer.eos_token_id, 0) if v is not None), 0
        )
        bos = self.tokenizer.bos_token_id
        self.bos = [int(bos)] if self.add_bos and bos is not None else []
        self.max_positions = next(
            (v for k in ("max_position_embeddings", "n_positions") if isinstance(v := getattr(self.model.config, k, None), int)),
            None,
        )
        self._commit = getattr(self.model.config, "_commit_hash", None)
        self.fast_head = self._check_fast_head()

    # -- identity -----------------------------------------------------------------------
    def identity(self) -> Mapping[str, Any]:
        from performers.claude.fingerprint import TOKENIZER_PATTERNS, WEIGHT_PATTERNS, source_identity

        return {
            "model": source_identity(self.name, self.revision, WEIGHT_PATTERNS, self.cache, self._commit),
            "architecture": type(self.model).__name__,
            "tokenizer": {**source_identity(self.tokenizer_name, self.revision, TOKENIZER_PATTERNS, self.cache),
                          "class": type(self.tokenizer).__name__},
            "dtype": self.dtype_name,
            "context": {"prefix": self.prefix, "separator": self.separator, "bos": self.bos, "eos": self.add_eos},
            **device_identity(self.device),
        }

    def translation_settings(self) -> Mapping[str, Any]:
        return {"generation": self.model.generation_config.to_json_string(use_diff=True)}

    # -- requests -------------------------------------------------------------------------
    def _context(self, source: str) -> str:
        return self.prefix + source

    def _encode(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[list[int], int]]:
        """Per pair the full token sequence and the number of context tokens."""
        contexts = list(dict.fromkeys(self._context(source) for source, _ in pairs))
        context_ids = {
            text: self.bos + list(ids)
            for text, ids in zip(contexts, self.tokenizer(contexts, add_special_tokens=False)["input_ids"])
        }
        continuations = [
            (self.separator + target) if self._context(source) else target for source, target in pairs
        ]
        target_ids = self.tokenizer(continuations, add_special_tokens=False)["input_ids"]
        eos = [int(self.tokenizer.eos_token_id)] if self.add_eos and self.tokenizer.eos_token_id is not None else []
        encoded = []
        for index, ((source, _), ids) in enumerate(zip(pairs, target_ids)):
            context = context_ids[self._context(source)]
            if not context:
                raise ValueError(
                    f"pair {index}: nothing to condition the first token on (no BOS token and no context); "
                    "give a prefix or a source"
                )
            sequence = context + list(ids) + eos
            if self.max_positions is not None and len(sequence) > self.max_positions:
                raise ConfigError(f"pair {index}: {len(sequence)} tokens; {self.name} accepts at most {self.max_positions}")
            encoded.append((sequence, len(context)))
        return encoded

    # -- scoring -----------------------------------------------------------------------------
    def _head(self, hidden, out=None):
        layer = self.model.get_output_embeddings()
        if out is None or not isinstance(layer, self.torch.nn.Linear) or layer.bias is not None:
            return layer(hidden)
        return self.torch.mm(hidden, layer.weight.t(), out=out)

    def _batch_logprobs(self, sequences: Sequence[tuple[list[int], int]], fast: bool) -> list[Any]:
        import numpy as np

        from performers.claude.engine_settings import pad_batch
        from performers.claude.token_logprobs import gather_logprobs

        torch = self.torch
        with torch.inference_mode():
            ids, mask = pad_batch([s for s, _ in sequences], self.pad_id, self.device)
            head: Callable[..., Any]
            if fast:
                hidden = self.model.base_model(input_ids=ids, attention_mask=mask).last_hidden_state
                head, vocabulary = self._head, self.model.get_output_embeddings().weight.shape[0]
            else:
                hidden = self.model(input_ids=ids, attention_mask=mask, use_cache=False).logits
                head, vocabulary = (lambda x, out: x), hidden.shape[-1]
            width = ids.shape[1]
            rows, tokens, counts = [], [], []
            for row, (sequence, context) in enumerate(sequences):
                positions = np.arange(context, len(sequence))
                rows.append(row * width + positions - 1)  # the state before a token predicts it
                tokens.append(np.asarray(sequence[context:]))
                counts.append(len(positions))
            flat = hidden.reshape(-1, hidden.shape[-1])
            values = gather_logprobs(
                flat,
                torch.as_tensor(np.concatenate(rows), device=self.device),
                torch.as_tensor(np.concatenate(tokens), device=self.device),
                head,
                int(vocabulary),
            )
        values = values.double().cpu().numpy()
        return np.split(values, np.cumsum(counts)[:-1])

    def _check_fast_head(self) -> bool:
        """Whether the base model + output layer path equals the model's own logits
        (models with logit scaling or soft-capping fall back to full logits)."""
        pairs = [(PROBE[0], target) for target in PROBE[1]]
        encoded = self._encode(pairs)
        reference = [self._batch_logprobs([item], fast=False)[0] for item in encoded]
        try:
            fast = self._batch_logprobs(encoded, fast=True)
        except Exception as error:  # no base_model / output layer to call on their own
            log.info("%s: fast head unavailable (%s: %s)", self.name, type(error).__name__, error)
            return False
        worst = max(float(abs(a - b).max()) for a, b in zip(fast, reference))
        tolerance = 1e-4 if self.dtype_name == "float32" else 5e-2
        if worst > tolerance:
            log.warning("%s: hidden-state path differs from the model's logits by %.2g; using full logits",
                        self.name, worst)
            return False
        return True

    def _score_uncached(self, pairs: Sequence[tuple[str, str]]) -> Iterator[list[tuple[int, float, int]]]:
        encoded = self._encode(pairs)
        order = sorted(range(len(pairs)), key=lambda i: len(encoded[i][0]))
        batch: list[int] = []
        for index in order + [None]:
            if index is not None:
                longest = max([len(encoded[i][0]) for i in batch] + [len(encoded[index][0])])
                if not batch or (len(batch) + 1) * longest <= self.batch_tokens:
                    batch.append(index)
                    continue
            if batch:
                values = self._batch_logprobs([encoded[i] for i in batch], self.fast_head)
                yield [(i, float(v.sum()), len(v)) for i, v in zip(batch, values)]
            batch = [index] if index is not None else []

    def _translate_uncached(
        self, sources: Sequence[str], beam: int, max_length: int | None
    ) -> Iterator[list[tuple[int, str]]]:
        """Beam-search continuations of each context (one sentence at a time: left
        padding would shift positions for some models)."""
        torch = self.torch
        for index, source in enumerate(sources):
            ids = self.bos + self.tokenizer(self._context(source), add_special_tokens=False)["input_ids"]
            if not ids:
                raise ValueError(f"source {index}: nothing to continue (no BOS token and no context)")
            input_ids = torch.tensor([ids], device=self.device)
            with torch.inference_mode():
                output = self.model.generate(
                    input_ids=input_ids, attention_mask=torch.ones_like(input_ids), num_beams=beam,
                    max_new_tokens=max_length or 64, do_sample=False, pad_token_id=self.pad_id,
                )
            text = self.tokenizer.decode(output[0, len(ids):], skip_special_tokens=True)
            yield [(index, text.strip())]
