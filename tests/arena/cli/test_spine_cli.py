"""The spine's CLI verbs: run, validate, ls, score, show; exit codes and help."""

from __future__ import annotations

import pytest

from arena.cli import VERBS, main


@pytest.fixture
def config(tmp_path, distil_dir):
    path = tmp_path / "exp.yaml"
    path.write_text(
        f"name: cli\njohn: {{name: distil-lingeval, alias: d, params: {{dir: {distil_dir / 'polarity_affix_del.human'}}}}}\n"
        "zellig: replay\nclaudes: [oracle, random]\nbootstrap_samples: 100\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_has_help_with_examples(verb, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([verb, "--help"])
    assert exit_info.value.code == 0
    assert "examples:" in capsys.readouterr().out


def test_usage_errors_exit_2(capsys, tmp_path):
    assert main([]) == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["no-such-verb"])
    assert exit_info.value.code == 2
    assert main(["validate", str(tmp_path / "missing.yaml")]) == 2
    assert "missing.yaml: file not found" in capsys.readouterr().err


def test_run_score_show(config, tmp_path, capsys):
    out = tmp_path / "runs"
    assert main(["run", str(config), "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "oracle" in printed and "1.000" in printed and "signature: john:d=distil-lingeval@1+data." in printed and "|arena:0.1.0" in printed
    (run_dir,) = out.iterdir()
    assert main(["run", str(config), "--out", str(out)]) == 0
    assert "already finished" in capsys.readouterr().out
    assert main(["score", str(run_dir)]) == 0
    scored = capsys.readouterr().out
    assert "random" in scored and "signature: john:d=distil-lingeval@1+data." in scored  # printed with the numbers
    assert main(["show", str(run_dir), "--wrong", "--claude", "random", "--limit", "1", "--no-color"]) == 0
    shown = capsys.readouterr().out
    assert "WRONG" in shown and "→" in shown and "1 of" in shown
    assert main(["show", str(run_dir), "--wrong", "--claude", "oracle"]) == 0
    assert "0 of 0 matching pairs" in capsys.readouterr().out


def test_validate_and_set(config, capsys):
    assert main(["validate", str(config), "--set", "claudes.1.params.seed=5"]) == 0
    assert "random@1(seed=5)" in capsys.readouterr().out
    assert main(["validate", str(config), "--set", "claudes.1.params.sed=5"]) == 2
    assert "no parameter(s) sed; allowed: seed" in capsys.readouterr().err


def test_ls(capsys):
    assert main(["ls", "claudes", "--params"]) == 0
    printed = capsys.readouterr().out
    assert "oracle" in printed and "      seed: int = 0 — " in printed
