"""Manual repair of flagged machine references: applying the patch file in the
mt-reference John, and ``arena repair`` in a pseudo-terminal (the patch file and the
review itself: tests/arena/people/test_repairs.py)."""

from __future__ import annotations

from collections import Counter

import pexpect
import pytest

from arena.formats.repairs import read_repairs
from arena.people.repairs import repair_record, write_once
from arena.records import Instance
from performers.john.repairs import apply_repairs
from tests.arena.people.helpers import arena_command, arena_env

MT = Instance("set.1", "It is unclear.", "Es ist klar.", {"human_reference": "Es ist unklar."})
OTHER = Instance("set.2", "Yes.", "Ja.", {})


@pytest.mark.parametrize("action,reference,was,expected,count", [
    ("fix", "Es ist unklar.", None, "Es ist unklar.", "fixed"),
    ("reject", None, None, None, "rejected"),
    ("keep", None, None, "Es ist klar.", "kept"),
    ("keep", "Es ist klar.", None, "Es ist klar.", "kept"),  # the text unchanged: a keep all the same
    ("fix", "Es ist unklar.", "Es war klar.", "Es ist klar.", "stale"),  # must not fire: another translation
])
def test_apply_repairs(tmp_path, action, reference, was, expected, count):
    patch = tmp_path / "repairs.jsonl"
    record, written = write_once(patch, repair_record(MT, action, "ann", reference))
    assert written
    assert record["was"] == "Es ist klar." and record["reviewer"] == "ann"
    repairs = read_repairs(patch)
    if was is not None:
        repairs["set.1"] = {**repairs["set.1"], "was": was}
    counts: Counter[str] = Counter()
    result = {i.id: i for i in apply_repairs([MT, OTHER], repairs, counts)}
    assert result["set.2"] == OTHER and counts == Counter({count: 1})
    assert (result["set.1"].reference if "set.1" in result else None) == expected
    if count == "fixed":
        assert result["set.1"].meta["repaired"] and result["set.1"].meta["unrepaired_reference"] == "Es ist klar."
    if count == "kept":
        assert result["set.1"].meta == {**MT.meta, "reviewed": "kept"} and "reference" not in record
    elif "set.1" in result:
        assert "reviewed" not in result["set.1"].meta  # must not fire: only a keep marks it


def test_a_keep_with_a_changed_text_is_refused(tmp_path):
    from arena.errors import DataError, UsageError

    with pytest.raises(UsageError, match="a keep leaves the reference as it is"):
        repair_record(MT, "keep", "ann", "Es ist unklar.")
    patch = tmp_path / "repairs.jsonl"
    patch.write_text('{"id": "set.1", "action": "keep", "was": "Es ist klar.", "reference": "Es ist unklar."}\n',
                     encoding="utf-8")
    with pytest.raises(DataError, match="changed text") as caught:
        read_repairs(patch)
    assert caught.value.line == 1 and caught.value.key == "reference"


def test_repair_in_a_terminal_then_the_john_applies_it(tmp_path, data_dir):
    import yaml

    from arena.specs.registry import build
    from arena.specs.spec import spec_from_mapping
    from performers.catalog import CATALOG

    params = {"john": {"name": "newstest", "params": {"dir": str(data_dir / "wmt" / "newstest"), "years": [2009],
                                                      "limit": 275}},
              "outputs": str(data_dir / "wmt" / "mt-outputs"), "progress": False}
    john_file = tmp_path / "mt.yaml"
    john_file.write_text(yaml.safe_dump({"name": "mt-reference", "params": params}), encoding="utf-8")
    patch = tmp_path / "repairs.jsonl"
    program, argv = arena_command("repair", "--john", str(john_file), "--zellig", "polarity-affix-del",
                                  "--patch", str(patch), "--name", "ann")
    child = pexpect.spawn(program, argv, env=arena_env(), encoding="utf-8", timeout=300, dimensions=(50, 400))
    child.expect(r"(\d+) flagged references to review")
    assert int(child.match.group(1)) >= 1
    child.expect(r"\[1/\d+\] (\S+)\r\n")
    instance_id = child.match.group(1)
    child.expect("flagged: polarity_affix_del")
    child.expect(r"\[f/k/r/s/q\] ")
    child.send("f")
    child.expect("fixed:   ")
    child.send("\x15Eine von Hand reparierte Referenz.\r")
    child.expect("  fixed")
    child.sendintr()
    child.expect("fixed 1, kept 0, rejected 0")
    child.expect(pexpect.EOF)
    child.close()
    (record,) = read_repairs(patch).values()
    assert record["id"] == instance_id and record["action"] == "fix" and record["reviewer"] == "ann"

    john = build("john", spec_from_mapping({"name": "mt-reference", "params": {**params, "repairs": str(patch)}}, "x"),
                 CATALOG)
    repaired = {i.id: i for i in john.instances()}[instance_id]
    assert repaired.reference == "Eine von Hand reparierte Referenz." and repaired.meta["repaired"]
    assert john.report["repairs"] == {"fixed": 1}
