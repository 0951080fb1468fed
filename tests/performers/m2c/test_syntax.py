"""The key parser: every syntax element, and keys that must be rejected."""

from __future__ import annotations

import pytest

from performers.m2c.features import TemplateError
from performers.m2c.syntax import Agreement, Call, Choice, KeyParser, Mask, Occurrence, Ref, split_template

from .helpers import language


@pytest.fixture(scope="module")
def parser():
    lang = language()
    return KeyParser(lang.dimensions, lang.modifiers)


def test_split_template_literals_keys_and_escaped_braces():
    assert split_template("a {x} b {{y}} {z.SG}") == ["a ", Occurrence("x", ()), " b {y} ", Occurrence("z.SG", ())]


@pytest.mark.parametrize("template", ["a {x", "a } b", "a {} b", "{a {b}}"])
def test_split_template_rejects_unbalanced_braces(template):
    with pytest.raises(TemplateError):
        split_template(template, "t")


@pytest.mark.parametrize(
    "key,expected,modifiers",
    [
        ("job", Ref("job", "job", (), (), ()), ()),
        ("name1", Ref("name1", "name1", (), (), ()), ()),
        ("job.PL.FEM", Ref("job.PL.FEM", "job", ("PL", "FEM"), (), ()), ()),
        ("job.<name1.NUMBER.GENDER>",
         Ref("job.<name1.NUMBER.GENDER>", "job", (), (Agreement("name1", ("NUMBER", "GENDER")),), ()), ()),
        ("job.<name2.NUMBER>.MASC",
         Ref("job.<name2.NUMBER>.MASC", "job", ("MASC",), (Agreement("name2", ("NUMBER",)),), ()), ()),
        ("prep.TO_CAPITALIZE", Ref("prep", "prep", (), (), ()), ("TO_CAPITALIZE",)),
        ("ART1.NOM.DEF.<obj1.NUMBER.GENDER>.TO_CAPITALIZE",
         Ref("ART1.NOM.DEF.<obj1.NUMBER.GENDER>", "ART1", ("NOM", "DEF"), (Agreement("obj1", ("NUMBER", "GENDER")),), ()),
         ("TO_CAPITALIZE",)),
        ("mask", Mask("mask"), ()),
        ("mask2", Mask("mask2"), ()),
        ("$plus(a,b)", Call("$plus(a,b)", "plus", ("a", "b")), ()),
        ("$sum(number1.<fruit1.GENDER>,number2).TO_CAPITALIZE",
         Call("$sum(number1.<fruit1.GENDER>,number2)", "sum", ("number1.<fruit1.GENDER>", "number2")), ("TO_CAPITALIZE",)),
        ("is:name1.SG|are:name1.PL", Choice("is:name1.SG|are:name1.PL", "name1", (("is", ("SG",)), ("are", ("PL",)))), ()),
        (":name1.PL|ein:name1.SG.MASC",
         Choice(":name1.PL|ein:name1.SG.MASC", "name1", (("", ("PL",)), ("ein", ("SG", "MASC")))), ()),
        ("Quién es:name2.SG|Quiénes son:name2.PL",
         Choice("Quién es:name2.SG|Quiénes son:name2.PL", "name2", (("Quién es", ("SG",)), ("Quiénes son", ("PL",)))), ()),
    ],
)
def test_parse_keys(parser, key, expected, modifiers):
    assert parser.parse(key, "t") == (expected, modifiers)


def test_parse_conditional_feature(parser):
    ref, _ = parser.parse("job1.PL.<FEM:name1.FEM,name2.FEM|MASC>", "t")
    assert ref.fixed == ("PL",)
    (conditional,) = ref.conditionals
    assert conditional.dimension == "GENDER"
    assert conditional.options == (("FEM", (("name1", "GENDER", "FEM"), ("name2", "GENDER", "FEM"))),)
    assert conditional.default == "MASC"
    assert ref.numbered and ref.root == "job"


@pytest.mark.parametrize(
    "key,message",
    [
        ("job.PLURAL", "unknown feature 'PLURAL'"),
        ("job.<name.PL>", "unknown dimension 'PL' (PL is a feature of NUMBER)"),
        ("job.NUMBER", "'NUMBER' is a dimension"),
        ("job.SG.PL", "NUMBER is given twice"),
        ("job.<name.NUMBER>.SG", "NUMBER is given twice"),
        ("job.<name.NUMBER.NUMBER>", "names a dimension twice"),
        ("is:name1.SG|are:name2.PL", "must test one placeholder"),
        ("is:name1.SG|are", "value:placeholder.FEATURES"),
        ("is:name1|are:name1.PL", "names no features"),
        ("job.<MASC|FEM:name.FEM>", "must come last"),
        ("job.<FEM:name.FEM|SG>", "mixes GENDER and NUMBER"),
        ("job..PL", "empty part"),
        ("job.<name.NUMBER", "unbalanced"),
        ("9job", "not a placeholder or rule name"),
        ("$plus(a,,b)", "empty function argument"),
        ("$plus(a).SHOUT", "unknown modifier"),
        ("$plus", "{$name(arg,...)}"),
    ],
)
def test_bad_keys_are_clear_errors(parser, key, message):
    with pytest.raises(TemplateError, match=None) as error:
        parser.parse(key, "file.yaml: t")
    assert message in str(error.value)
    assert "file.yaml: t" in str(error.value)
