"""The Python examples of docs/api.md and docs/own-data.md run as written from the repository root."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (REPO / "docs" / page).read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture
def checkout(tmp_path, data_dir, monkeypatch):
    """A directory that looks like the repository root: experiments/ and ../shared beside it."""
    work = tmp_path / "checkout"
    work.mkdir()
    (work / "experiments").symlink_to(REPO / "experiments")
    (tmp_path / "shared").symlink_to(data_dir.parent)
    monkeypatch.chdir(work)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return work


def test_api_page_examples_run(checkout, capsys):
    blocks = python_blocks("api.md")
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), {"__name__": "__docs__"})
    printed = capsys.readouterr().out
    assert "john:pairs@1+data." in printed and "blame" in printed and "correct_preferred" in printed
    (run_dir,) = (checkout / "runs" / "api-pairs").glob("pairs-*")
    assert (run_dir / "scores.json").exists()
    assert len(list((checkout / "runs" / "api-pairs" / "pairs").glob("*.jsonl"))) == 1


def bash_commands(page: str) -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", (REPO / "docs" / page).read_text(encoding="utf-8"), flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_own_data_five_commands_and_notebook(checkout, capsys):
    import glob
    import shlex

    from arena.cli import main

    commands = bash_commands("own-data.md")
    assert len(commands) == 5 and all(c.startswith("arena ") for c in commands)
    for command in commands:
        argv = [match for word in shlex.split(command)[1:] for match in (sorted(glob.glob(word)) or [word])]
        assert main(["-q", *argv]) == 0, command
    printed = capsys.readouterr().out
    assert "<" in printed and "blame:" in printed  # show --tokens
    (run_dir,) = (checkout / "runs" / "own").glob("own-*")
    assert "the model blames" in (run_dir / "report.md").read_text(encoding="utf-8")
    header = (checkout / "own.scores.tsv").read_text(encoding="utf-8").splitlines()[0].split("\t")
    assert {"score_correct", "tokens_correct", "blame", "register"} <= set(header)
    (block,) = python_blocks("own-data.md")
    exec(compile(block, "docs/own-data.md", "exec"), {"__name__": "__docs__"})
    assert "claudes" in capsys.readouterr().out


RUN_DIR = re.compile(r"runs/(?:[\w.-]+/)?([\w.+-]+?)-([0-9a-f]{8,12})\b")
# the overrides the docs and help pass with a named run directory (--limit 50 --no-1best, ...)
OVERRIDES = ([], ["max_instances=50", "discrepancy=false"], ["max_instances=100", "seeds=[1,2,3]"])


def documented_texts() -> dict[str, str]:
    """README, docs, the experiments' READMEs, configs and scripts (their usage comments) and
    every verb's help text (its examples)."""
    from arena.cli import build_parser

    texts = {str(path.relative_to(REPO)): path.read_text(encoding="utf-8")
             for pattern in ("README.md", "docs/*.md", "experiments/**/*.md", "experiments/**/*.yaml",
                                 "experiments/**/*.py") for path in REPO.glob(pattern)}
    parser = build_parser()
    (verbs,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    texts["arena --help"] = parser.format_help()
    texts.update({f"arena {verb} --help": sub.format_help() for verb, sub in verbs.choices.items()})
    return texts


@pytest.mark.parametrize("override", [["max_instances=50"], ["seeds=[1,2]"]])
def test_an_override_changes_the_run_directory(checkout, override):
    from arena.engine.manifest import config_hash
    from arena.specs.config import load_experiment

    plain = config_hash(load_experiment("experiments/quickstart.yaml"))
    assert config_hash(load_experiment("experiments/quickstart.yaml", override)) != plain  # must not collide


def test_run_directories_named_in_docs_and_help_are_the_ones_their_configs_make(checkout):
    """`arena score runs/quickstart-100a898585` runs as written after `arena run experiments/quickstart.yaml`."""
    from arena.engine.manifest import config_hash
    from arena.specs.config import load_experiment

    made: dict[str, set[str]] = {}
    for config in sorted((REPO / "experiments").glob("**/*.yaml")):
        for override in OVERRIDES:
            try:
                experiment = load_experiment(config.relative_to(REPO), override)
            except ValueError:  # not an experiment (a John spec, a cluster recipe) or no such key
                continue
            made.setdefault(experiment.name, set()).add(config_hash(experiment))
    named = [(where, *m.groups()) for where, text in documented_texts().items() for m in RUN_DIR.finditer(text)]
    assert len(named) > 20
    wrong = [(where, f"runs/{name}-{digest}", sorted(made.get(name, ())))
             for where, name, digest in named if digest not in made.get(name, ())]
    assert not wrong, wrong


def help_examples(verb: str) -> list[str]:
    """The ``arena VERB`` lines of a verb's --help examples, continuation lines joined."""
    from arena.cli import build_parser

    (verbs,) = [action for action in build_parser(verb)._actions if isinstance(action, argparse._SubParsersAction)]
    epilog = (verbs.choices[verb].epilog or "").replace("\\\n", " ")
    return [line.strip().split("  #")[0] for line in epilog.splitlines()
            if re.match(rf"arena {verb}(\s|$)", line.strip())]


# verbs whose examples are quick (no model): each example that names only shipped or shared files runs
QUICK = [(verb, example) for verb in ("ls", "validate", "template") for example in help_examples(verb)
         if not any(mine in example for mine in ("my.yaml", "mylang.yaml"))]


@pytest.mark.parametrize("verb, example", QUICK, ids=[example for _, example in QUICK])
def test_quick_help_examples_run_as_written(checkout, verb, example, capsys):
    import shlex

    from arena.cli import main

    assert main(["-q", *shlex.split(example)[1:]]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip()


def test_quick_help_examples_are_found():
    assert len(QUICK) >= 8  # must not pass by finding none


def test_every_verb_help_has_examples_of_that_verb():
    """README: 'Every verb has --help with examples'."""
    from arena.cli import VERBS

    missing = [verb for verb in VERBS if not help_examples(verb)]
    assert not missing, missing
