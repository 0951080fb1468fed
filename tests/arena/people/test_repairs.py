"""The review of flagged machine references (arena/people/repairs.py): the patch file
(read with errors naming line and key, written once per id under a lock, atomically),
what a decision must be, and who gets which reference next."""

from __future__ import annotations

import json
import multiprocessing
import threading

import pytest

from arena.errors import DataError, UsageError
from arena.formats.repairs import Flag, Flagged, read_repairs
from arena.people.repairs import RepairReview, repair_record, write_once
from arena.records import Instance


def flagged(n: int) -> list[Flagged]:
    return [Flagged(Instance(f"set.{i}", f"It is unclear {i}.", f"Es ist klar {i}.",
                             {"human_reference": f"Es ist unklar {i}."}), (Flag("polarity_affix_del", "unklar → klar"),))
            for i in range(n)]


@pytest.mark.parametrize("line,key", [
    ("not json", None), ("[" * 100_000, None), ('{"id": "x", "action": "burn"}', "action"),
    ('{"id": 3, "action": "reject"}', "action"), ('{"id": "x", "action": "fix"}', "reference"),
    ('{"id": "x", "action": "fix", "reference": " "}', "reference"),
    ('{"id": "x", "action": "fix", "reference": "Es ist\\u001b[2J klar."}', "reference"),
    ('{"id": "x", "action": "fix", "reference": "\\u200b"}', "reference"),
    ('{"id": "x", "action": "keep", "was": "Es ist klar.", "reference": "Es ist unklar."}', "reference"),
])
def test_bad_patch_lines_name_line_and_key(tmp_path, line, key):
    patch = tmp_path / "repairs.jsonl"
    patch.write_text(json.dumps({"id": "a", "action": "reject"}) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_repairs(patch)
    assert caught.value.line == 2 and caught.value.key == key and caught.value.file == str(patch)


@pytest.mark.parametrize("action,reference,error", [
    ("fix", "Es ist unklar 0.", None),
    ("reject", None, None),
    ("fix", "  Es ist unklar 0.  ", None),  # must not fire: surrounding blanks are trimmed
    ("burn", None, "action"),
    ("fix", None, "reference"),
    ("fix", "   ", "reference"),
    ("fix", "Es ist klar 0.", "reference"),  # unchanged
    ("fix", "Es ist\nunklar.", "reference"),
    ("fix", "x" * 2001, "reference"),
    ("fix", "Es ist un\x00klar.", "reference"),       # NUL
    ("fix", "Es ist \x1b[2Junklar.", "reference"),    # ESC
    ("fix", "\u200b\u200b", "reference"),             # only zero-width spaces
    ("fix", "\u202eEs ist unklar.", "reference"),     # RTL override
    ("keep", None, None),
    ("keep", "Es ist klar 0.", None),                # the machine reference unchanged
    ("keep", " Es ist klar 0.\n", None),             # must not fire: blanks around it (a textarea)
    ("keep", "Es ist unklar 0.", "reference"),       # a keep with a changed text
])
def test_repair_record_checks_a_decision(action, reference, error):
    item = flagged(1)[0].instance
    if error is None:
        record = repair_record(item, action, "ann", reference)
        assert record["was"] == item.reference and record["reviewer"] == "ann" and record["time"].endswith("Z")
        assert record.get("reference") == (reference.strip() if reference and action == "fix" else None)
        return
    with pytest.raises(UsageError) as caught:
        repair_record(item, action, "ann", reference)
    assert caught.value.key == error


def test_repair_record_refuses_a_bad_name():
    with pytest.raises(UsageError):
        repair_record(flagged(1)[0].instance, "reject", "../etc")


def test_write_once_keeps_the_first_decision_and_what_was_there(tmp_path):
    patch = tmp_path / "sets" / "repairs.jsonl"
    patch.parent.mkdir()
    patch.write_text('{"id": "other", "action": "reject"}', encoding="utf-8")  # no final newline: a hand-edited file
    item = flagged(1)[0].instance
    first, written = write_once(patch, repair_record(item, "reject", "ann"))
    assert written
    second, written = write_once(patch, repair_record(item, "fix", "bob", "Es ist unklar 0."))
    assert not written and second == first
    assert list(read_repairs(patch)) == ["other", "set.0"]
    assert sorted(p.name for p in patch.parent.iterdir()) == [".repairs.jsonl.lock", "repairs.jsonl"]  # no leftovers


def _decide_all(patch: str, name: str, barrier) -> None:
    review = RepairReview(patch, flagged(20))
    barrier.wait()
    for item in review.items:
        review.decide(name, item.instance.id, "reject")


def test_two_people_at_once_threads_and_processes(tmp_path):
    """Two processes and two threads in each decide the same 20 references at once: every
    reference is decided exactly once and the file is whole."""
    patch = tmp_path / "repairs.jsonl"
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(4)
    workers = [context.Process(target=_decide_all, args=(str(patch), "ann", barrier)),
               context.Process(target=_decide_all, args=(str(patch), "bob", barrier)),
               threading.Thread(target=_decide_all, args=(str(patch), "cid", barrier)),
               threading.Thread(target=_decide_all, args=(str(patch), "dan", barrier))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    lines = patch.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20 and len({json.loads(line)["id"] for line in lines}) == 20


def test_next_holds_a_reference_for_its_reviewer():
    review = RepairReview("/nonexistent/repairs.jsonl", flagged(3))
    assert review.next_for("ann").instance.id == "set.0"
    assert review.next_for("ann").instance.id == "set.0"  # must not fire: still ann's
    assert review.next_for("bob").instance.id == "set.1"  # held for ann: bob gets another
    review.skip("bob", "set.1")
    assert review.next_for("bob").instance.id == "set.2"
    assert review.next_for("cid").instance.id == "set.1"  # bob's skip frees it for others
    expired = RepairReview("/nonexistent/repairs.jsonl", flagged(2), hold_seconds=0)
    assert expired.next_for("ann").instance.id == expired.next_for("bob").instance.id == "set.0"


def test_progress_skip_and_unskip(tmp_path):
    review = RepairReview(tmp_path / "repairs.jsonl", flagged(3))
    review.decide("ann", "set.0", "fix", "Es ist unklar 0.")
    review.decide("ann", "set.1", "reject")
    review.skip("ann", "set.2")
    assert review.next_for("ann") is None
    assert review.progress("ann") == {"total": 3, "fixed": 1, "kept": 0, "rejected": 1, "left": 1, "skipped": 1}
    review.unskip("ann")
    assert review.next_for("ann").instance.id == "set.2"
    assert RepairReview(tmp_path / "repairs.jsonl", flagged(3)).decided_before == 2
    with pytest.raises(UsageError):
        review.decide("ann", "set.9", "reject")


def test_a_stale_decision_is_reviewed_again(tmp_path):
    """A decision made on a machine reference that has changed since is neither in the way
    of a new one nor counted; one made on the same reference is (must not fire)."""
    patch = tmp_path / "repairs.jsonl"
    old = Instance("set.0", "It is unclear 0.", "Es war klar 0.", {})
    write_once(patch, repair_record(old, "reject", "ann"))
    review = RepairReview(patch, flagged(1))
    assert review.decided_before == 0 and review.next_for("bob").instance.id == "set.0"
    record, written = review.decide("bob", "set.0", "fix", "Es ist unklar 0.")
    assert written and read_repairs(patch)["set.0"] == record
    assert not review.decide("ann", "set.0", "reject")[1]
