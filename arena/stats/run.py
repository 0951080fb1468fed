"""A run directory read once: manifest, transcripts, the people's judgements, the signature.

Everything derived from a finished run — ``scores.json`` (:mod:`arena.stats.metrics`),
the leaderboards (:mod:`arena.stats.leaderboards`), the reports and exports
(:mod:`arena.present`, :mod:`arena.formats.tidy`) — starts from one :class:`RunData`,
so the report path reads ``rounds.jsonl`` and ``judgements.jsonl`` once, and every
place prints the one signature of :func:`arena.specs.signature.run_signature`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from arena.errors import UsageError
from arena.record import transcripts
from arena.record.rounds import JudgementRecord, OneBest, Round
from arena.stats.aggregate import Outcome, join


@dataclass(frozen=True)
class RunData:
    """The records of one run directory, as read from disk."""

    run_dir: Path
    manifest: dict[str, Any]
    rounds: tuple[Round, ...]
    judgements: tuple[JudgementRecord, ...]  # the Claudes' (judgements.jsonl)
    one_bests: tuple[OneBest, ...]
    people: tuple[JudgementRecord, ...] = ()  # people who judged its rounds (RUN/people/)

    @property
    def experiment(self) -> dict[str, Any]:
        return self.manifest["experiment"]

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

        return run_signature(self.manifest, (r.to_json() for r in self.rounds))

    @cached_property
    def outcomes(self) -> dict[str, list[Outcome]]:
        """Outcomes per Claude of the rounds that count toward S (a game: evaluation rounds),
        in config order, then the people who judged and their majority vote (``human``)."""
        from arena.people import agreement

        judgements = [*self.judgements, *self.people, *agreement.majority_vote(self.rounds, self.people)]
        return dict(join(self.rounds, judgements, self.one_bests, counted_only=True))


def load_run(run_dir: Path) -> RunData:
    """Read a run directory (finished or not) once, verified first: a damaged run is a
    :class:`~arena.errors.DataError` naming file and line (:mod:`arena.record.verify`)."""
    from arena.people import store
    from arena.record.verify import load_run as load_verified

    run_dir = Path(run_dir)
    run = load_verified(run_dir)
    return RunData(
        run_dir=run_dir,
        manifest=run.manifest,
        rounds=tuple(Round.from_json(r) for r in run.rounds),
        judgements=tuple(JudgementRecord.from_json(j) for j in run.judgements),
        one_bests=tuple(OneBest.from_json(o) for o in run.one_bests),
        people=tuple(store.read_judgements(run_dir)),
    )


def load_finished(run_dir: Path) -> RunData:
    """:func:`load_run` of a finished run (one with ``scores.json``); a usage error otherwise."""
    if not transcripts.is_finished(Path(run_dir)):
        raise UsageError(f"{run_dir}: not a finished run (no {transcripts.SCORES}); finish or resume it first")
    return load_run(run_dir)
