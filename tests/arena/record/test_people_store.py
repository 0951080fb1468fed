"""People's transcripts: safe names, paths inside the run, one record per key."""

from __future__ import annotations

import threading

import pytest

from arena.record import people_store as store


@pytest.mark.parametrize("name", ["ann", "Ann-2", "x_y", "a" * 32, "0"])
def test_safe_names_are_kept(tmp_path, name):
    assert store.check_name(name) == name
    assert store.person_dir(tmp_path, name) == (tmp_path / "people" / name).resolve()


@pytest.mark.parametrize("name", ["../../x", "..", ".", "a/b", "/etc", "", " ann", "a" * 33, "_a", "Jürgen", None, 3])
def test_unsafe_names_are_refused(tmp_path, name):
    with pytest.raises(ValueError, match="is not allowed"):
        store.person_dir(tmp_path, name)


def record(round_id: str, choice: int) -> dict:
    return {"round": round_id, "claude": "person:ann", "choice": choice, "claude_choice": choice,
            "resolved_by": "claude", "correct": True, "scores": None}


def test_write_once_keeps_the_first_record(tmp_path):
    file = store.judgement_file(tmp_path, "ann")
    assert file.write_once(record("r1", 0)) == (record("r1", 0), True)
    assert file.write_once(record("r1", 1)) == (record("r1", 0), False)
    assert file.write_once(record("r2", 1))[1]
    assert list(file.read()) == ["r1", "r2"]
    assert [r.round for r in store.read_judgements(tmp_path)] == ["r1", "r2"]


def test_a_person_file_is_replaced_whole_and_a_broken_one_is_named(tmp_path):
    file = store.judgement_file(tmp_path, "ann")
    file.write_once(record("r1", 0))
    inode = file.path.stat().st_ino
    file.write_once(record("r2", 1))
    assert file.path.stat().st_ino != inode  # a new file renamed into place, never an append
    assert not list(file.directory.glob("*.partial"))
    with open(file.path, "a", encoding="utf-8") as handle:
        handle.write('{"round": "r3", "cla\n')  # edited by hand
    with pytest.raises(ValueError, match=r"judgements.jsonl:3: malformed JSON line"):
        file.write_once(record("r3", 0))


def test_threads_racing_on_one_key_write_it_once(tmp_path):
    file = store.judgement_file(tmp_path, "ann")
    results = []
    threads = [threading.Thread(target=lambda i=i: results.append(file.write_once(record(f"r{i % 3}", i % 2))))
               for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(written for _, written in results) == 3
    assert file.path.read_text(encoding="utf-8").count("\n") == 3


def test_a_foreign_label_in_a_person_file_is_an_error(tmp_path):
    file = store.judgement_file(tmp_path, "ann")
    file.write_once({**record("r1", 0), "claude": "toy"})
    with pytest.raises(ValueError, match="not of 'person:ann'"):
        store.read_judgements(tmp_path)
