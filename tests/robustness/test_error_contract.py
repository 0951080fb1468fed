"""Item 1 of the contract: the user's faults exit 2 in one line naming file, line and key;
anything else is a bug: a saved traceback, one paragraph naming it, exit 70."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from arena.errors import ConfigError, DataError, EnvError, UsageError
from tests.robustness.helpers import invoke, refused


def _raise(error: BaseException):
    def verb(args):
        raise error

    return verb


@pytest.fixture
def crashes(tmp_path, monkeypatch) -> Path:
    """Bug reports of the cases that provoke one on purpose (not the suite's own directory)."""
    directory = tmp_path / "crashes"
    monkeypatch.setenv("ARENA_CRASH_DIR", str(directory))
    return directory


@pytest.mark.parametrize(
    "error",
    [KeyError("round"), ValueError("a plain ValueError is a bug, not a usage error"), TypeError("bad operand"),
     ZeroDivisionError("division by zero"), AttributeError("'NoneType' object has no attribute 'x'")],
    ids=["KeyError", "ValueError", "TypeError", "ZeroDivisionError", "AttributeError"],
)
def test_a_bug_exits_70_with_the_path_of_its_saved_traceback(error, experiment, crashes, capsys, monkeypatch):
    import arena.cli.validate

    monkeypatch.setattr(arena.cli.validate, "run", _raise(error))
    status, stdout, stderr = invoke(["validate", experiment], capsys)
    assert status == 70, stderr
    assert "Traceback" not in stdout + stderr
    assert "internal error" in stderr and "bug in arena" in stderr, stderr
    (report,) = crashes.glob("arena-crash-*.txt")
    assert str(report) in stderr
    saved = report.read_text(encoding="utf-8")
    assert saved.startswith("Traceback") and type(error).__name__ in saved


@pytest.mark.parametrize(
    ("error", "expect"),
    [
        (ConfigError("'f16' is not a dtype", file="exp.yaml", line=7, key="claudes.0.params.dtype"),
         "exp.yaml:7: claudes.0.params.dtype: 'f16' is not a dtype"),
        (DataError("cut line", file="runs/x/judgements.jsonl", line=3), "runs/x/judgements.jsonl:3: cut line"),
        (UsageError("--limit -1: must be at least 1"), "--limit -1: must be at least 1"),
        (EnvError("no CUDA", key="device", hint="use device: cpu"), "device: no CUDA (hint: use device: cpu)"),
        (OSError(errno.ENOSPC, "No space left on device", "runs/x/rounds.jsonl"),
         "runs/x/rounds.jsonl: No space left on device"),
        (PermissionError(errno.EACCES, "Permission denied", "/etc/x"), "/etc/x: Permission denied"),
    ],
    ids=["config", "data", "usage", "environment", "full-disk", "permission"],
)
def test_user_faults_exit_2_in_one_line_and_save_no_report(error, expect, experiment, crashes, capsys, monkeypatch):
    import arena.cli.validate

    monkeypatch.setattr(arena.cli.validate, "run", _raise(error))
    refused(["validate", experiment], capsys, expect)
    assert not crashes.exists() or not any(crashes.iterdir())


def test_a_multi_line_message_is_folded_into_one_line(experiment, capsys, monkeypatch):
    import arena.cli.validate

    monkeypatch.setattr(arena.cli.validate, "run", _raise(DataError("first\nsecond", file="x.txt", line=2)))
    refused(["validate", experiment], capsys, "x.txt:2: first second")


def test_a_fault_free_command_exits_0(experiment, capsys):
    """Must not fire: the contract leaves a good command alone."""
    status, stdout, stderr = invoke(["validate", experiment], capsys)
    assert status == 0 and "OK" in stdout and not stderr, stderr
