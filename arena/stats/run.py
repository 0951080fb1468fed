"""A run directory read once into memory: its records, the people's judgements, the signature.

Everything derived from a finished run in memory — the leaderboards
(:mod:`arena.stats.leaderboards`), the reports and exports (:mod:`arena.present`,
:mod:`arena.present.tidy`) — starts from one :class:`RunData`, the run's
:class:`~arena.record.run_dir.RunDir` (verified, then read once) with the people who judged
its rounds, so the report path reads ``rounds.jsonl`` and ``judgements.jsonl`` once, and
every place prints the one signature of :func:`arena.specs.signature.run_signature`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from arena.codec import dump
from arena.record.manifest import Manifest
from arena.record.rounds import JudgementRecord, OneBest, Round
from arena.record.run_dir import RunDir
from arena.stats.aggregate import Outcome, join


@dataclass(frozen=True)
class RunData:
    """The records of one run directory, as read from disk."""

    record: RunDir
    people: tuple[JudgementRecord, ...] = ()  # people who judged its rounds (RUN/people/)

    @classmethod
    def open(cls, run_dir: str | Path, finished: bool = False) -> RunData:
        """A run directory (finished or not; ``finished``: a usage error unless it has
        ``scores.json``) read once, verified first: a damaged run is a
        :class:`~arena.errors.DataError` naming file and line (:mod:`arena.record.verify`)."""
        from arena.record import people_store as store

        record = RunDir.open(run_dir, finished=finished)
        return cls(record, tuple(store.read_judgements(record.path)))

    @property
    def run_dir(self) -> Path:
        return self.record.path

    @property
    def manifest(self) -> Manifest:
        return self.record.manifest

    @property
    def rounds(self) -> tuple[Round, ...]:
        return self.record.rounds

    @property
    def judgements(self) -> tuple[JudgementRecord, ...]:
        """The Claudes' (``judgements.jsonl``)."""
        return self.record.judgements

    @property
    def one_bests(self) -> tuple[OneBest, ...]:
        return self.record.one_bests

    @property
    def experiment(self) -> dict[str, Any]:
        return self.manifest.experiment

    @property
    def ties(self) -> str:
        return self.experiment.get("contrastive_ties", "wrong")

    @property
    def samples(self) -> int:
        return int(self.experiment.get("bootstrap_samples", 1000))

    @cached_property
    def signature(self) -> str:
        """The run's one-line signature (:func:`arena.specs.signature.run_signature`)."""
        from arena.specs.signature import run_signature

        return run_signature(self.manifest.dump(), (dump(r) for r in self.rounds))

    @cached_property
    def outcomes(self) -> dict[str, list[Outcome]]:
        """Outcomes per Claude of the rounds that count toward S (a game: evaluation rounds),
        in config order, then the people who judged and their majority vote (``human``)."""
        from arena.stats import agreement

        judgements = [*self.judgements, *self.people, *agreement.majority_vote(self.rounds, self.people)]
        return dict(join(self.rounds, judgements, self.one_bests, counted_only=True))
