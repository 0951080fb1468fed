"""Generation semantics of the template engine, element by element, on small
templates whose output sets are written out by hand."""

from __future__ import annotations

import json

import pytest

from performers.m2c.features import TemplateError
from performers.m2c.space import Draw, index_tuples

from .helpers import JOBS, NAMES, OBJECTS, space, texts


def test_index_tuples_follow_order_and_repeat():
    assert index_tuples([3, 3], repeat=False, order=True) == [(0, 1), (0, 2), (1, 2)]
    assert len(index_tuples([3, 3], repeat=False, order=False)) == 6
    assert index_tuples([2, 2], repeat=True, order=True) == [(0, 0), (0, 1), (1, 1)]
    assert len(index_tuples([3, 3], repeat=True, order=False)) == 9
    assert index_tuples([1, 2], repeat=True, order=False) == [(0, 0), (0, 1)]  # positions stay inside each list
    assert index_tuples([], repeat=False, order=True) == [()]


def test_plain_placeholders_are_a_cartesian_product():
    assert texts("{a}-{b}", a=["x", "y"], b=["1", "2"]) == ["X-1", "X-2", "Y-1", "Y-2"]


@pytest.mark.parametrize(
    "order,repeat,expected",
    [
        (True, False, {"a b", "a c", "b c"}),  # combinations
        (False, False, {"a b", "a c", "b a", "b c", "c a", "c b"}),  # permutations
        (True, True, {"a a", "a b", "a c", "b b", "b c", "c c"}),  # combinations with replacement
        (False, True, {f"{x} {y}" for x in "abc" for y in "abc"}),  # full product
    ],
)
def test_numbered_plain_placeholders_follow_repetition(order, repeat, expected):
    result = space("x {n1} {n2}", {"n": {"order": order, "repeat": repeat}}, n=["a", "b", "c"])
    assert {t[2:] for t in (item.text for item in result.generate())} == expected
    assert result.size == len(expected)


def test_numbered_default_is_combinations():
    assert len(texts("{n1} {n2} {n3}", n=["a", "b", "c", "d"])) == 4


def test_fixed_features_pick_forms():
    assert texts("x {job.PL.FEM}", job=JOBS) == ["X Lehrerinnen", "X Ärztinnen"]


def test_bare_annotated_placeholder_ranges_over_its_forms():
    assert set(texts("x {job}", job=JOBS)) == {
        "X Lehrer", "X Lehrerin", "X Lehrerinnen", "X Arzt", "X Ärztin", "X Ärzte", "X Ärztinnen"
    }


def test_agreement_with_another_placeholder():
    result = texts("{name} ist {job.<name.NUMBER.GENDER>}.", name=NAMES[:2], job=JOBS[:1])
    assert set(result) == {"Hans ist Lehrer.", "Anna ist Lehrerin."}


def test_fixed_and_agreeing_features_mix():
    result = texts("{name}: {job.<name.NUMBER>.MASC}", name=NAMES, job=JOBS[1:])
    assert set(result) == {"Hans: Arzt", "Anna: Arzt", "Karl: Arzt", "Eva und Ina: Ärzte"}


def test_inline_choice():
    result = texts("{name} {ist:name.SG|sind:name.PL} da.", name=[NAMES[0], NAMES[3]])
    assert result == ["Hans ist da.", "Eva und Ina sind da."]


def test_inline_choice_with_empty_value_and_two_dimensions():
    result = texts("x {ein:name.SG.MASC|eine:name.SG.FEM|:name.PL} {name}", name=NAMES)
    assert set(result) == {"X eine Anna", "X ein Hans", "X ein Karl", "X Eva und Ina"}  # whitespace collapsed


def test_conditional_feature_with_default():
    names = [{"FEM": "Anna"}, {"MASC": "Hans"}, {"FEM": "Eva"}]
    result = space("{name1} und {name2} sind {job.PL.<FEM:name1.FEM,name2.FEM|MASC>}.", name=names, job=JOBS[:1])
    got = {item.text for item in result.generate()}
    assert "Anna und Eva sind Lehrerinnen." in got
    assert all(text.endswith("Lehrer.") for text in got if "Hans" in text)


