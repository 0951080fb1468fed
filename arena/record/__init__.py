"""The record stage: what a run writes and how it is read back, below both the engine
(which writes it) and the statistics (which read it).

- :mod:`arena.record.rounds`: the records of the transcripts (:class:`Round`,
  :class:`JudgementRecord`, :class:`OneBest`) and the statuses and resolutions they carry;
- :mod:`arena.record.scoring_rule`: a scoring Claude's score → judgement rule and its conventions;
- :mod:`arena.record.order`: the blocks rounds fall into and the Claude models that judge them,
  i.e. the order of ``judgements.jsonl``;
- :mod:`arena.record.transcripts`: the file names, JSON lines and atomic writes;
- :mod:`arena.record.store`: the run directory as the engine keeps it (lock, plan, cells);
- :mod:`arena.record.scan`: the transcripts read one line at a time, indexed as columns;
- :mod:`arena.record.verify`: a run's transcripts verified before anything reads them;
- :mod:`arena.record.manifest`: ``manifest.json`` as the pydantic :class:`Manifest`.
"""
