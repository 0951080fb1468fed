"""The constructor most German Zelligs share: an analysis backend and, optionally, the
training corpus whose counts give LingEval97's ``frequency`` metadata."""

from __future__ import annotations

from arena.sdk import ExistingFile
from performers.german.analysis import DEFAULT_BACKEND
from performers.german.frequency import training_counts


class GermanZellig:
    """Base of Zelligs that read the shared German analysis.

    ``training_corpus``: a German text file (one sentence per line) whose word counts
    become the ``frequency`` of variants, as LingEval97's "frequency in training data";
    without it only wordfreq's ``zipf_frequency`` is recorded.  ``backend``: the
    analysis backend (see :mod:`performers.german.analysis`).
    """

    version = "1"

    def __init__(self, training_corpus: ExistingFile | None = None, backend: str = DEFAULT_BACKEND) -> None:
        self.backend = backend
        self.counts = training_counts(training_corpus)
