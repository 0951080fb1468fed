"""What every robustness case checks: the exit status, no traceback, one line naming the place."""

from __future__ import annotations

from pathlib import Path

from arena.cli import main

SOURCES = ["The thing is new.", "I have no time.", "She does not like it.", "We saw nothing."]
CORRECT = ["Das Ding ist neu.", "Ich habe keine Zeit.", "Sie mag es nicht.", "Wir sahen nichts."]
INCORRECT = ["Das Ding ist alt.", "Ich habe Zeit.", "Sie mag es.", "Wir sahen etwas."]

EXPERIMENT = """name: robust
johns:
  - name: distil-lingeval
    params: {{dir: {testset}}}
zelligs: [replay]
claudes: [oracle, random]
seeds: [1, 2]
bootstrap_samples: 10
"""


def write_testset(directory: Path) -> Path:
    """A DistilLingEval directory of four pairs."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, lines in (("src.en", SOURCES), ("tgt.correct.de", CORRECT), ("tgt.incorrect.de", INCORRECT)):
        (directory / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return directory


def write_experiment(path: Path, testset: Path, extra: str = "") -> Path:
    path.write_text(EXPERIMENT.format(testset=testset) + extra, encoding="utf-8")
    return path


def invoke(argv: list[str], capsys) -> tuple[int, str, str]:
    """``arena ARGV`` in process: (status, stdout, stderr)."""
    try:
        status = main([str(item) for item in argv])
    except SystemExit as exit_info:  # argparse
        status = exit_info.code if isinstance(exit_info.code, int) else 2
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused(argv: list[str], capsys, *fragments: str) -> str:
    """Assert that ``arena ARGV`` exits 2 with one line, no traceback, holding every
    fragment (the file, line or key at fault); return the line."""
    status, stdout, stderr = invoke(argv, capsys)
    assert "Traceback" not in stdout + stderr, stderr
    assert status == 2, f"exit {status}: {stderr}"
    assert stderr.rstrip("\n").count("\n") == 0 and "error: " in stderr, stderr
    for fragment in fragments:
        assert fragment in stderr, f"{fragment!r} not in {stderr!r}"
    return stderr
