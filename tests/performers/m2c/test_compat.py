"""Compatibility with M2C's reference implementation: for every shipped template
(German, English, Spanish, Chinese; ``needs_code`` ones included, with the functions
and dimensions registered in :mod:`performers.m2c.numerals` and
:mod:`performers.m2c.phonology`) exhaustive generation gives exactly the item set
M2C generated, and seeded sampling stays inside it with the requested count."""

from __future__ import annotations

import gzip
import json

import pytest

from performers.m2c import registry
from performers.m2c.specfile import spec_from_mapping

LANGUAGES = ("de", "en", "es", "zh")
def _cases():
    """(language, template name) of every shipped template, read from the small files."""
    from tests.conftest import DATA

    out = []
    for language in LANGUAGES:
        path = DATA / "m2c" / f"m2c_{language}.json"
        if path.is_file():
            out += [(language, t["template_name"]) for t in json.loads(path.read_text("utf-8"))["templates"]]
    return out or [pytest.param("de", "negation1", id="shared-data-missing")]


@pytest.fixture(scope="module")
def fixtures(data_dir):
    """language -> (full fixture object with items, compiled spec)."""
    cache = {}

    def get(language):
        if language not in cache:
            with gzip.open(data_dir / "m2c" / f"m2c_{language}.full.json.gz", "rt", encoding="utf-8") as handle:
                data = json.load(handle)
            cache[language] = (data, spec_from_mapping(data, f"m2c_{language}"))
        return cache[language]

    return get


def _template(data, name):
    return next(t for t in data["templates"] if t["template_name"] == name)


@pytest.mark.parametrize("language,name", _cases())
def test_exhaustive_generation_equals_m2c_items(fixtures, language, name):
    data, spec = fixtures(language)
    fixture = _template(data, name)
    expected = set(fixture.get("items_full_space") or fixture["items"])
    assert len(expected) == fixture["n_items_full_space"]
    space = spec.space(name)
    items = space.generate()
    texts = [item.text for item in items]
    assert len(texts) == len(set(texts)), "generate() must deduplicate"
    assert set(texts) == expected
    # the number of draws bounds the number of distinct outputs, and equals M2C's
    # theoretical count whenever M2C's estimate was right
    assert space.size >= len(expected)
    if fixture["theoretical_nb_options"] == len(expected):
        assert space.size == fixture["theoretical_nb_options"]
    # every kept item re-renders from its draw
    for item in items[:: max(1, len(items) // 50)]:
        assert space.render(item.draw) == item.text
        assert space.draw_at(item.draw.rank) == item.draw


@pytest.mark.parametrize("language,name", _cases())
def test_seeded_sampling_stays_inside_with_requested_count(fixtures, language, name):
    data, spec = fixtures(language)
    fixture = _template(data, name)
    expected = set(fixture.get("items_full_space") or fixture["items"])
    space = spec.space(name)
    n = min(25, len(expected))
    first = space.sample(n, seed=7)
    texts = [item.text for item in first]
    assert len(texts) == n == len(set(texts))
    assert set(texts) <= expected
    assert [item.text for item in space.sample(n, seed=7)] == texts  # reproducible
    assert [item.text for item in space.sample(n, seed=8)] != texts or len(expected) == n


def test_asking_for_more_than_the_space_returns_the_whole_space(fixtures):
    data, spec = fixtures("zh")
    space = spec.space("comparative1")
    items = space.sample(10_000, seed=1)
    assert {item.text for item in items} == set(_template(data, "comparative1")["items"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_registered_functions_reproduce_m2c_value_tables(fixtures, language):
    data, _ = fixtures(language)
    checked = 0
    for fixture in data["templates"]:
        for described in fixture["functions"]:
            if described["kind"] == "template_function":
                fn = registry.function(described["name"], language)
                for row in described["value_table"]:
                    assert fn(*row["args"]) == row["result"], (fixture["template_name"], row)
                    checked += 1
            elif described["kind"] == "callable_dimension":
                fn = registry.dimension_function(described["name"], language)
                for form, feature in described["value_table"].items():
                    assert fn(form) == feature
                    checked += 1
    assert checked > 0  # every shipped language has numeral templates