def test_rules_with_numbered_uses_and_agreement():
    result = texts(
        "{ART1.NOM.DEF.<obj.NUMBER.GENDER>} {obj} und {ART2.DAT.DEF.<obj.NUMBER.GENDER>} {obj}", obj=OBJECTS
    )
    assert set(result) == {
        "Das Buch und dem Buch", "Die Bücher und den Bücher", "Die Tasse und der Tasse", "Die Tassen und den Tassen"
    }


def test_rule_free_dimension_is_enumerated():
    # DEFINITENESS is left open on the article: both definite and indefinite forms
    result = texts("{ART.NOM.<obj.NUMBER.GENDER>} {obj}", obj=OBJECTS[:1])
    assert set(result) == {"Das Buch", "Ein Buch", "Die Bücher", "Bücher"}


def test_agreement_follows_the_drawn_feature_not_a_fixed_one_elsewhere():
    # {obj.SG} fixes the noun's form only; the article agrees with obj's drawn NUMBER
    result = texts("{ART.NOM.DEF.<obj.NUMBER.GENDER>} {obj.SG}", obj=OBJECTS[:1])
    assert set(result) == {"Das Buch", "Die Buch"}


def test_computed_dimension_from_the_surface_form():
    result = texts("{EN.INDF.<job.STARTSWITH>.<job.NUMBER>} {job}", job=[{"SG": "actor", "PL": "actors"}, {"SG": "cook"}])
    assert set(result) == {"An actor", "Actors", "A cook"}


def test_computed_placeholder_with_values_and_features():
    assert texts("{a}+{b}={$plus(a,b)}", a=["1", "2"], b=["10"]) == ["1+10=11", "2+10=12"]
    assert set(texts("{name} ({$gender_word(name.GENDER)})", name=NAMES[:2])) == {"Hans (he)", "Anna (she)"}


def test_function_argument_may_be_a_list_not_shown_in_the_template():
    assert texts("sum {$plus(a,a)}", a=["1", "2"]) == ["Sum 2", "Sum 4"]


def test_modifiers_apply_per_occurrence():
    assert texts("x {p.TO_CAPITALIZE} {p} {p.TO_UPPER}", p=["auf dem"]) == ["X Auf dem auf dem AUF DEM"]


def test_post_processing_as_m2c():
    assert texts("  hello   {a} .  it's  {b}! ok", a=["x"], b=["' y"]) == ["Hello x . It's 'y! Ok"]


def test_mask_is_left_verbatim():
    assert texts("{a} {mask}", a=["x"]) == ["X {mask}"]


def test_duplicates_are_removed_but_counted_as_draws():
    result = space("{a} {b}", a=["x", "x"], b=["y"])
    assert result.size == 2 and [item.text for item in result.generate()] == ["X y"]


def test_numbered_feature_bundles_combine_in_order_and_inherent_dimensions_unordered():
    # GENDER is inherent to names: a masculine and a feminine draw are always different
    # names, combined as a full product; the feminine bundle (FEM comes first in the
    # language) goes to name1 (M2C's order semantics).
    names = [{"MASC": "A"}, {"FEM": "B"}, {"MASC": "C"}]
    assert set(texts("{name1} {name2}", name=names)) == {"B A", "B C", "A C"}


def test_draws_ranks_render_and_json_round_trip():
    result = space("{ART1.NOM.DEF.<obj1.NUMBER.GENDER>} {obj1}, {n1} {n2}", obj=OBJECTS, n=["a", "b", "c"])
    draws = list(result.draws())
    assert len(draws) == result.size == 4 * 3  # (NUMBER x GENDER of obj1) x combinations of n
    assert [d.rank for d in draws] == list(range(result.size))
    for draw in draws:
        assert result.draw_at(draw.rank) == draw
        again = Draw.from_json(json.loads(json.dumps(draw.to_json())))
        assert result.render(again) == result.render(draw)
    features = result.features(draws[0])
    assert set(features["obj1"]) == {"NUMBER", "GENDER"}


