"""``ensemble``: several seq2seq models with a shared vocabulary as one Claude.

As fairseq ensembles (e.g. the four-model WMT19 EN→DE system that DistilLingEval
evaluates), the ensemble's token distribution is the weighted average of the models'
*probabilities*: ``p(y_t | ·) = Σ_m w_m p_m(y_t | ·)``.  Scoring needs only each
model's probability of the target tokens, so every member scores with the exact
batched engine of ``hf-seq2seq`` and the per-token log-probabilities are combined
with ``logsumexp(ln w_m + ln p_m)``; the score convention is that of
:mod:`performers.claude.scoring`.  1-best translations come from a beam search over
the averaged distribution, fairseq-style: at each step the best ``2·beam``
continuations are ranked, end-of-sentence candidates among the best ``beam`` are
finished with score ``Σ ln p / length`` (end-of-sentence token counted), a sentence
stops when ``beam`` hypotheses are finished, and the best finished one wins.

Example: ``ensemble:models=[Helsinki-NLP/opus-mt-en-de,/models/opus-mt-en-de-ft]``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from arena.sdk import ConfigError
from performers.claude.engine_settings import cache_argument, loading_bars
from performers.claude.model_settings import ModelSettings, takes_settings
from performers.claude.params import ModelNames, Weight
from performers.claude.scoring import ScoringClaude

log = logging.getLogger(__name__)

# pairs scored by every member before their results are combined and cached
CHUNK_PAIRS = 2048


class EnsembleClaude(ScoringClaude):
    """Scoring Claude averaging the token probabilities of several seq2seq models.

    Params: ``models`` (list of hub names or directories sharing one vocabulary),
    ``weights`` (default: uniform), ``tokenizer`` (default: the first model's), and
    ``revision``, ``device``, ``dtype``, ``batch_tokens``, ``source_lang``,
    ``target_lang``, ``source_prefix``, ``engine``, ``threads`` as for
    ``hf-seq2seq`` (applied to every member), ``convention``, ``cache``,
    ``progress``.
    """

    version = "1"

    @classmethod
    def decoder_signature(cls, params: Mapping[str, Any], beam: int) -> str:
        """This module's own beam search in PyTorch (:class:`arena.roles.Decoding`)."""
        from performers.claude.decoding import COMPUTE, describe

        return describe("incremental", COMPUTE.get(str(params.get("dtype", "fp32")), str(params.get("dtype"))), beam, None)

    @classmethod
    def model_sources(cls, params: Mapping[str, Any]) -> list[str | None]:
        return [*list(params.get("models") or []), params.get("tokenizer")]

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> str | None:
        """One weight per model."""
        models, weights = params.get("models") or [], params.get("weights")
        if weights is not None and len(weights) != len(models):
            return f"'weights' gives {len(weights)} weight(s) for {len(models)} model(s); give one per model"
        return None

    @takes_settings("models", "weights", "tokenizer", "revision", "device", "dtype", "batch_tokens", "source_lang",
                    "target_lang", "source_prefix", "engine", "threads", "convention", "cache", "progress")
    def __init__(self, settings: ModelSettings, models: ModelNames, weights: list[Weight] | None = None) -> None:
        super().__init__(convention=settings.convention, cache=settings.cache, progress=settings.progress)
        from performers.claude.seq2seq_engine import Seq2SeqEngine

        # one positive weight per model: the annotations and check_params, before the Claude is built
        weights = [1.0] * len(models) if weights is None else list(weights)
        total = float(sum(weights))
        self.weights = [w / total for w in weights]
        # every member reads the first model's tokenizer unless another is named
        shared = replace(settings, tokenizer=settings.tokenizer or str(models[0]))
        with loading_bars(self.progress):
            self.members = [Seq2SeqEngine(str(model), shared) for model in models]
        first = self.members[0]
        for member in self.members[1:]:
            if member.vocabulary != first.vocabulary or member.pad_id != first.pad_id:
                raise ConfigError(
                    f"models {first.name} and {member.name} do not share a vocabulary "
                    f"({first.vocabulary} vs {member.vocabulary} output tokens)"
                )
        self.start = first.encode_targets(["."])[0][0][0]  # the decoder start token scoring uses

    def identity(self) -> Mapping[str, Any]:
        return {"members": [m.identity(self.cache) for m in self.members], "weights": self.weights}

    def translation_settings(self) -> Mapping[str, Any]:
        return {"search": "fairseq-beam;length-normalised;v1", "forced_bos": self.members[0].forced_bos}

    # -- scoring ---------------------------------------------------------------------------
    def _score_uncached(self, pairs: Sequence[tuple[str, str]]) -> Iterator[list[tuple[int, float, int]]]:
        import numpy as np

        log_weights = np.log(np.asarray(self.weights))[:, None]
        for start in range(0, len(pairs), CHUNK_PAIRS):
            chunk = list(pairs[start : start + CHUNK_PAIRS])
            per_member: list[dict[int, Any]] = []
            for member in self.members:
                values: dict[int, Any] = {}
                for batch in member.token_logprobs(chunk):
                    values.update(batch)
                per_member.append(values)
            results = []
            for index in range(len(chunk)):
                stacked = np.stack([values[index] for values in per_member]) + log_weights
                top = stacked.max(axis=0)
                combined = top + np.log(np.exp(stacked - top).sum(axis=0))
                results.append((start + index, float(combined.sum()), int(combined.shape[0])))
            yield results

    # -- beam search -----------------------------------------------------------------------
    def _step_logprobs(self, states, tokens, first: bool):
        """Ensemble log-probabilities of the next token for every row of ``tokens``."""
        torch = self.members[0].torch
        parts = []
        for member, weight, state in zip(self.members, self.weights, states):
            encoded, mask, cache, source_rows = state
            if member.engine == "forward":  # no incremental decoder: recompute the prefix
                from transformers.modeling_outputs import BaseModelOutput

                logits = member.model(
                    attention_mask=mask, encoder_outputs=BaseModelOutput(last_hidden_state=encoded),
                    decoder_input_ids=tokens, use_cache=False, input_ids=source_rows,
                ).logits[:, -1]
            else:
                decoder = member.model.get_decoder()
                hidden = decoder(
                    input_ids=tokens if first else tokens[:, -1:], encoder_hidden_states=encoded,
                    encoder_attention_mask=mask, use_cache=True, **cache_argument(decoder, cache),
                ).last_hidden_state[:, -1]
                logits = member._head(hidden)
            parts.append(torch.log_softmax(logits.float(), dim=-1) + math.log(weight))
        return torch.logsumexp(torch.stack(parts), dim=0)

    def _encoder_states(self, source: Any, source_mask: Any, beam: int) -> list[list[Any]]:
        """Per member: encoder output, mask and source rows repeated per beam, and an
        empty decoder cache (the state :meth:`_step_logprobs` reads)."""
        from transformers.cache_utils import DynamicCache, EncoderDecoderCache

        states = []
        for member in self.members:
            encoded = member.model.get_encoder()(input_ids=source, attention_mask=source_mask).last_hidden_state
            expanded = encoded.repeat_interleave(beam, dim=0)
            mask = source_mask.repeat_interleave(beam, dim=0)
            states.append([expanded, mask, EncoderDecoderCache(DynamicCache(), DynamicCache()),
                           source.repeat_interleave(beam, dim=0)])
        return states

    def _beam_search(self, source_ids: Sequence[Sequence[int]], beam: int, max_new: int) -> list[list[int]]:
        from performers.claude.engine_settings import pad_batch

        first_member = self.members[0]
        torch = first_member.torch
        device = first_member.device
        eos = int(first_member.tokenizer.eos_token_id)
        sentences = len(source_ids)
        rows = sentences * beam
        source, source_mask = pad_batch(source_ids, first_member.pad_id, device)
        states = self._encoder_states(source, source_mask, beam)
        context = [self.start] + ([first_member.forced_bos] if first_member.forced_bos is not None else [])
        tokens = torch.tensor([context] * rows, device=device)
        scores = torch.zeros(sentences, beam, device=device)
        scores[:, 1:] = -math.inf
        finished: list[list[tuple[float, list[int]]]] = [[] for _ in range(sentences)]
        done = [False] * sentences
        for step in range(max_new):
            logprobs = self._step_logprobs(states, tokens, first=step == 0)
            if step == max_new - 1:  # out of length: only the end-of-sentence token remains
                forced = torch.full_like(logprobs, -math.inf)
                forced[:, eos] = logprobs[:, eos]
                logprobs = forced
            vocabulary = logprobs.shape[-1]
            candidates = (scores.reshape(rows, 1) + logprobs).reshape(sentences, beam * vocabulary)
            values, indices = candidates.topk(2 * beam, dim=-1)
            values, indices = values.tolist(), indices.tolist()
            keep_rows, keep_tokens, keep_scores = [], [], []
            for sentence in range(sentences):
                chosen, done[sentence] = _next_beams(
                    values[sentence], indices[sentence], sentence=sentence, beam=beam, vocabulary=vocabulary,
                    eos=eos, step=step, tokens=tokens, skip=len(context), finished=finished[sentence],
                    done=done[sentence],
                )
                for row, token, value in chosen:
                    keep_rows.append(row)
                    keep_tokens.append(token)
                    keep_scores.append(value)
            if all(done):
                break
            index = torch.tensor(keep_rows, device=device)
            tokens = torch.cat([tokens[index], torch.tensor(keep_tokens, device=device)[:, None]], dim=1)
            scores = torch.tensor(keep_scores, device=device).reshape(sentences, beam)
            for state in states:
                state[2].reorder_cache(index)
        best = []
        for sentence in range(sentences):
            hypotheses = finished[sentence]
            if not hypotheses:  # pragma: no cover - max_new forces an end-of-sentence token
                raise RuntimeError(f"beam search finished no hypothesis for sentence {sentence}")
            best.append(max(hypotheses, key=lambda item: item[0])[1])
        return best

    def _translate_uncached(
        self, sources: Sequence[str], beam: int, max_length: int | None
    ) -> Iterator[list[tuple[int, str]]]:
        from performers.claude.scoring import length_cap

        member = self.members[0]
        encoded = member.encode_sources(sources)
        caps = [length_cap(len(tokens), member.default_max_length(), max_length) for tokens in encoded]
        order = sorted(range(len(sources)), key=lambda i: len(encoded[i]))
        batch: list[int] = []
        for index in order + [None]:
            if index is not None:
                longest = max([len(encoded[i]) for i in batch] + [len(encoded[index])])
                fits = (len(batch) + 1) * beam * longest <= 2 * member.batch_tokens
                if not batch or (fits and caps[index] == caps[batch[0]]):
                    batch.append(index)
                    continue
            if batch:
                with member.torch.inference_mode():
                    outputs = self._beam_search([encoded[i] for i in batch], beam, caps[batch[0]])
                texts = member.tokenizer.batch_decode(outputs, skip_special_tokens=True)
                yield [(i, text.strip()) for i, text in zip(batch, texts)]
            batch = [index] if index is not None else []


def _next_beams(
    values: Sequence[float], indices: Sequence[int], *, sentence: int, beam: int, vocabulary: int, eos: int,
    step: int, tokens: Any, skip: int, finished: list[tuple[float, list[int]]], done: bool,
) -> tuple[list[tuple[int, int, float]], bool]:
    """One sentence's step of beam search over its top ``2 * beam`` candidates (``values``
    and flat beam-times-vocabulary ``indices``, best first): an end-of-sentence among the
    best ``beam`` finishes a hypothesis (score per token, appended to ``finished``), other
    tokens extend up to ``beam`` rows.  Returns ``beam`` (row, token, score) triples, padded
    with -inf copies, and whether the sentence is done (``beam`` hypotheses finished or
    nothing left to extend); a done sentence keeps feeding end-of-sentence at -inf."""
    chosen: list[tuple[int, int, float]] = []
    if not done:
        for rank, (value, flat) in enumerate(zip(values, indices)):
            source_beam, token = divmod(flat, vocabulary)
            if value == -math.inf:
                break
            row = sentence * beam + source_beam
            if token == eos:
                if rank < beam:
                    finished.append((value / (step + 1), tokens[row, skip:].tolist() + [eos]))
            elif len(chosen) < beam:
                chosen.append((row, token, value))
            if len(finished) >= beam:
                done = True
                break
    if done or not chosen:
        return [(sentence * beam, eos, -math.inf)] * beam, True
    return chosen + [(chosen[0][0], chosen[0][1], -math.inf)] * (beam - len(chosen)), False
