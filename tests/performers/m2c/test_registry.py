"""The registry of functions, computed dimensions, modifiers and steps."""

from __future__ import annotations

import pytest

from performers.m2c import numerals, phonology, registry
from performers.m2c.features import TemplateError


def test_language_specific_then_global_lookup():
    registry.register_function("twice_test", fn=lambda a: a + a)
    registry.register_function("twice_test", language="yy-test", fn=lambda a: a * 3)
    assert registry.function("twice_test", "zz")("ab") == "abab"
    assert registry.function("twice_test", "yy-test")("ab") == "ababab"


def test_decorator_registration_and_missing_names():
    @registry.register_function("shout_test", language="yy-test")
    def shout(a: str) -> str:
        return a.upper() + "!"

    assert registry.function("shout_test", "yy-test")("hi") == "HI!"
    with pytest.raises(TemplateError, match="register_function"):
        registry.function("shout_test", "zz")
    with pytest.raises(TemplateError, match="register_dimension"):
        registry.dimension_function("NOPE", "zz")
    with pytest.raises(TypeError):
        registry.register_modifier("BAD", 3)


def test_plugins_are_imported_and_bad_ones_reported():
    registry.load_plugins(["performers.m2c.numerals"])
    with pytest.raises(TemplateError, match="cannot import plugin module"):
        registry.load_plugins(["no_such_module_for_m2c"])


@pytest.mark.parametrize(
    "text,expected",
    [
        ("  a  b ", "A b"),
        ("x. y? z! w", "X. Y? Z! W"),
        ("l' homme", "L'homme"),
        ("c. ÿes. 3 items: ok", "C. Ÿes. 3 items: ok"),  # Unicode letters, not digits, after . ? !
        ("a", "A"),  # step 4 skips one-character strings, step 5 still capitalises them (as M2C)
    ],
)
def test_m2c_post_processing(text, expected):
    from performers.m2c.features import Dimension, Dimensions
    from performers.m2c.language import Language

    language = Language("xx", Dimensions([Dimension("NUMBER", ("SG", "PL"))]))
    assert language.postprocess(text) == expected


@pytest.mark.parametrize("n,word", [(0, "零"), (2, "两"), (10, "十"), (12, "十二"), (20, "二十"), (35, "三十五")])
def test_chinese_numbers(n, word):
    assert numerals.chinese_number(n) == word
    assert numerals.chinese_value(word) == n


def test_onsets():
    assert [phonology.starts_with_vowel(w) for w in ("actor", "Élan", "cook", "")] == ["VOW", "VOW", "CONS", None]
    assert [phonology.italian_onset(w) for w in ("amico", "studente", "gnomo", "zio", "libro")] == [
        "VOW", "CONS2", "CONS2", "CONS2", "CONS"
    ]
