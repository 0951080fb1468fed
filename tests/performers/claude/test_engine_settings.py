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


@pytest.mark.parametrize("message, interrupted, shown", [
    ("MarianMTModel LOAD REPORT from: toy\nKey | Status\nlm_head.weight | MISSING", True, False),  # cut short by Ctrl-C
    ("MarianMTModel LOAD REPORT from: toy\nKey | Status\nlm_head.weight | MISSING", False, True),  # a real report
    ("some other warning", True, True),  # only the load report goes
])
def test_a_load_that_ctrl_c_cut_short_leaves_no_load_report(message, interrupted, shown):
    import logging

    from performers.claude.engine_settings import loading_bars

    logger = logging.getLogger("transformers.modeling_utils")  # Transformers' loggers do not propagate
    logged: list[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]

    def load():
        try:
            if interrupted:
                raise KeyboardInterrupt
        finally:  # as Transformers logs its report
            logger.warning(message)

    logger.addHandler(handler)
    try:
        with loading_bars(progress=False):
            try:
                load()
            except KeyboardInterrupt:
                pass
    finally:
        logger.removeHandler(handler)
    assert (message in logged) is shown
    assert not logger.filters  # the filter is removed with the context
