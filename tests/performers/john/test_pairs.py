"""The ``pairs`` John: one instance per row, the incorrect text replayed, metadata for breakdowns."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.errors import DataError
from performers.john.pairs import PairsJohn
from performers.zellig.replay import ReplayZellig

EXAMPLE = Path(__file__).resolve().parents[3] / "experiments" / "own-pairs" / "pairs.tsv"


def test_example_file_instances_and_variants():
    instances = list(PairsJohn(str(EXAMPLE)).instances())
    assert len(instances) == 12 and instances[0].id == "neg-1"
    first = instances[0]
    assert first.meta["register"] == "everyday" and first.meta["origin"] == "pairs.tsv" and first.meta["line"] == 2
    (variant,) = ReplayZellig().corrupt(first)
    assert variant.text == "Der Laden ist heute geöffnet." and variant.phenomenon == "negation"
    assert variant.meta["register"] == "everyday" and variant.edits  # edits derived from the reference


@pytest.mark.parametrize("columns,phenomenon,expected", [
    (None, "own", "own"),            # no phenomenon column: the param
    ({"source": "en"}, "mine", "mine"),
])
def test_phenomenon_param_and_column_map(tmp_path, columns, phenomenon, expected):
    path = tmp_path / "p.csv"
    head = "en" if columns else "source"
    path.write_text(f"{head},correct,incorrect\nA b.,Ein b.,Eine b.\nC d.,Ein d.,Eine d.\n", encoding="utf-8")
    john = PairsJohn(str(path), columns=columns, phenomenon=phenomenon, limit=1)
    (instance,) = john.instances()
    assert ReplayZellig().corrupt(instance)[0].phenomenon == expected
    assert instance.id == "p.2"


def test_column_map_as_a_string_and_bad_file(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"en": "A.", "good": "B.", "bad": "C."}\n{"en": "A."}\n', encoding="utf-8")
    john = PairsJohn(str(path), columns="source=en,correct=good,incorrect=bad")
    with pytest.raises(DataError) as caught:
        list(john.instances())
    assert caught.value.line == 2 and caught.value.key == "good"


def test_a_mapped_phenomenon_column_labels_the_variants_and_declared_meta_follows_it(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("source,correct,incorrect,category,phenomenon,register\n"
                    'A b.,"Ein ""b"".",Eine b.,agreement,ignored,formal\n', encoding="utf-8")
    john = PairsJohn(str(path), columns="phenomenon=category")
    (instance,) = john.instances()
    (variant,) = ReplayZellig().corrupt(instance)
    assert variant.phenomenon == "agreement" and instance.reference == 'Ein "b".'
    assert instance.meta["phenomenon"] == "agreement" and "category" not in instance.meta
    instance_keys, variant_keys = PairsJohn.declared_meta({"path": str(path), "columns": "phenomenon=category"})
    assert {k for k in instance.meta} <= instance_keys and set(variant.meta) <= variant_keys
    assert instance_keys == {"phenomenon", "register", "origin", "line", "variants"}
