"""People as Zellig with the model in the loop: live scores (arena/people/live.py), checks by a
second person (arena/people/checks.py), and `arena play --as zellig --live` in a pseudo-terminal."""

from __future__ import annotations

import pexpect
import pytest

from arena.codec import dump
from arena.people import checks
from arena.people.live import LiveScorer
from arena.people.session import ZelligSession
from arena.specs.spec import parse_spec
from performers.catalog import CATALOG
from tests.arena.people.helpers import arena_command, arena_env, planned, write_config

SOURCE = "The train arrives at the station."
REFERENCE = "Der Zug kommt am Bahnhof an."


@pytest.fixture(scope="module")
def scorer():
    return LiveScorer([parse_spec("toy-en-de:cache=false,progress=false"), parse_spec("random")], CATALOG)


@pytest.mark.parametrize("text,phenomenon,detected", [
    ("Der Zug kommt am Ding an.", "placeholder_ding", True),
    ("Der Zug kommt am Bahnhöfe an.", "placeholder_ding", False),   # must not fire: no Ding
    ("Der Zug kommt am Bahnhöfe an.", "own_label", None),          # no detector for a new label
])
def test_live_scores_fooled_and_detector(scorer, text, phenomenon, detected):
    result = scorer.evaluate(SOURCE, REFERENCE, text, phenomenon)
    (toy,) = result["claudes"]  # random has no scores: not live
    assert toy["claude"].startswith("toy-en-de") and toy["fooled"] == (not toy["edit"] < toy["reference"])
    assert result["detector"] is detected


def test_unchanged_text_fools_nobody_and_gets_no_verdict(scorer):
    result = scorer.evaluate(SOURCE, REFERENCE, REFERENCE, "placeholder_ding")
    assert result["detector"] is None and result["claudes"][0]["fooled"]  # equal scores: not below


def test_checks_and_agreement(tmp_path, distil_dir):
    _, run_dir, rounds = planned(write_config(tmp_path, distil_dir), tmp_path / "runs")
    ann = ZelligSession(run_dir, "ann", rounds)
    first, second = ann.targets[:2]
    for target in (first, second):
        ann.corrupt(target, target.instance.reference + " Ding.", "placeholder_ding", 1.0)
    record = ann.done()[first.instance.id]
    assert record["author"] == "ann" and record["time"].endswith("Z")
    assert checks.next_to_check(run_dir, "ann") is None  # must not fire: nobody checks their own
    with pytest.raises(ValueError, match="their own"):
        checks.record_check(run_dir, "ann", "ann", first.instance.id, True)
    assert checks.next_to_check(run_dir, "bob")["instance"]["id"] == first.instance.id
    checks.record_check(run_dir, "bob", "ann", first.instance.id, True)
    checks.record_check(run_dir, "bob", "ann", second.instance.id, False)
    assert checks.record_check(run_dir, "bob", "ann", second.instance.id, True)[1] is False  # first verdict stands
    checks.record_check(run_dir, "cy", "ann", first.instance.id, True)
    checks.record_check(run_dir, "cy", "ann", second.instance.id, True)
    result = checks.agreement(run_dir)
    assert result["checks"] == 4 and result["accepted"] == 3 / 4 and result["by_author"]["ann"]["checks"] == 4
    assert result["checker_pairs"] == 2 and result["checker_agreement"] == 1 / 2
    with pytest.raises(ValueError, match="no corruption"):
        checks.record_check(run_dir, "bob", "ann", "no-such-instance", True)


def test_play_zellig_live_in_a_terminal(tmp_path, distil_dir):
    config = write_config(tmp_path, distil_dir, claudes="[toy-en-de, random]")
    program, argv = arena_command("play", str(config), "--as", "zellig", "--name", "zed", "--out",
                                  str(tmp_path / "runs"), "--no-progress", "--live", "--rounds", "1")
    child = pexpect.spawn(program, argv, env=arena_env(), encoding="utf-8", timeout=120, dimensions=(50, 200))
    child.expect(r"reference: (.+?)\r\n")
    reference = child.match.group(1)
    child.expect("corrupted: ")
    words = reference.split(" ")
    child.send("\x15" + " ".join([*words[:-1], "Ding."]) + "\r")
    child.expect(r"phenomenon \(number or new label\): ")
    child.send("placeholder_ding\r")
    child.expect(r"toy-en-de: reference -\d+\.\d+, edit -\d+\.\d+ → (FOOLED|not fooled)")
    child.expect("detector: the edit shows the phenomenon")
    child.expect("recorded: ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_replay_config_names_its_test_set_relative_to_itself(tmp_path, distil_dir, monkeypatch):
    import yaml

    monkeypatch.chdir(tmp_path)
    experiment, run_dir, rounds = planned(write_config(tmp_path, distil_dir), tmp_path / "runs")
    ann = ZelligSession(run_dir, "ann", rounds)
    target = ann.targets[0]
    ann.corrupt(target, target.instance.reference + " Ding.", "placeholder_ding", 1.0)
    config = ann.export(dump(experiment))
    stored = yaml.safe_load(config.read_text(encoding="utf-8"))
    path = stored["johns"][0]["params"]["path"]
    assert path == "testset.json" and (config.parent / path).is_file()  # no absolute path in a stored file
    assert stored["relative_paths"] == "config"
