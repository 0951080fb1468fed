"""The ``feature-flip`` Zellig on instances of the ``template`` John."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.edits import apply_edits
from arena.records import Instance
from performers.john.template import TemplateJohn
from performers.zellig.feature_flip import FeatureFlipZellig
from tests.performers.built import built

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = str(REPO / "experiments" / "m2c" / "en_de.yaml")


@pytest.fixture(scope="module")
def instances():
    return list(TemplateJohn(spec=EXAMPLE, n=4, seed=2).instances())


def find(template: str, reference: str) -> Instance:
    for instance in TemplateJohn(spec=EXAMPLE, templates=[template]).instances():
        if instance.reference == reference:
            return instance
    raise AssertionError(reference)


def test_docstring_examples():
    zellig = FeatureFlipZellig()
    instance = find("preposition_case", "Der Mann wartet hinter dem Haus.")
    by_text = {v.text: v.meta for v in zellig.corrupt(instance)}
    assert by_text["Der Mann wartet hinter der Haus."]["dimension"] == "GENDER"
    assert by_text["Der Mann wartet hinter des Haus."]["dimension"] == "CASE"
    assert by_text["Der Mann warten hinter dem Haus."]["dimension"] == "NUMBER"
    assert by_text["Das Mann wartet hinter dem Haus."] == {
        **by_text["Das Mann wartet hinter dem Haus."], "dimension": "GENDER", "from": "MASC", "to": "NEUT",
        "form_before": "der", "form_after": "das", "agrees_with": "person.GENDER",
    }


@pytest.mark.parametrize(
    "template,reference,expected",
    [
        ("subject_verb", "Der Mann läuft.", {"Die Mann läuft.", "Das Mann läuft.", "Der Männer läuft.", "Der Mann laufen."}),
        ("adjective", "Ein alter Mann läuft.",
         {"Eine alter Mann läuft.", "Ein alte Mann läuft.", "Ein altes Mann läuft.",
          "Der alter Mann läuft.", "Ein alter Männer läuft.", "Ein alter Mann laufen.", "Alter Mann läuft."}),
    ],
)
def test_every_single_flip(template, reference, expected):
    variants = FeatureFlipZellig().corrupt(find(template, reference))
    texts = {v.text for v in variants}
    assert expected <= texts
    assert reference not in texts and len(texts) == len(variants)


def test_variants_are_exact_edits_with_dimension_labels(instances):
    zellig = FeatureFlipZellig()
    dimensions = set()
    for instance in instances:
        variants = zellig.corrupt(instance)
        assert variants, instance.reference
        for variant in variants:
            assert variant.phenomenon == "feature_flip" and variant.instance_id == instance.id
            assert apply_edits(instance.reference, variant.edits) == variant.text != instance.reference
            dimensions.add(variant.meta["dimension"])
        assert zellig.corrupt(instance) == variants  # pure
    assert dimensions == {"GENDER", "NUMBER", "CASE", "DEFINITENESS"}


def test_dimension_filter(instances):
    zellig = FeatureFlipZellig(dimensions=["CASE"])
    variants = [v for instance in instances for v in zellig.corrupt(instance)]
    assert variants and {v.meta["dimension"] for v in variants} == {"CASE"}


def test_instances_without_a_draw_are_not_applicable():
    assert FeatureFlipZellig().corrupt(Instance("x", "The man runs.", "Der Mann läuft.")) == []


def test_a_changed_spec_or_reference_is_an_error(instances, tmp_path):
    instance = instances[0]
    edited = Instance(instance.id, instance.source, instance.reference + " Ja.", dict(instance.meta))
    with pytest.raises(ValueError, match="not the reference"):
        FeatureFlipZellig().corrupt(edited)
    changed = tmp_path / "en_de.yaml"
    changed.write_text(Path(EXAMPLE).read_text("utf-8") + "\n# edited\n", "utf-8")
    moved = Instance(instance.id, instance.source, instance.reference, {**instance.meta, "spec": str(changed)})
    with pytest.raises(ValueError, match="changed since the instance was generated"):
        FeatureFlipZellig().corrupt(moved)


def test_works_on_single_language_spec_files(data_dir):
    from performers.m2c.specfile import load_spec

    path = data_dir / "m2c" / "m2c_de.json"
    space = load_spec(path).space("spatial1")
    item = space.sample(1, seed=5)[0]
    instance = Instance("spatial1.x", "", item.text, {"spec": str(path), "template": "spatial1", "draw": item.draw.to_json()})
    variants = FeatureFlipZellig().corrupt(instance)
    assert variants and all(apply_edits(item.text, v.edits) == v.text for v in variants)


def test_bad_params():
    with pytest.raises(ValueError, match="parameter 'dimensions' must be a list of a non-empty string or null"):
        built(FeatureFlipZellig, dimensions="GENDER")
    with pytest.raises(ValueError, match="parameter 'spec' names no file: missing.yaml"):
        built(FeatureFlipZellig, spec="missing.yaml")
