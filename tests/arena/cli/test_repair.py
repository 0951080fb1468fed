"""``arena repair`` as a command: ``--serve`` prints the address of the repair page and
stops cleanly on Ctrl-C with the counts; bad input is exit 2 before any work (the
terminal review itself: tests/performers/john/test_repairs.py)."""

from __future__ import annotations

import re
import signal
import subprocess

import pytest
import yaml

from tests.arena.cli.test_serve import status
from tests.arena.people.helpers import arena_command, arena_env, default_sigint


@pytest.fixture()
def john_file(tmp_path, data_dir):
    params = {"john": {"name": "newstest", "params": {"dir": str(data_dir / "wmt" / "newstest"), "years": [2009],
                                                      "limit": 40}},
              "outputs": str(data_dir / "wmt" / "mt-outputs"), "progress": False}
    path = tmp_path / "mt.yaml"
    path.write_text(yaml.safe_dump({"name": "mt-reference", "params": params}), encoding="utf-8")
    return path


def test_repair_serve_prints_its_address_and_stops_with_the_counts(tmp_path, john_file):
    program, argv = arena_command("repair", "--john", str(john_file), "--zellig", "np-agreement",
                                  "--patch", str(tmp_path / "repairs.jsonl"), "--serve", "--port", "0")
    server = subprocess.Popen([program, *argv], env=arena_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, preexec_fn=default_sigint)
    try:
        for line in server.stdout:
            found = re.search(r"serving (\d+) flagged references \(0 decided before\) at http://127.0.0.1:(\d+)/repair/$",
                              line.rstrip())
            if found:
                break
        else:
            pytest.fail(f"no address printed: {server.stderr.read()}")
        assert int(found.group(1)) >= 1
        base = f"http://127.0.0.1:{found.group(2)}/"
        assert status(base + "repair/") == 200 and status(base + "static/repair.js") == 200
        assert status(base + "repair/api/next") == 401
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0, err
    assert "stopped; fixed 0, kept 0, rejected 0, left" in out and "Traceback" not in err


@pytest.mark.parametrize("extra, patch_text, message", [
    ([], None, "--name is required in the terminal"),
    (["--name", "../x"], None, "person name '../x' is not allowed"),
    (["--serve", "--port", "70000"], None, "--port 70000: expected 0-65535"),
    (["--serve"], '{"id": "a", "action": "reject"}\n{"id": "b"}\n', "repairs.jsonl:2: expected {\"id\", \"action\""),
    (["--name", "ann"], '{"id": "a", "action": "keep", "was": "Es ist klar.", "reference": "Es ist unklar."}\n',
     "repairs.jsonl:1: a keep leaves the reference as it is, but this one has a changed text"),
    (["--name", "ann"], '{"id": "a", "action": "fix", "was": "x", "reference": "Es ist \\u001b[2J klar."}\n',
     "repairs.jsonl:1: the corrected reference holds the control character U+001B"),
])
def test_bad_input_is_exit_2(tmp_path, john_file, extra, patch_text, message):
    patch = tmp_path / "repairs.jsonl"
    if patch_text is not None:
        patch.write_text(patch_text, encoding="utf-8")
    program, argv = arena_command("repair", "--john", str(john_file), "--zellig", "np-agreement", "--patch", str(patch),
                                  *extra)
    done = subprocess.run([program, *argv], env=arena_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_terminal_keys_keep_fix_reject_and_a_refused_fix(tmp_path, monkeypatch, capsys):
    from arena.cli.repair import review_in_terminal
    from arena.people.repairs import RepairReview, read_repairs
    from tests.arena.people.test_repairs import flagged

    review = RepairReview(tmp_path / "repairs.jsonl", flagged(4))
    keys, edits = iter(["k", "f", "f", "r"]), iter(["\u200b\u200b", "Es ist unklar 2."])
    monkeypatch.setattr("arena.cli.play.read_key", lambda prompt: next(keys))
    monkeypatch.setattr("arena.cli.play.edit_line", lambda prompt, text: next(edits))
    assert review_in_terminal(review, "ann", str(review.patch)) == 0
    out = capsys.readouterr().out
    assert "not saved: the corrected reference is empty or holds only invisible characters" in out
    assert "fixed 1, kept 1, rejected 1, skipped 1" in out
    assert {key: r["action"] for key, r in read_repairs(review.patch).items()} == \
        {"set.0": "keep", "set.2": "fix", "set.3": "reject"}
