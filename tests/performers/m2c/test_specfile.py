"""Spec files (M2C's layout, JSON/YAML) and pair specs: loading and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from performers.m2c.features import TemplateError
from performers.m2c.pairs import PairSpec, UnrenderableSource, load_any, load_pairs
from performers.m2c.specfile import load_spec

from .helpers import LANGUAGE

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "experiments" / "m2c" / "en_de.yaml"


def write(tmp_path: Path, data, name="spec.yaml") -> Path:
    path = tmp_path / name
    if name.endswith(".json"):
        path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    else:
        path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


def spec_data(**template):
    body = {"name": "t", "template": "{name} {ist:name.SG|sind:name.PL}.", "placeholders": {"name": ["Anna"]}}
    body.update(template)
    return {**LANGUAGE, "placeholders": {"name": [{"SG.FEM": "Anna"}, {"PL.MASC": "Max und Tom"}]}, "templates": [body]}


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_load_yaml_and_json(tmp_path, suffix):
    data = spec_data(placeholders={})
    spec = load_spec(write(tmp_path, data, "spec" + suffix))
    assert spec.names == ["t"] and spec.digest
    assert {item.text for item in spec.space("t").generate()} == {"Anna ist.", "Max und Tom sind."}


def test_templates_may_be_a_mapping_and_repetition_an_alias(tmp_path):
    data = {**LANGUAGE, "templates": {"pair": {"template": "{n1} {n2}", "placeholders": {"n": ["a", "b"]},
                                               "repetition": {"n": {"order": False, "repeat": True}}}}}
    assert load_spec(write(tmp_path, data)).space("pair").size == 4


@pytest.mark.parametrize(
    "change,message",
    [
        ({"templates": [{"name": "t", "template": "{x}", "colour": 1}]}, "unknown key(s) colour"),
        ({"templates": [{"template": "{x}"}]}, "needs a 'name'"),
        ({"templates": []}, "non-empty list"),
        ({"flavour": 1}, "unknown key(s) flavour"),
        ({"dimensions": {"NUMBER": ["SG", "PL"], "COUNT": ["SG"]}, "dimension_properties": {}, "rules": {}},
         "feature 'SG' belongs to both"),
        ({"dimension_properties": {"TENSE": {"sampleable": False}}}, "unknown dimension(s) TENSE"),
        ({"rules": {"ART": {"SG.XX": "a"}}}, "unknown feature 'XX'"),
        ({"rules": {"ART2": {"SG": "a"}}}, "no trailing digits"),
        ({"modifiers": ["SHOUT"]}, "unknown modifier 'SHOUT'"),
        ({"post_processing": ["strip_spaces", "sparkle"]}, "unknown post-processing step 'sparkle'"),
        ({"templates": [{"name": "t", "template": "{n1}", "placeholders": {"n": ["a"]},
                         "same_keys_cfg": {"n": {"order": "yes"}}}]}, "must be true or false"),
        ({"templates": [{"name": "t", "template": "{x}", "placeholders": {"x": [{"SG.SG": "a"}]}}]}, "NUMBER twice"),
    ],
)
def test_bad_specs_name_the_file_and_key(tmp_path, change, message):
    data = {**spec_data(), **change}
    path = write(tmp_path, data)
    with pytest.raises(TemplateError) as error:
        load_spec(path).space("t")
    assert message in str(error.value)
    assert str(path) in str(error.value)


def test_unknown_template_name_suggests(tmp_path):
    spec = load_spec(write(tmp_path, spec_data()))
    with pytest.raises(TemplateError, match="Did you mean t"):
        spec.template("tt")


def test_fixture_format_reads_descriptive_fields(data_dir):
    spec = load_any(data_dir / "m2c" / "m2c_en.json")
    assert spec.language.code == "en" and "negation1" in spec.names
    assert spec.space("comparative1").size == 315


def test_example_pair_spec_renders_aligned_pairs():
    pairs = load_pairs(EXAMPLE)
    assert isinstance(pairs, PairSpec) and pairs.names == ["subject_verb", "preposition_case", "adjective"]
    source, reference = pairs.spaces("adjective")
    draw = next(d for d in reference.draws() if reference.render(d).startswith("Ein alter"))
    assert pairs.render("adjective", draw) == ("An old man is running.", "Ein alter Mann läuft.")
    for name in pairs.names:
        space = pairs.reference_space(name)
        for item in space.sample(20, seed=1):
            src, ref = pairs.render(name, item.draw)
            assert ref == item.text and src.endswith(".")


def test_pair_values_must_name_both_languages(tmp_path):
    data = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    data["placeholders"]["person"][0] = {"en": {"SG": "man"}, "fr": {"SG": "homme"}}
    with pytest.raises(TemplateError, match="exactly the keys de and en"):
        PairSpec(data, "pairs.yaml").spaces("subject_verb")


def test_source_without_a_form_for_the_reference_draw_is_unrenderable(tmp_path):
    data = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    data["placeholders"]["person"] = [{"en": {"SG": "man"}, "de": {"SG.MASC": "Mann", "PL.MASC": "Männer"}}]
    pairs = PairSpec(data, "pairs.yaml")
    _, reference = pairs.spaces("subject_verb")
    plural = next(d for d in reference.draws() if d.features["person.NUMBER"] == "PL")
    with pytest.raises(UnrenderableSource):
        pairs.render("subject_verb", plural)


def test_source_may_not_use_placeholders_the_reference_does_not_draw():
    data = yaml.safe_load(EXAMPLE.read_text("utf-8"))
    data["templates"][0]["source"] = "The {person} {activity.<person.NUMBER>} {adverb}."
    data["placeholders"]["adverb"] = ["fast"]
    with pytest.raises(TemplateError, match="the source uses adverb, which the reference does not draw"):
        PairSpec(data, "pairs.yaml").spaces("subject_verb")


def test_yaml_errors_carry_the_line_of_the_template(tmp_path):
    path = tmp_path / "spec.yaml"
    text = yaml.safe_dump({**LANGUAGE}, allow_unicode=True, sort_keys=False)
    text += "templates:\n  - name: ok\n    template: '{x}'\n    placeholders: {x: [a]}\n  - name: bad\n    templat: '{x}'\n"
    path.write_text(text, "utf-8")
    line = text.splitlines().index("  - name: bad") + 1
    with pytest.raises(TemplateError, match=rf"spec.yaml:{line}: templates\[1\] \(bad\): unknown key\(s\) templat"):
        load_spec(path)


def test_template_functions_map_to_registered_names(tmp_path):
    data = spec_data(template="{a}+{b}={$add(a,b)}", placeholders={"a": ["1", "2"], "b": ["3"]},
                     functions={"add": "plus"})
    assert [item.text for item in load_spec(write(tmp_path, data)).space("t").generate()] == ["1+3=4", "2+3=5"]
    data = spec_data(template="{$add(a,a)}", placeholders={"a": ["1"]}, functions={"add": "no_such_function"})
    with pytest.raises(TemplateError, match="no function 'no_such_function'"):
        load_spec(write(tmp_path, data)).space("t")
