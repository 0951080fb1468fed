"""``arena --help`` and every verb's ``--help`` are written for users: no Sphinx roles
(``:mod:``, ``:func:``, …), no reST literals, no issue numbers."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from arena.cli import VERBS, main

DEVELOPER_WORDS = re.compile(r":(mod|func|class|meth|attr|data|exc):|``|\bissues? (#?\d+)|#\d{2,}\b", re.IGNORECASE)


def help_text(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return out.getvalue()


@pytest.mark.parametrize("verb", [None, *VERBS])
def test_help_has_no_developer_words(verb):
    text = help_text(*([verb] if verb else []))
    assert text.strip()
    assert not DEVELOPER_WORDS.search(text), DEVELOPER_WORDS.search(text)


@pytest.mark.parametrize(("text", "fires"), [
    ("see :mod:`arena.pairs_api`", True),
    ("(:func:`performers.claude.scoring.x`)", True),
    ("A cue audit (issue 25).", True),
    ("fixed in #38", True),
    ("``--pairs FILE``", True),
    ("the first 25 pairs; beam 5", False),
    ("docs/people.md, --set seeds=[1,2]", False),
    ("an issue with the file", False),
])
def test_the_check_itself(text, fires):
    assert bool(DEVELOPER_WORDS.search(text)) is fires
