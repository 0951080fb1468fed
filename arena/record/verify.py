"""A run directory's transcripts, verified before anything reads them.

Every verb that reads a run (``score``, ``leaderboard``, ``report``, ``export``, ``show``,
``false-positives``, ``compare-johns``; the library's :func:`arena.api.load_run`) reads it
through :class:`arena.record.run_dir.RunDir`, which calls :func:`verify_run` first: a
damaged run is refused with a :class:`~arena.errors.DataError` naming the file, the line and what is
wrong, before anything is computed or written (``scores.json`` stays as it was):

- ``manifest.json`` must be a JSON object with the experiment it played;
- ``rounds.jsonl`` must match the plan the manifest records (round count and SHA-256),
  every round id must be unique and every round's seed one of the experiment's seeds;
- ``judgements.jsonl`` must hold exactly one judgement per judged round and Claude model,
  in the order the engine writes them: a duplicated line, a gap (a missing or emptied
  file, a cut tail), a judgement of an unknown round or Claude, or of a seed the Claude
  does not play (a foreign seed) is named by its line;
- ``onebest.jsonl`` lines must name a Claude of the run;
- where the manifest records what the run wrote (``written``: line count and SHA-256 of
  ``judgements.jsonl`` and ``onebest.jsonl``, recorded when the run finished), the files
  must still be those bytes, so an edit that keeps the structure is refused too.

A line cut in the middle (no JSON, or no final newline) is a damaged line as well.
``arena run`` on the same directory repairs what can be replayed: it re-assembles
``judgements.jsonl`` and ``onebest.jsonl`` from ``cells/`` and plays the cells that are
missing or damaged (:func:`arena.engine.core.run`).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.codec import load
from arena.errors import ArenaError, DataError
from arena.record import scan, transcripts
from arena.record.manifest import Manifest, Written
from arena.record.manifest import read as read_manifest
from arena.record.rounds import Round

if TYPE_CHECKING:
    from arena.specs.config import Experiment

logger = logging.getLogger(__name__)

# files whose line count and digest the manifest records when a run finishes
WRITTEN = (transcripts.JUDGEMENTS, transcripts.ONEBEST)
REPAIR = "re-run 'arena run' on the config to rebuild it from cells/, or delete the run directory"


@dataclass(frozen=True)
class Verified:
    """What verifying a run found: its manifest, the experiment it records, and the index of
    its judged rounds (the judgements' order, for the streamed aggregation)."""

    manifest: Manifest
    experiment: Experiment
    index: scan.RoundsIndex


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def written(run_dir: Path) -> dict[str, Written]:
    """Line count and SHA-256 of the files of :data:`WRITTEN` that exist, for the manifest."""
    result = {}
    for name in WRITTEN:
        path = Path(run_dir) / name
        if path.exists():
            result[name] = Written(lines=scan.count_lines(path), sha256=transcripts.file_sha256(path))
    return result


def read_lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """``(line number, record)`` of a JSON-lines file (none when it does not exist); a
    cut, malformed or non-object line is a :class:`DataError` naming file and line."""
    return [(number, record) for number, record, _ in scan.iter_lines(path)]


def load_manifest(run_dir: Path) -> Manifest:
    """A run's ``manifest.json``, checked (:func:`arena.record.manifest.read`)."""
    return read_manifest(Path(run_dir) / transcripts.MANIFEST)


def check_plan(run_dir: Path, manifest: Manifest) -> None:
    """``rounds.jsonl`` is the plan the manifest records (when it records one)."""
    plan = manifest.plan
    if plan is None:
        logger.warning("%s: records no plan (a run of an earlier arena); its rounds are not checked against one",
                       Path(run_dir) / transcripts.MANIFEST)
        return
    path = Path(run_dir) / transcripts.ROUNDS
    if transcripts.file_sha256(path) != plan.sha256:
        lines = scan.count_lines(path)
        line = min(lines, plan.rounds) + 1 if lines != plan.rounds else None
        raise DataError(
            f"does not match the plan recorded in {transcripts.MANIFEST} ({lines} rounds where the plan has "
            f"{plan.rounds}; the file was truncated or edited); delete {run_dir} to start the run over",
            file=path, line=line,
        )


def experiment_of(run_dir: Path, manifest: Manifest) -> Experiment:
    """The :class:`~arena.specs.config.Experiment` a run's manifest records; one that cannot be
    read is a :class:`DataError` naming the manifest."""
    from arena.specs.config import experiment_from_dict

    path = Path(run_dir) / transcripts.MANIFEST
    # the schedule is not needed (a game's rounds carry their blocks) and is recorded resolved
    data = {key: value for key, value in manifest.experiment.items() if key != "schedule"}
    try:
        return experiment_from_dict(data, str(path))
    except ArenaError as error:
        raise DataError(f"the experiment it records cannot be read ({error})", file=path, key="experiment") from None


def expected_judgements(experiment, rounds: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(round id, Claude label)`` of every judgement the engine writes, in its order."""
    from arena.record.order import blocks, models

    parsed = [load(Round, r) for r in rounds]
    the_blocks = blocks(experiment, parsed)
    return [(r.id, m.spec.label) for m in models(experiment) for b in the_blocks if b.seed in m.seeds for r in b.judged]


def check_rounds(path: Path, rounds: Sequence[tuple[int, dict[str, Any]]], seeds: Sequence[int]) -> None:
    seen: dict[Any, int] = {}
    for number, record in rounds:
        identifier = record.get("round")
        if identifier in seen:
            raise DataError(f"round {identifier!r} is given twice (first on line {seen[identifier]})",
                            file=path, line=number, key="round")
        seen[identifier] = number
        if record.get("seed") not in seeds:
            raise DataError(f"round {identifier!r} has seed {record.get('seed')!r}, which the run does not play "
                            f"(seeds: {', '.join(map(str, seeds))})", file=path, line=number, key="seed")


def check_judgements(
    path: Path, found: Sequence[tuple[int, dict[str, Any]]], expected: Sequence[tuple[str, str]],
    rounds: Mapping[str | None, dict[str, Any]], seeds_of: dict[str, set[int]],
) -> None:
    """One judgement per expected (round, Claude), in order; else name the first bad line."""
    keys = [(record.get("round"), record.get("claude")) for _, record in found]
    if keys == list(expected):
        return
    wanted = set(expected)
    seen: dict[tuple[Any, Any], int] = {}
    for (number, _), key in zip(found, keys):
        round_id, claude = key
        if key in seen:
            raise DataError(f"judgement of round {round_id!r} by {claude!r} is given twice (first on line "
                            f"{seen[key]}); {REPAIR}", file=path, line=number)
        seen[key] = number
        if key in wanted:
            continue
        if claude not in seeds_of:
            problem = f"names Claude {claude!r}, which is not in the run"
        elif round_id not in rounds:
            problem = f"judges round {round_id!r}, which is not in {transcripts.ROUNDS}"
        elif rounds[round_id].get("seed") not in seeds_of[claude]:
            problem = f"judges round {round_id!r} of seed {rounds[round_id].get('seed')}, which {claude} does not play"
        else:
            problem = f"judges round {round_id!r}, which is not judged (its status is {rounds[round_id].get('status')!r})"
        raise DataError(f"{problem}; {REPAIR}", file=path, line=number, key="round")
    missing = [key for key in expected if key not in seen]
    if missing:
        position = expected.index(missing[0])  # where the first missing judgement belongs
        line = found[position][0] if position < len(found) else (found[-1][0] + 1 if found else 1)
        raise DataError(f"{len(found)} judgements where the run has {len(expected)} (one per judged round and Claude; "
                        f"the one of round {missing[0][0]!r} by {missing[0][1]!r} is missing here): the file was cut, "
                        f"emptied or edited; {REPAIR}", file=path, line=line)
    first = next(number for (number, _), key, want in zip(found, keys, expected) if key != want)
    raise DataError(f"judgements out of the engine's order; {REPAIR}", file=path, line=first)


def check_written(run_dir: Path, manifest: Manifest) -> None:
    """The files the manifest records as written are still those bytes."""
    for name, entry in (manifest.written or {}).items():
        path = Path(run_dir) / name
        if transcripts.file_sha256(path) == entry.sha256:
            continue
        lines = scan.count_lines(path)
        line = min(lines, entry.lines) + 1 if lines != entry.lines else None
        raise DataError(f"is not what the run wrote ({lines} lines where it wrote {entry.lines}; the file was "
                        f"edited); {REPAIR}", file=path, line=line)


def verify_run(run_dir: str | Path, each_round: Callable[[dict[str, Any]], None] | None = None) -> Verified:
    """Verify a run directory (see the module docstring) in one streamed pass over each file,
    memory bounded by fixed-width columns (:mod:`arena.record.scan`); a damaged run is a
    :class:`DataError` naming file and line.  ``each_round`` is handed every record of
    ``rounds.jsonl`` in the same pass (so that a reader decodes each line once for both)."""
    run_dir = Path(run_dir)
    manifest = load_manifest(run_dir)
    check_plan(run_dir, manifest)
    rounds_path = run_dir / transcripts.ROUNDS
    try:
        experiment = experiment_of(run_dir, manifest)
    except DataError:
        for _ in scan.iter_lines(rounds_path):  # a damaged line of the rounds is named first
            pass
        raise
    rounds = scan.scan_rounds(rounds_path, experiment, each_round)
    judgements_path = run_dir / transcripts.JUDGEMENTS
    judging = judgements_path.exists() or transcripts.is_finished(run_dir)
    from arena.record.order import models

    labels = [(model.spec.label, model.seeds) for model in models(experiment)]
    if rounds.doubtful or (judging and not scan.judgements_match(judgements_path, rounds, labels)):
        _check_exactly(run_dir, experiment)  # names the damage (or finds a digest collision harmless)
    if rounds.unreadable is not None:
        line, error = rounds.unreadable
        raise DataError(f"a round cannot be read ({type(error).__name__}: {error}); delete {run_dir} to start the "
                        "run over", file=rounds_path, line=line)
    one_best_path = run_dir / transcripts.ONEBEST
    known = {claude.label for claude in experiment.claudes}
    for number, record, _ in scan.iter_lines(one_best_path):
        if record.get("claude") not in known:
            raise DataError(f"names Claude {record.get('claude')!r}, which is not in the run; {REPAIR}",
                            file=one_best_path, line=number, key="claude")
    check_written(run_dir, manifest)
    return Verified(manifest, experiment, rounds)


def _check_exactly(run_dir: Path, experiment: Any) -> None:
    """The rounds and judgements checked with every record in memory, naming the first damaged line."""
    rounds_path = run_dir / transcripts.ROUNDS
    rounds = read_lines(rounds_path)
    check_rounds(rounds_path, rounds, experiment.seeds)
    judgements_path = run_dir / transcripts.JUDGEMENTS
    judgements = read_lines(judgements_path)
    if judgements_path.exists() or transcripts.is_finished(run_dir):
        from arena.record.order import models

        by_id = {record.get("round"): record for _, record in rounds}
        seeds_of: dict[str, set[int]] = {}
        for model in models(experiment):
            seeds_of.setdefault(model.spec.label, set()).update(model.seeds)
        try:
            expected = expected_judgements(experiment, [record for _, record in rounds])
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(f"a round cannot be read ({type(error).__name__}: {error}); delete {run_dir} to start the "
                            "run over", file=rounds_path) from None
        check_judgements(judgements_path, judgements, expected, by_id, seeds_of)


def repair(run_dir: Path) -> bool:
    """Before ``arena run`` resumes a finished run: when its judgements or 1-best
    translations are damaged (but the plan is intact), remove them and ``scores.json``,
    so that the engine re-assembles them from ``cells/`` (replaying the cells that are
    missing or damaged) and scores the run again.  Returns whether anything was removed;
    damage that cannot be replayed is raised."""
    run_dir = Path(run_dir)
    try:
        verify_run(run_dir)
    except DataError as damage:
        if damage.file is None or Path(damage.file).name not in WRITTEN:
            raise
        logger.warning("%s; repairing: %s and %s are rebuilt from %s/", damage, transcripts.JUDGEMENTS,
                       transcripts.SCORES, "cells")
        for name in (*WRITTEN, transcripts.SCORES):
            (run_dir / name).unlink(missing_ok=True)
        return True
    return False