def test_sample_is_seeded_distinct_and_inside():
    result = space("{name1} {name2} {job.<name1.NUMBER.GENDER>}", name=NAMES, job=JOBS)
    everything = {item.text for item in result.generate()}
    a = [item.text for item in result.sample(5, seed=3)]
    assert a == [item.text for item in result.sample(5, seed=3)]
    assert len(set(a)) == 5 and set(a) <= everything
    assert {item.text for item in result.sample(1000, seed=1)} == everything
    assert result.sample(0, seed=1) == []
    with pytest.raises(ValueError):
        result.sample(-1, seed=1)


def test_flips_break_agreement_only_where_features_are_shared():
    result = space("{ART1.NOM.DEF.<obj.NUMBER.GENDER>} {obj} {ist:obj.SG|sind:obj.PL} {job.PL.MASC}.", obj=OBJECTS,
                   job=JOBS[:1])
    draw = next(d for d in result.draws() if result.render(d).startswith("Das Buch"))
    flips = {(f.target.key, f.target.dimension, f.after): f.text for f in result.flips(draw)}
    assert flips[("ART1.NOM.DEF.<obj.NUMBER.GENDER>", "GENDER", "MASC")] == "Der Buch ist Lehrer."
    assert flips[("obj", "NUMBER", "PL")] == "Das Bücher ist Lehrer."
    assert flips[("ist:obj.SG|sind:obj.PL", "NUMBER", "PL")] == "Das Buch sind Lehrer."
    assert not any(key == "job.PL.MASC" for key, _, _ in flips)  # fixed features are the author's choice
    assert len(set(flips.values())) == len(flips)
    assert all(f.target.dimension == "GENDER" for f in result.flips(draw, dimensions=["GENDER"]))


def test_unshared_free_feature_is_not_a_flip_target():
    result = space("x {obj}", obj=OBJECTS)
    assert result.flip_targets == []


@pytest.mark.parametrize(
    "template,placeholders,message",
    [
        ("{jobb}", {"job": JOBS}, "unknown placeholder 'jobb'. Did you mean job?"),
        ("{job.<name.GENDER>}", {"job": JOBS}, "agrees with 'name', which the template does not use"),
        ("{job.CASE_X}", {"job": JOBS}, "unknown feature"),
        ("{job.NOM}", {"job": JOBS}, "have no CASE features"),
        ("{a.SG}", {"a": ["x"]}, "plain strings and has no features"),
        ("{a1}", {"a1": ["x"]}, "may not end in a digit"),
        ("{$nope(a)}", {"a": ["x"]}, "no function 'nope' registered"),
        ("{$plus(a,zz)}", {"a": ["x"]}, "argument 'zz' is neither"),
        ("{job.<name.STARTSWITH>} {name}", {"job": JOBS, "name": ["x"]}, "computed dimension STARTSWITH"),
        ("{CMP} {a}", {"a": ["x"]}, "match different values"),  # ORDER is not sampleable: left open
        ("{ist:name.SG} {name}", {"name": [NAMES[3]]}, "no value for features"),
    ],
)
def test_bad_templates_are_clear_errors(template, placeholders, message):
    with pytest.raises(TemplateError) as error:
        space(template, **placeholders).generate()
    assert message in str(error.value)


def test_values_must_not_mix_plain_and_annotated():
    with pytest.raises(TemplateError, match="mixes plain strings"):
        space("{a}", a=["x", {"SG": "y"}])


def test_equally_specific_keys_with_different_values_are_an_error():
    with pytest.raises(TemplateError, match="equally specific"):
        space("{a}", a=[{"SG": "x", "MASC": "y"}])


def test_more_specific_key_wins():
    assert set(texts("{a.SG.<b.GENDER>} {b}", a=[{"SG": "x", "SG.FEM": "y"}], b=NAMES[:2])) == {"X Hans", "Y Anna"}
