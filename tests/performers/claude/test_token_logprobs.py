"""Gathered token log-probabilities equal a full log-softmax, whatever the chunking."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("chunk_bytes", [4 * 37, 4 * 37 * 5, 1 << 26])
def test_gather_equals_log_softmax(chunk_bytes):
    import torch

    from performers.claude.token_logprobs import gather_logprobs

    generator = torch.Generator().manual_seed(0)
    hidden = torch.randn(23, 8, generator=generator)
    weight = torch.randn(37, 8, generator=generator) * 3
    rows = torch.tensor([5, 0, 5, 22, 3, 3, 17])  # repeated and unsorted rows
    tokens = torch.tensor([1, 36, 2, 0, 7, 7, 30])
    got = gather_logprobs(hidden, rows, tokens, lambda h, out: h @ weight.T, vocabulary=37, chunk_bytes=chunk_bytes)
    expected = torch.log_softmax(hidden @ weight.T, dim=-1)[rows, tokens]
    assert torch.allclose(got, expected, atol=1e-5)


def test_empty_request():
    import torch

    from performers.claude.token_logprobs import gather_logprobs

    got = gather_logprobs(torch.zeros(3, 4), torch.zeros(0, dtype=torch.long), torch.zeros(0, dtype=torch.long),
                          lambda h, out: h, vocabulary=4)
    assert got.shape == (0,)


def test_half_precision_logits_are_reduced_in_float32():
    import torch

    from performers.claude.token_logprobs import gather_logprobs

    hidden = torch.randn(4, 8).to(torch.bfloat16)
    weight = torch.randn(50, 8).to(torch.bfloat16)
    rows, tokens = torch.arange(4), torch.tensor([1, 2, 3, 4])
    got = gather_logprobs(hidden, rows, tokens, lambda h, out: h @ weight.T, vocabulary=50)
    assert got.dtype == torch.float32
    expected = torch.log_softmax((hidden @ weight.T).float(), dim=-1)[rows, tokens]
    assert torch.allclose(got, expected, atol=1e-5)
