"""The one text policy (arena/text_policy.py): what is refused, what must pass, and the
terminal rendering."""

from __future__ import annotations

import pytest

from arena.text_policy import MAX_TEXT_CHARS, text_problem, visible

REFUSED = [
    ("", "empty"),
    ("   ", "empty"),
    ("\u200b", "invisible"),
    ("\u200b\u202e ", "bidi"),
    ("Seit dem\x00 Tag", "U+0000"),
    ("Seit \x1b[2J dem Tag", "U+001B"),
    ("klingelt\x07", "U+0007"),
    ("abc\x08\x08\x08xyz", "U+0008"),
    ("Zeile\rneu", "line break"),
    ("Zeile\nneu", "line break"),
    ("Zeile\u2028neu", "line break"),
    ("das \x7f Ende", "U+007F"),
    ("osc \x9d0;title\x07", "U+009D"),
    ("dcs \x90 x", "U+0090"),
    ("links \u202e rechts", "bidi"),
    ("isolate \u2066x\u2069", "bidi"),
    ("halb \ud800 Paar", "surrogate"),
    ("x" * (MAX_TEXT_CHARS + 1), "at most"),
]

ACCEPTED = [
    "Seit dem Tag ist alles unklar.",
    "Er sagte \x84Ja\x93 und ging.",          # cp1252 quotes as Latin-1: WMT's own references
    "Straße\u00ad Bau",                       # a soft hyphen inside a word
    "ein\u200bWort",                          # a zero-width space inside a text
    "Tab\tgetrennt",
    "Emoji 🙂 und 中文",
    "x" * MAX_TEXT_CHARS,
]


@pytest.mark.parametrize(("text", "reason"), REFUSED)
def test_refused(text, reason):
    problem = text_problem(text)
    assert problem is not None and reason in problem


@pytest.mark.parametrize("text", ACCEPTED)
def test_accepted(text):
    assert text_problem(text) is None


def test_tab_refused_where_the_format_separates_by_tabs():
    assert "tab" in text_problem("a\tb", allow_tab=False)


def test_line_breaks_accepted_where_representable():
    assert text_problem("erste\nzweite", one_line=False) is None
    assert text_problem("x\x85y", one_line=False) is None
    assert "line break" in text_problem("x\x85y")


@pytest.mark.parametrize(("text", "shown"), [
    ("\x1b]0;owned\x07", "␛]0;owned␇"),
    ("clear\x1b[2J", "clear␛[2J"),
    ("back\x08\x08", "back␈␈"),
    ("cr\rhidden", "cr␍hidden"),
    ("nl\nx", "nl␊x"),
    ("del\x7f", "del␡"),
    ("csi\x9b31m", "csi<U+009B>31m"),
    ("bidi\u202eabc", "bidi<U+202E>abc"),
    ("lone\udc80", "lone<U+DC80>"),
])
def test_visible_renders_controls(text, shown):
    assert visible(text) == shown


@pytest.mark.parametrize("text", ["Seit dem Tag ist alles unklar.", "Tab\tbleibt", "中文 🙂 „Ja“"])
def test_visible_leaves_text_alone(text):
    assert visible(text) is text or visible(text) == text
