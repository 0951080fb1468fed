"""RunDir, the one reader of a run: verified before anything is read, the same records streamed or
in memory, each transcript line decoded at most twice while the run is verified and scored, and a
round the scores cannot read refused as damage (not a traceback)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from arena.api import finish, load_run
from arena.codec import dump
from arena.engine.core import RunResult
from arena.errors import DataError, UsageError
from arena.record import run_dir as run_dir_module
from arena.record import transcripts
from arena.record.rounds import JudgementRecord, Round
from arena.record.run_dir import RunDir
from arena.stats.results import Scores
from tests.arena.stats.runs import GAME, finished_run


def kind(record: object) -> str:
    if isinstance(record, Round):
        return transcripts.ROUNDS
    if isinstance(record, JudgementRecord):
        return transcripts.JUDGEMENTS
    if isinstance(record, dict) and "instance" in record:
        return transcripts.ROUNDS
    if isinstance(record, dict) and "resolved_by" in record:
        return transcripts.JUDGEMENTS
    if isinstance(record, dict) and "translation" in record:
        return transcripts.ONEBEST
    return "other"


def lines(run_dir: Path, name: str) -> int:
    if not (run_dir / name).exists():
        return 0
    return sum(1 for line in (run_dir / name).read_text(encoding="utf-8").splitlines() if line.strip())


@pytest.mark.parametrize("extra", ["", GAME])
def test_each_line_is_decoded_at_most_twice_while_the_run_is_verified_and_scored(tmp_path, distil_dir, monkeypatch,
                                                                                  extra):
    run_dir = finished_run(tmp_path, distil_dir, extra)
    written = (run_dir / transcripts.SCORES).read_bytes()
    (run_dir / transcripts.SCORES).unlink()
    decoded: Counter[str] = Counter()

    def counting(loads):
        def decode(text, *args, **kwargs):
            record = loads(text, *args, **kwargs)
            decoded[kind(record)] += 1
            return record
        return decode

    loads = json.loads
    # the lines' decoders: to JSON values (transcripts.loads, json's where it is called) and straight to a
    # record (arena.codec.loads, as the run reader binds it)
    with monkeypatch.context() as patched:
        patched.setattr(json, "loads", counting(json.loads))
        patched.setattr(transcripts, "loads", counting(transcripts.loads))
        patched.setattr(run_dir_module, "loads", counting(run_dir_module.loads))
        record = RunDir(run_dir)
        result = finish(RunResult(run_dir), record)
        record.verify()  # what arena.api.run hands out: verified already, not read again
    assert json.loads is loads
    assert (run_dir / transcripts.SCORES).read_bytes() == written  # the same scores.json as the run wrote
    # the typed scores finish() derived are kept, and scores.json is written from them by the one serialiser
    assert isinstance(result.scores, Scores)
    assert (json.dumps(dump(result.scores), ensure_ascii=False, indent=2) + "\n").encode("utf-8") == written
    for name in (transcripts.ROUNDS, transcripts.JUDGEMENTS, transcripts.ONEBEST):
        assert 0 < decoded[name] <= 2 * lines(run_dir, name), (name, decoded)


def test_the_records_are_the_same_streamed_and_in_memory(tmp_path, distil_dir):
    run_dir = finished_run(tmp_path, distil_dir, GAME)
    run = RunDir.open(run_dir, finished=True)
    for name, records in ((transcripts.ROUNDS, run.rounds), (transcripts.JUDGEMENTS, run.judgements),
                          (transcripts.ONEBEST, run.one_bests)):  # read back and written again: the same bytes
        assert "".join(transcripts.dumps_line(dump(r)) for r in records) == (run_dir / name).read_text("utf-8")
    assert len(run.observations) == lines(run_dir, transcripts.OBSERVATIONS)
    judged = list(run.judged())
    assert all(j.round == r.id for r, js in judged for j in js)  # each judgement with its own round
    for label, _ in run.models():  # each model's judgements in its own order, none left out
        assert [j for _, js in judged for j in js if j.claude == label] == \
            [j for j in run.judgements if j.claude == label]
    assert sum(len(js) for _, js in judged) == lines(run_dir, transcripts.JUDGEMENTS)
    assert [label for label, _ in run.models()] == ["nmt", "chance"]
    assert run.cells() and all(path.parent.name == "cells" for path in run.cells())
    typed = load_run(run_dir).scores  # read and validated by pydantic; dump() gives the JSON values back
    written = json.loads((run_dir / transcripts.SCORES).read_text(encoding="utf-8"))
    assert isinstance(typed, Scores) and json.loads(json.dumps(dump(typed))) == written


def _rewrite_round(run_dir: Path, change) -> None:
    """Change the first round of ``rounds.jsonl`` and record the changed file as the plan (damage that
    the plan's digest cannot see)."""
    path = run_dir / transcripts.ROUNDS
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    record = json.loads(lines[0])
    change(record)
    lines[0] = transcripts.dumps_line(record)
    path.write_text("".join(lines), encoding="utf-8")
    manifest = json.loads((run_dir / transcripts.MANIFEST).read_text(encoding="utf-8"))
    manifest["plan"]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (run_dir / transcripts.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.parametrize("change, refused", [
    (lambda record: None, False),  # intact: must not fire
    (lambda record: record["instance"].update(meta={"note": "x"}), False),  # a harmless change: must not fire
    (lambda record: record["instance"].pop("source"), True),  # the scores need each round's source
    (lambda record: record.pop("john"), True),
])
def test_a_round_the_scores_cannot_read_is_refused_naming_the_file(tmp_path, distil_dir, change, refused):
    run_dir = finished_run(tmp_path, distil_dir)
    (run_dir / transcripts.SCORES).unlink()
    _rewrite_round(run_dir, change)
    if refused:
        with pytest.raises(DataError) as error:
            finish(RunResult(run_dir))
        assert Path(error.value.file or "").name == transcripts.ROUNDS
        assert not (run_dir / transcripts.SCORES).exists()
    else:
        assert finish(RunResult(run_dir)).scores.cells


def test_an_unfinished_run_is_not_handed_out_as_finished(tmp_path, distil_dir):
    run_dir = finished_run(tmp_path, distil_dir)
    (run_dir / transcripts.SCORES).unlink()
    with pytest.raises(UsageError, match="not a finished run"):
        RunDir.open(run_dir, finished=True)
    assert not RunDir.open(run_dir).finished


def test_the_run_the_api_hands_out_carries_the_scores_it_derived(tmp_path, distil_dir, monkeypatch):
    from arena import api
    from arena.stats import results
    from tests.arena.stats.runs import CONFIG

    config = tmp_path / "typed.yaml"
    config.write_text(CONFIG.format(distil=distil_dir, extra=""), encoding="utf-8")
    played = api.run(config, out=tmp_path / "runs", report=False)
    written = results.read_scores(played.run_dir)
    with monkeypatch.context() as patched:  # handed on, not read back from scores.json
        patched.setattr(results, "read_scores", lambda *args: pytest.fail("scores.json was read again"))
        assert played.scores == written and played.signature == written.signature
    again = api.run(config, out=tmp_path / "runs", report=False)  # finished: loaded, its scores read once
    assert again.already_finished and again.scores == written
