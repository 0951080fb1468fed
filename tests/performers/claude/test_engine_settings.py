"""Engine settings: the key/value cache goes to Transformers under the name the installed
release takes, so no deprecation warning is raised (nor hidden)."""

from __future__ import annotations

import pytest

from performers.claude.engine_settings import cache_argument


class Renamed:
    def forward(self, input_ids=None, cache=None, use_cache=None): ...


class Before:  # a release before the rename
    def forward(self, input_ids=None, past_key_values=None, use_cache=None): ...


@pytest.mark.parametrize(("decoder", "keyword"), [(Renamed(), "cache"), (Before(), "past_key_values")])
def test_the_cache_goes_under_the_name_the_release_takes(decoder, keyword):
    assert cache_argument(decoder, "the cache") == {keyword: "the cache"}


def test_the_installed_marian_decoder_takes_the_cache_without_a_warning(tiny):
    import warnings

    import torch
    import transformers
    from transformers.cache_utils import DynamicCache, EncoderDecoderCache

    decoder = transformers.AutoModelForSeq2SeqLM.from_pretrained(str(tiny("marian"))).eval().get_decoder()
    width = decoder.config.d_model
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with torch.inference_mode():
            decoder(input_ids=torch.tensor([[3, 4]]), encoder_hidden_states=torch.randn(1, 2, width),
                    use_cache=True, **cache_argument(decoder, EncoderDecoderCache(DynamicCache(), DynamicCache())))
