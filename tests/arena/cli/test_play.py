"""``arena play`` driven through a pseudo-terminal (pexpect), as a person would: both
roles, stopping and resuming, the time budget, and the transcripts they leave."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pexpect
import pytest

from arena.codec import load
from arena.edits import apply_edits
from arena.record import transcripts
from arena.record.rounds import Round
from arena.records import Edit
from arena.specs.config import load_experiment
from performers.catalog import CATALOG
from tests.arena.engine.helpers import run as run_engine
from tests.arena.people.helpers import arena_command, arena_env, default_sigint, write_config


def spawn(*args: str) -> pexpect.spawn:
    program, argv = arena_command(*args)
    return pexpect.spawn(program, argv, env=arena_env(), encoding="utf-8", timeout=60, dimensions=(50, 200),
                         preexec_fn=default_sigint)


def interrupt(child: pexpect.spawn, expected: str) -> None:
    """Ctrl-C until ``expected`` shows: a Ctrl-C that lands just before the program starts
    waiting for the terminal is only noticed at the next key (CPython's signal handling),
    so a person, like this test, presses it again."""
    for _ in range(5):
        child.sendintr()
        if child.expect([expected, pexpect.TIMEOUT], timeout=10) == 0:
            return
    raise AssertionError(f"no {expected!r} after Ctrl-C: {child.before!r}")


def lines(path: Path) -> list[dict]:
    return list(transcripts.read_jsonl(path))


def test_claude_plays_stops_resumes_and_late_answers_get_the_coin(tmp_path, distil_dir):
    config = write_config(tmp_path, distil_dir, budget=1.0)
    out = tmp_path / "runs"
    child = spawn("play", str(config), "--as", "claude", "--name", "ann", "--out", str(out), "--no-progress")
    child.expect(r"\[1/4\]\r?\n  source: ")
    child.expect(r"corrupted\? \[1/2, q\] ")
    assert "|replay|" not in child.before  # no round id: nothing that identifies the answer
    child.send("x")  # not an answer: asked again, nothing recorded
    child.expect("press 1, 2 or q")
    child.send("2")
    child.expect(r"\[2/4\]")
    child.expect(r"corrupted\? \[1/2, q\] ")
    time.sleep(1.3)  # past the 1 s budget: the coin decides
    child.send("1")
    child.expect("late .*: the coin chose [12]")
    child.expect(r"\[3/4\]")
    child.expect(r"corrupted\? \[1/2, q\] ")
    child.send("q")
    child.expect("2/4 rounds judged; run the same command to go on")
    child.expect(r"ann: S = ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    run_dir = next(out.iterdir())
    rounds = [load(Round, r) for r in lines(run_dir / transcripts.ROUNDS)]
    records = lines(run_dir / "people" / "ann" / "judgements.jsonl")
    assert [r["round"] for r in records] == [r.id for r in rounds[:2]]
    assert records[0]["claude"] == "person:ann" and records[0]["claude_choice"] == 1
    assert records[0]["resolved_by"] == "claude" and records[0]["correct"] == (rounds[0].corrupted == 1)
    assert records[1]["resolved_by"] == "late" and records[1]["claude_choice"] is None
    assert records[1]["seconds"] > 1.0

    child = spawn("play", str(config), "--as", "claude", "--name", "ann", "--out", str(out), "--no-progress")
    child.expect(r"\[3/4\]\r?\n")
    child.expect(r"corrupted\? \[1/2, q\] ")
    child.send("1")
    child.expect(r"\[4/4\]\r?\n")
    child.expect(r"corrupted\? \[1/2, q\] ")
    interrupt(child, "3/4 rounds judged")  # Ctrl-C stops as q does
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    records = lines(run_dir / "people" / "ann" / "judgements.jsonl")
    assert [r["round"] for r in records] == [r.id for r in rounds[:3]]
    assert len({r["round"] for r in records}) == 3


def test_zellig_edits_a_reference_and_the_corruption_replays_against_the_claudes(tmp_path, distil_dir):
    config = write_config(tmp_path, distil_dir)
    out = tmp_path / "runs"
    child = spawn("play", str(config), "--as", "zellig", "--name", "zed", "--out", str(out), "--no-progress")
    child.expect(r"\[1/4\] instance (\S+)")
    child.expect(r"reference: (.+?)\r\n")
    reference = child.match.group(1)
    child.expect("corrupted: ")
    words = reference.split(" ")
    corrupted = " ".join(["Das", *words[1:]]) if words[0] != "Das" else " ".join(["Der", *words[1:]])
    child.send("\x15" + corrupted + "\r")  # Ctrl-U clears the prefilled reference
    child.expect(r"phenomenon \(number or new label\): ")
    child.send("Not A Label\r")
    child.expect("use lower-case letters")
    child.expect(r"phenomenon \(number or new label\): ")
    child.send("article_swap\r")
    child.expect("recorded: ")
    child.expect(r"\[2/4\] instance")
    child.expect("corrupted: ")
    child.send("\r")  # unchanged: no corruption applies
    child.expect("recorded: no corruption applies")
    child.expect(r"\[3/4\] instance")
    child.expect("corrupted: ")
    interrupt(child, "2/4 instances done")
    child.expect(r"arena run (\S+replay\.yaml)")
    replay = Path(child.match.group(1))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    run_dir = next(out.iterdir())
    records = lines(run_dir / "people" / "zed" / "corruptions.jsonl")
    assert len(records) == 2 and records[1]["variant"] is None
    variant = records[0]["variant"]
    instance = records[0]["instance"]
    assert variant["text"] == corrupted and variant["phenomenon"] == "article_swap"
    edits = [load(Edit, e) for e in variant["edits"]]
    assert len(edits) == 1 and edits[0].before == words[0]
    assert apply_edits(instance["reference"], edits) == corrupted

    # one command replays the person's corruptions against the run's Claudes
    result = run_engine(load_experiment(replay), CATALOG, tmp_path / "replayed", progress=False)
    rounds = [load(Round, r) for r in lines(result.run_dir / transcripts.ROUNDS)]
    played = [r for r in rounds if r.status == "ok"]
    assert [r.zellig for r in played] == ["person:zed"]
    assert played[0].variant.text == corrupted and played[0].instance.id == instance["id"]
    assert sum(1 for r in rounds if r.status == "not_applicable") == 1
    cells = {c.zellig: c for c in result.scores.cells}
    assert cells["person:zed"].summary.rounds == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--name", "../../x"], "person name '../../x' is not allowed"),
        (["--name", ""], "is not allowed"),
        (["--name", "ann", "--rounds", "0"], "--rounds must be a positive integer"),
    ],
)
def test_bad_play_arguments_exit_2_and_write_nothing(tmp_path, distil_dir, args, message):
    import subprocess

    config = write_config(tmp_path, distil_dir)
    program, argv = arena_command("play", str(config), "--as", "claude", "--out", str(tmp_path / "runs"), *args)
    done = subprocess.run([program, *argv], env=arena_env(), capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "runs").exists()
    assert not (tmp_path / "x").exists()
    json.dumps(done.stderr)  # printable
