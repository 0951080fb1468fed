"""Engine settings: transformers' rename warning is silenced, nothing else is."""

from __future__ import annotations

import warnings

import pytest

from performers.claude.engine_settings import quiet_cache_rename

RENAME = "`past_key_values` is deprecated and will be removed in version 5.40.0 for `MarianDecoder.forward`. Use `cache` instead."


@pytest.mark.parametrize("message, category, shown", [
    (RENAME, FutureWarning, False),
    ("`use_cache` is deprecated", FutureWarning, True),          # another deprecation: must show
    (RENAME, UserWarning, True),                                 # the same text, another category: must show
])
def test_only_the_past_key_values_rename_is_silenced(message, category, shown):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with quiet_cache_rename():
            warnings.warn(message, category, stacklevel=1)
        warnings.warn("after the context", FutureWarning, stacklevel=1)  # the filter does not outlive it
    assert [str(w.message) for w in caught] == ([message] if shown else []) + ["after the context"]
