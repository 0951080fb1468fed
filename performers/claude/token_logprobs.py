"""Log-probabilities of chosen tokens, without a full-vocabulary log-softmax.

``ln p(y) = logit[y] − logsumexp(logits)``: per hidden state the output layer is
applied once, in chunks of rows (so at most ``chunk_rows × vocabulary`` logits exist
at a time, cast to float32 only chunk by chunk), the log-partition is reduced once,
in place in the logits' own buffer (max, subtract, exponentiate, sum: no copies), and
only the requested tokens are gathered — several requests may point at the
same hidden state (targets that share a prefix share its hidden states).
"""

from __future__ import annotations

from collections.abc import Callable

# logits materialised at once, in bytes of float32: on a CPU about a last-level cache
# (32 MiB: ~1000 rows of an 8k vocabulary; the output layer reads its whole weight matrix
# once per chunk, so 8 MiB chunks made it ~10% slower on the toy model), large enough
# for few GPU kernels
CPU_CHUNK_BYTES = 1 << 25
GPU_CHUNK_BYTES = 1 << 28


def chunk_rows_for(vocabulary: int, chunk_bytes: int) -> int:
    return max(1, chunk_bytes // (4 * max(1, vocabulary)))


def gather_logprobs(hidden, rows, tokens, head: Callable, vocabulary: int, chunk_bytes: int | None = None):
    """``ln p(tokens[k] | hidden[rows[k]])`` for every request ``k`` (float32 tensor).

    ``hidden``: ``[N, d]`` states; ``head``: maps ``[n, d]`` states to ``[n, V]``
    logits; ``rows``/``tokens``: ``[K]`` long tensors on the same device;
    ``chunk_bytes``: float32 logits per chunk (default by device).
    """
    import torch

    result = torch.empty(rows.shape[0], dtype=torch.float32, device=hidden.device)
    if rows.numel() == 0:
        return result
    order = torch.argsort(rows, stable=True)
    sorted_rows = rows[order]
    sorted_tokens = tokens[order]
    if chunk_bytes is None:
        chunk_bytes = CPU_CHUNK_BYTES if hidden.device.type == "cpu" else GPU_CHUNK_BYTES
    step = chunk_rows_for(vocabulary, chunk_bytes)
    needed_until = int(sorted_rows[-1]) + 1
    for start in range(0, needed_until, step):
        end = min(start + step, needed_until)
        low = int(torch.searchsorted(sorted_rows, start))
        high = int(torch.searchsorted(sorted_rows, end))
        if low == high:
            continue
        logits = head(hidden[start:end]).float()  # a fresh buffer (or, from a full forward, never read again)
        local = sorted_rows[low:high] - start
        maximum = logits.amax(dim=-1, keepdim=True)
        chosen = logits[local, sorted_tokens[low:high]] - maximum[local, 0]
        # log Σ exp(logit − max), in place: no second vocabulary-sized buffer
        log_partition = logits.sub_(maximum).exp_().sum(dim=-1).log_()
        result[order[low:high]] = chosen - log_partition[local]
    return result
