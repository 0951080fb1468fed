"""The report path reads a run's transcripts once (it read rounds.jsonl four times before)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from arena.formats import tidy
from arena.present.report import write_reports
from arena.record import transcripts, verify
from tests.arena.stats.runs import finished_run


def test_report_and_exports_read_each_transcript_once(tmp_path, distil_dir, monkeypatch):
    run_dir = finished_run(tmp_path, distil_dir)
    reads: Counter = Counter()
    originals = {module: module.read_jsonl if module is transcripts else module.read_lines
                 for module in (transcripts, verify)}

    def counting(module):
        def read(path: Path):
            reads[Path(path).name] += 1
            return originals[module](path)
        return read

    monkeypatch.setattr(transcripts, "read_jsonl", counting(transcripts))
    monkeypatch.setattr(verify, "read_lines", counting(verify))  # a run is read verified
    write_reports([run_dir], plots=False)
    assert reads[transcripts.ROUNDS] == 1 and reads[transcripts.JUDGEMENTS] == 1
    reads.clear()
    tidy.tables(run_dir)
    assert reads[transcripts.ROUNDS] == 1 and reads[transcripts.JUDGEMENTS] == 1
