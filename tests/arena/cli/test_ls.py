"""``arena ls``: one clean sentence per performer; ``--params`` with type, default and meaning."""

from __future__ import annotations

import pytest

from arena.cli import main
from arena.present.catalog import first_sentence, meaning, plain


@pytest.mark.parametrize("text, expected", [
    ("``replay`` Zellig", "replay Zellig"),
    ("see :mod:`performers.claude.scoring`", "see performers.claude.scoring"),
    ("uninflected *Ding*.", "uninflected Ding."),
    ("a ``**kwargs`` mapping", "a **kwargs mapping"),   # must not fire inside code
    ("2 * 3 * 4", "2 * 3 * 4"),                        # must not fire on arithmetic
])
def test_plain_removes_rest_markup(text, expected):
    assert plain(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Delete it. Then more.", "Delete it."),
    ("Break agreement, e.g. the gender. More.", "Break agreement, e.g. the gender."),  # not at e.g.
    ("No full stop at all", "No full stop at all"),
])
def test_first_sentence_is_whole(text, expected):
    assert first_sentence(text) == expected


@pytest.mark.parametrize("docs, expected", [
    ("Params: ``model`` (hub name or local directory), ``revision``.", "hub name or local directory"),
    ("``limit``: at most this many. Other.", "at most this many."),
    ("``source_lang``/``target_lang`` (multilingual models)", "multilingual models"),
    ("Params: ``a``, ``target_lang``, ``b``, ``c``.", ""),  # a bare list explains nothing
])
def test_meaning_of_a_parameter(docs, expected):
    assert meaning("target_lang" if "target_lang" in docs else docs.split("``")[1], docs) == expected


@pytest.mark.parametrize("docs, default, expected", [
    ("Params: ``beam`` (default 5).", "5", ""),                     # the default is no meaning
    ("at most ``max_count`` (10) times", "10", ""),
    ("``max_zipf`` (3.0, about once in a million words)", "3.0", ""),
    ("``checkpoint_file`` (``model.pt``)", "'model.pt'", ""),
    ("``beam`` (the beam size, default 5)", "5", "the beam size, default 5"),   # must fire
    ("``tokenizer`` (default: the model's own files)", "None", "default: the model's own files"),
    ("``mode`` (``beam``, default, or ``greedy``)", "'beam'", "beam, default, or greedy"),
])
def test_a_parenthetical_default_is_not_a_meaning(docs, default, expected):
    assert meaning(docs.split("``")[1], docs, loose=False, default=default) == expected


def test_ls_params_never_show_a_bare_default_or_a_cut_sentence(capsys):
    assert main(["ls", "--params"]) == 0
    for line in capsys.readouterr().out.splitlines():
        if line.startswith("      ") and " — " in line:
            head, explained = line.split(" — ", 1)
            default = head.rsplit(" = ", 1)[1] if " = " in head else ""
            assert explained not in (default, default.strip("'"), f"default {default}"), line
            assert not explained.endswith(("e.g.", "i.e.")), line


def test_ls_summaries_are_clean_sentences(capsys):
    assert main(["ls"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert len(lines) > 30
    for line in lines:
        summary = line.split(None, 2)[2]
        assert "``" not in summary and ":mod:" not in summary and ":class:" not in summary, line
        assert summary[0].isupper() and summary.endswith((".", ")")), line


def test_ls_params_give_type_default_and_meaning(capsys):
    assert main(["ls", "claudes", "--params"]) == 0
    out = capsys.readouterr().out
    assert "      model: ModelName (required) — hub name or local directory" in out
    assert "      dtype: DType = 'fp32' — fp32, bf16, fp16" in out
    params = [line for line in out.splitlines() if line.startswith("      ")]
    assert params and all(" — " in line for line in params), [line for line in params if " — " not in line]
    assert main(["ls", "--params"]) == 0
    params = [line for line in capsys.readouterr().out.splitlines() if line.startswith("      ")]
    assert len(params) > 100 and all(" — " in line for line in params), [line for line in params if " — " not in line]
