"""The ``template`` John: pairs from the example pair spec, ids, meta, determinism."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from performers.john.template import TemplateJohn
from tests.performers.built import built

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = str(REPO / "experiments" / "m2c" / "en_de.yaml")


def test_sampled_instances_are_deterministic_with_stable_ids():
    john = TemplateJohn(spec=EXAMPLE, n=5, seed=3)
    first = list(john.instances())
    assert first == list(TemplateJohn(spec=EXAMPLE, n=5, seed=3).instances())
    assert len(first) == 15 and len({i.id for i in first}) == 15
    assert {i.meta["template"] for i in first} == {"subject_verb", "preposition_case", "adjective"}
    other = {i.id for i in TemplateJohn(spec=EXAMPLE, n=5, seed=4).instances()}
    assert other != {i.id for i in first}
    # ids are ranks of draws: the same draw has the same id whatever n and seed
    everything = {i.id: (i.source, i.reference) for i in TemplateJohn(spec=EXAMPLE, templates=["subject_verb"]).instances()}
    for instance in first:
        if instance.meta["template"] == "subject_verb":
            assert everything[instance.id] == (instance.source, instance.reference)


def test_meta_is_json_and_carries_the_draw():
    (instance,) = TemplateJohn(spec=EXAMPLE, templates=["adjective"], n=1, seed=1).instances()
    meta = json.loads(json.dumps(dict(instance.meta)))
    assert meta["template"] == "adjective" and meta["spec"] == EXAMPLE and len(meta["spec_sha256"]) == 64
    assert set(meta["draw"]) == {"rank", "features", "entries"}
    assert set(meta["features"]["person"]) == {"NUMBER", "GENDER"}
    assert meta["source_language"] == "en" and meta["reference_language"] == "de"


def test_all_pairs_of_a_template():
    instances = list(TemplateJohn(spec=EXAMPLE, templates=["subject_verb"]).instances())
    assert len(instances) == 98
    pairs = {(i.source, i.reference) for i in instances}
    assert ("The girls are dancing.", "Die Mädchen tanzen.") in pairs
    assert ("The man is running.", "Der Mann läuft.") in pairs


@pytest.mark.parametrize(
    "params,message",
    [
        ({"n": 0}, "parameter 'n' must be an integer ≥ 1 or null, not 0"),
        ({"seed": "x"}, "parameter 'seed' must be an integer, not 'x'"),
        ({"templates": ["nope"]}, "no template 'nope'"),
        ({"spec": "missing.yaml"}, "parameter 'spec' names no file: missing.yaml"),
    ],
)
def test_bad_params(params, message):
    with pytest.raises(ValueError, match=message):
        built(TemplateJohn, **{"spec": EXAMPLE, **params})
