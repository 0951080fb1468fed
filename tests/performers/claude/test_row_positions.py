"""Per-row decoder positions: the table read from the decoder, and rows that continue
at their own positions decode exactly as when they are alone."""

from __future__ import annotations

import pytest

from performers.claude.engine_settings import cache_argument
from performers.claude.row_positions import RowPositions


def decoder_of(path):
    import transformers

    model = transformers.AutoModelForSeq2SeqLM.from_pretrained(str(path)).eval()
    return model, model.get_decoder()


def test_rows_continue_at_their_own_positions(tiny):
    import torch
    from transformers.cache_utils import DynamicCache, EncoderDecoderCache

    model, decoder = decoder_of(tiny("marian"))
    width = model.config.hidden_size
    positions = RowPositions(decoder, 128, 5, width)
    assert tuple(positions.table.shape) == (128, width)
    encoded = torch.randn(2, 3, width)
    source_mask = torch.ones(2, 3, dtype=torch.long)
    prefixes = [[7, 8, 9, 10], [7, 11]]  # rows sharing 4 and 2 positions
    suffixes = torch.tensor([[12, 13], [14, 15]])

    def decode(ids, rows, **kwargs):
        return decoder(input_ids=ids, encoder_hidden_states=encoded[rows], encoder_attention_mask=source_mask[rows],
                       use_cache=True, **kwargs)

    with torch.inference_mode():
        alone = [decode(torch.tensor([prefix + suffix.tolist()]), [row]).last_hidden_state[0, -2:]
                 for row, (prefix, suffix) in enumerate(zip(prefixes, suffixes))]
        # the second row's prefix padded to four slots, the padding masked out
        cache = EncoderDecoderCache(DynamicCache(), DynamicCache())  # filled in place
        decode(torch.tensor([prefixes[0], prefixes[1] + [0, 0]]), [0, 1], **cache_argument(decoder, cache))
        mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 0, 0, 1, 1]])
        with positions.given(torch.tensor([[4, 5], [2, 3]])):
            together = decode(suffixes, [0, 1], **cache_argument(decoder, cache), attention_mask=mask).last_hidden_state
        assert torch.allclose(together[0], alone[0], atol=1e-5)
        assert torch.allclose(together[1], alone[1], atol=1e-5)
        # outside given(), the decoder is untouched
        again = decode(torch.tensor([prefixes[1] + suffixes[1].tolist()]), [1]).last_hidden_state[0, -2:]
    assert torch.equal(again, alone[1])


def test_rows_past_the_padded_length_limit(tiny):
    """A row that shares many positions beside one with a long suffix: the padded cache plus
    the new tokens pass the decoder's 128 positions, each row's own positions do not."""
    import torch
    from transformers.cache_utils import DynamicCache, EncoderDecoderCache

    model, decoder = decoder_of(tiny("marian"))
    width = model.config.hidden_size
    positions = RowPositions(decoder, 128, 5, width)
    encoded, source_mask = torch.randn(2, 3, width), torch.ones(2, 3, dtype=torch.long)
    prefixes = [[7 + n % 50 for n in range(126)], [7, 11]]
    suffixes = [[12], [13, 14, 15, 16]]

    def decode(ids, rows, **kwargs):
        return decoder(input_ids=ids, encoder_hidden_states=encoded[rows], encoder_attention_mask=source_mask[rows],
                       use_cache=True, **kwargs)

    with torch.inference_mode():
        alone = [decode(torch.tensor([prefix + suffix]), [row]).last_hidden_state[0, len(prefix):]
                 for row, (prefix, suffix) in enumerate(zip(prefixes, suffixes))]
        cache = EncoderDecoderCache(DynamicCache(), DynamicCache())  # filled in place
        decode(torch.tensor([prefixes[0], prefixes[1] + [0] * 124]), [0, 1], **cache_argument(decoder, cache))
        mask = torch.ones(2, 130, dtype=torch.long)
        mask[1, 2:126] = 0
        given = torch.tensor([[126, 127, 127, 127], [2, 3, 4, 5]])  # the first row's padding clamped
        with positions.given(given):
            together = decode(torch.tensor([suffixes[0] + [0, 0, 0], suffixes[1]]), [0, 1],
                              **cache_argument(decoder, cache), attention_mask=mask).last_hidden_state
    assert torch.allclose(together[0, :1], alone[0], atol=1e-5)
    assert torch.allclose(together[1], alone[1], atol=1e-5)


def test_decoder_without_position_embeddings(tiny):
    _, decoder = decoder_of(tiny("t5"))
    with pytest.raises(ValueError, match="embed_positions"):
        RowPositions(decoder, 64, 5, 32)
