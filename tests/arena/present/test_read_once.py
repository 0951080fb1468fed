"""The report path reads a run's transcripts once (it read rounds.jsonl four times before)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from arena.present import tidy
from arena.present.report import write_reports
from arena.record import transcripts
from arena.record.run_dir import RunDir
from tests.arena.stats.runs import finished_run


def test_report_and_exports_read_each_transcript_once(tmp_path, distil_dir, monkeypatch):
    run_dir = finished_run(tmp_path, distil_dir)
    reads: Counter = Counter()
    original = RunDir.lines

    def counting(self: RunDir, name: str):
        reads[Path(name).name] += 1
        return original(self, name)

    monkeypatch.setattr(RunDir, "lines", counting)  # a run's records are read through its RunDir, verified
    write_reports([run_dir], plots=False)
    assert reads[transcripts.ROUNDS] == 1 and reads[transcripts.JUDGEMENTS] == 1
    reads.clear()
    tidy.tables(run_dir)
    assert reads[transcripts.ROUNDS] == 1 and reads[transcripts.JUDGEMENTS] == 1
