"""``arena train`` on bad flags, a runaway loss, damaged or hostile checkpoints and a full
disk: exit 2, no traceback, a message naming the flag or file; never non-finite weights
exported, never pickled code executed."""

from __future__ import annotations

import pickle
import resource
import signal
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import DataError, UsageError
from performers.claude import checkpoint, training
from tests.performers.claude.test_training import settings, write_corpus
from tests.robustness.processes import arena, interrupted

TINY = ["--preset", "tiny", "--batch-tokens", "64", "--threads", "1", "--no-progress"]


@pytest.mark.parametrize("flag, value", [
    ("--limit", "-1"),          # used to drop the last held-out sentence
    ("--lr", "inf"), ("--lr", "nan"), ("--lr", "0"), ("--lr", "-0.1"), ("--lr", "2"),
    ("--warmup", "-5"), ("--minutes", "0"), ("--minutes", "inf"), ("--save-minutes", "-1"),
    ("--max-steps", "0"), ("--max-pairs", "-3"), ("--batch-tokens", "0"), ("--max-length", "0"),
    ("--max-length", "100000"), ("--seed", "-1"), ("--threads", "0"), ("--limit", "ten"),
])
def test_out_of_range_flags_exit_2_naming_the_flag(tmp_path, capsys, flag, value):
    with pytest.raises(SystemExit) as exit_info:
        main(["train", "teacher", "--out", str(tmp_path / "m"), flag, value])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and f"argument {flag}:" in err and "Traceback" not in err
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize("argv", [
    ["--lr", "1", "--warmup", "0", "--limit", "0", "--seed", "0", "--minutes", "0.5", "--max-steps", "1"],
    ["--lr", "1e-4", "--warmup", "0", "--max-length", "4096", "--save-minutes", "0.01", "--max-steps", "1"],
])
def test_edge_values_in_range_are_accepted(tmp_path, argv):
    from arena.cli import build_parser

    args = build_parser("train").parse_args(["train", "teacher", "--out", str(tmp_path / "m"), *argv])
    assert args.max_steps == 1


@pytest.mark.parametrize("steps", [1, 3])
def test_a_non_finite_loss_or_weights_stop_training_before_anything_is_written(tmp_path, steps):
    prefix = write_corpus(tmp_path / "data")
    out = tmp_path / "m"
    with pytest.raises(UsageError, match="not finite") as error:
        training.train(settings(prefix, learning_rate=float("inf"), max_steps=steps), out, progress=False)
    assert error.value.key == "--lr" and "lower --lr" in (error.value.hint or "")
    assert not (out / "hf").exists() and not (out / checkpoint.CHECKPOINT).exists()


def test_a_finite_run_does_not_trip_the_checks(tmp_path):
    prefix = write_corpus(tmp_path / "data")
    record = training.train(settings(prefix, max_steps=2), tmp_path / "m", progress=False)
    assert record["updates"] == 2 and (tmp_path / "m" / checkpoint.CHECKPOINT).is_file()


def _train(prefix: str, out: Path, steps: int) -> dict:
    return training.train(settings(prefix, max_steps=steps), out, progress=False)


def test_a_damaged_checkpoint_falls_back_to_the_previous_one_and_resumes_exactly(tmp_path, caplog):
    import torch
    from safetensors.torch import load_file

    prefix = write_corpus(tmp_path / "data")
    straight = _train(prefix, tmp_path / "straight", 3)
    out = tmp_path / "m"
    _train(prefix, out, 1)
    _train(prefix, out, 2)  # checkpoint of update 2; update 1 becomes the previous one
    current = out / checkpoint.CHECKPOINT
    current.write_bytes(current.read_bytes()[: current.stat().st_size // 2])  # cut short, as by a full disk
    (out / f".{checkpoint.CHECKPOINT}.tmp999").write_bytes(b"half-written")
    resumed = _train(prefix, out, 3)
    assert resumed["updates"] == straight["updates"] == 3
    assert f"{current}: damaged checkpoint" in caplog.text and "resuming from" in caplog.text
    assert not (out / f".{checkpoint.CHECKPOINT}.tmp999").exists()
    a, b = load_file(tmp_path / "straight" / "hf" / "model.safetensors"), load_file(out / "hf" / "model.safetensors")
    assert all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("content", [b"", b"\x00" * 64, b"not a checkpoint at all", b"\xff" * 8 + b"{}"])
def test_a_damaged_checkpoint_without_a_previous_one_is_named(tmp_path, content):
    prefix = write_corpus(tmp_path / "data")
    out = tmp_path / "m"
    out.mkdir()
    (out / checkpoint.CHECKPOINT).write_bytes(content)
    with pytest.raises(DataError, match="damaged checkpoint") as error:
        _train(prefix, out, 1)
    assert error.value.file == str(out / checkpoint.CHECKPOINT) and "delete" in error.value.hint


def test_a_foreign_safetensors_file_is_not_taken_for_a_checkpoint(tmp_path):
    import torch
    from safetensors.torch import save_file

    prefix = write_corpus(tmp_path / "data")
    out = tmp_path / "m"
    out.mkdir()
    save_file({"weight": torch.zeros(2)}, str(out / checkpoint.CHECKPOINT))
    with pytest.raises(DataError, match="not an arena training checkpoint"):
        _train(prefix, out, 1)


class _Payload:
    """A pickle that would create a file when unpickled with ``weights_only=False``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_pickled_legacy_checkpoint_runs_no_code(tmp_path):
    prefix = write_corpus(tmp_path / "data")
    out = tmp_path / "m"
    out.mkdir()
    marker = tmp_path / "pwned"
    with open(out / checkpoint.LEGACY, "wb") as handle:
        pickle.dump({"settings": _Payload(marker)}, handle)
    with pytest.raises(DataError, match="earlier version") as error:
        _train(prefix, out, 1)
    assert error.value.file == str(out / checkpoint.LEGACY) and not marker.exists()


def _small_files() -> None:
    """A file-size limit of 2 MB: the checkpoint (~4 MB) does not fit, as on a full disk."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2 << 20, 2 << 20))


def test_a_full_disk_exits_2_naming_the_checkpoint(tmp_path):
    prefix = write_corpus(tmp_path / "data")
    out = tmp_path / "m"
    done = arena(["train", "teacher", "--out", str(out), "--train", prefix, "--max-steps", "2", *TINY],
                 preexec=_small_files)
    assert done.status == 2, done.err
    assert "Traceback" not in done.err and f"{out / checkpoint.CHECKPOINT}: cannot write the checkpoint" in done.err
    assert not list(out.glob(".checkpoint*")) and not (out / "hf").exists()


def test_ctrl_c_stops_training_within_seconds_leaving_a_checkpoint_to_resume_from(tmp_path):
    prefix = write_corpus(tmp_path / "data")
    out = tmp_path / "m"
    argv = ["train", "teacher", "--out", str(out), "--train", prefix, "--minutes", "10", "--save-minutes", "0.02",
            *TINY]
    stopped = interrupted(argv, ready=lambda: (out / checkpoint.CHECKPOINT).is_file(), exit_timeout=60)
    assert stopped.status == 130 and "Traceback" not in stopped.err and "re-run the same command" in stopped.err
    assert stopped.seconds < 30
    state = checkpoint.load(out)
    assert state is not None and state.info["step"] > 0 and not (out / "hf").exists()
