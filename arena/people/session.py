"""What a person plays and how it is recorded; shared by ``arena play`` and ``arena serve``.

**Claude.** A person judges the run's planned rounds (``rounds.jsonl``) in plan order,
shown the source and the two candidates in the arena's order, exactly as a model
Claude gets them.  The answer is resolved by the arena's own rule
(:func:`arena.engine.match.resolve`): within the config's ``time_budget.claude_seconds_per_pair``
the person's choice stands; later, or with no choice, a seeded coin decides and the
record says so (``late`` / ``abstain``).  Rounds where the Zellig timed out are free
points for everyone and are recorded without being shown.  Each (round, person) is
written once; a second answer is refused and the first stands.

**Zellig.** A person corrupts each of the run's instances (the John's reference, with
its source): the edited text becomes a :class:`~arena.records.Variant` whose character
edits the arena derives (:func:`arena.edits.variant_from_text`), with the phenomenon
the person picks or types; an unchanged text records that no corruption applies.  The
corruptions are exported as a LingEval97 test set with a config that replays them
(``replay`` Zellig) against the run's Claudes beside its model Zelligs.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.codec import dump, load
from arena.edits import variant_from_text
from arena.engine import match
from arena.errors import UsageError
from arena.record import people_store as store
from arena.record import transcripts
from arena.record.manifest import Manifest
from arena.record.manifest import parse as parse_manifest
from arena.record.rounds import STATUS_ZELLIG_TIMEOUT, JudgementRecord, Round
from arena.records import Instance, Judgement
from arena.specs.yamlio import load_json

PHENOMENON_PATTERN = re.compile(r"[a-z0-9][a-z0-9_]{0,47}")


def read_rounds(run_dir: Path) -> list[Round]:
    path = Path(run_dir) / transcripts.ROUNDS
    if not path.exists():
        raise UsageError(f"{run_dir}: no {transcripts.ROUNDS}; plan the rounds first (arena play CONFIG does)")
    return [load(Round, r) for r in transcripts.read_jsonl(path)]


def read_manifest(run_dir: Path) -> Manifest:
    path = Path(run_dir) / transcripts.MANIFEST
    return parse_manifest(load_json(path), path)


class ClaudeSession:
    """One person judging a run's rounds; safe to share between threads."""

    def __init__(self, run_dir: Path, name: str, rounds: Sequence[Round], seconds_per_pair: float | None):
        self.run_dir = Path(run_dir)
        self.name = store.check_name(name)
        self.label = store.label(name)
        self.file = store.judgement_file(run_dir, name)
        self.rounds = [r for r in rounds if r.judged]
        self.by_id = {r.id: r for r in self.rounds}
        self.seconds_per_pair = seconds_per_pair

    def done(self) -> dict[str, dict[str, Any]]:
        return self.file.read()

    def progress(self) -> tuple[int, int]:
        """(rounds judged, rounds in the run)."""
        return len(self.done()), len(self.rounds)

    def next_round(self) -> Round | None:
        """The first round this person has not judged (free points are recorded on the way)."""
        done = self.done()
        for r in self.rounds:
            if r.id in done:
                continue
            if r.status == STATUS_ZELLIG_TIMEOUT:
                self.file.write_once(dump(match.resolve(r, self.label, None, False)))
                continue
            return r
        return None

    def answer(self, round_id: str, choice: int | None, seconds: float) -> tuple[dict[str, Any], bool]:
        """Record the person's answer (``None``: no answer) given after ``seconds``;
        return the record that stands and whether it was written now."""
        r = self.by_id.get(round_id)
        if r is None:
            raise KeyError(f"unknown round {round_id!r}")
        if choice is not None and (isinstance(choice, bool) or choice not in range(len(r.candidates or ()))):
            raise UsageError(f"choice {choice!r} is not a candidate index of round {round_id!r}")
        late = self.seconds_per_pair is not None and seconds > self.seconds_per_pair
        record = dump(match.resolve(r, self.label, Judgement(choice), late))
        record["seconds"] = round(float(seconds), 3)
        return self.file.write_once(record)


def _phenomenon(outcome: Any) -> str | None:
    return outcome.round.variant.phenomenon if outcome.round.variant is not None else None


def summary(run_dir: Path, name: str) -> dict[str, Any]:
    """A person's S with its CI and how rounds were resolved, S per phenomenon, and the
    run's model Claudes (once they have judged) and the other people on the same rounds."""
    from arena.codec import dump
    from arena.stats import aggregate
    from arena.stats.metrics import summarise

    run_dir = Path(run_dir)
    experiment = read_manifest(run_dir).experiment
    ties = experiment.get("contrastive_ties", "wrong")
    samples = int(experiment.get("bootstrap_samples", 1000))
    rounds = read_rounds(run_dir)
    mine = [load(JudgementRecord, r) for r in store.judgement_file(run_dir, name).read().values()]
    ids = {r.round for r in mine}
    own = aggregate.join(rounds, mine, []).get(store.label(name), [])
    result: dict[str, Any] = {"name": name, **dump(summarise(own, ties, samples))}
    result["phenomena"] = {
        phenomenon: {"rounds": len(items), "S": aggregate.Tally.of(items).rate()}
        for phenomenon, items in sorted(aggregate.group(own, _phenomenon).items())
    }
    others = [load(JudgementRecord, r) for r in transcripts.read_jsonl(run_dir / transcripts.JUDGEMENTS)]
    others += [r for r in store.read_judgements(run_dir) if r.claude != store.label(name)]
    comparison = []
    for claude, outcomes in aggregate.join(rounds, [r for r in others if r.round in ids], []).items():
        entry = summarise(outcomes, ties, samples)
        comparison.append({"claude": claude, "rounds": entry.rounds, "S": entry.S, "S_ci95": entry.S_ci95})
    result["comparison"] = comparison
    return result


@dataclass(frozen=True)
class Target:
    """An instance for a person Zellig, with the John it came from."""

    john: str
    instance: Instance


def zellig_targets(rounds: Sequence[Round]) -> list[Target]:
    """The run's distinct instances in plan order (first seed's order)."""
    seen: dict[str, Target] = {}
    for r in rounds:
        seen.setdefault(r.instance.id, Target(r.john, r.instance))
    return list(seen.values())


def check_phenomenon(value: Any) -> str:
    if not isinstance(value, str) or not PHENOMENON_PATTERN.fullmatch(value):
        raise UsageError(f"phenomenon {value!r}: use lower-case letters, digits and '_' (e.g. np_agreement)")
    return value


class ZelligSession:
    """One person corrupting a run's instances."""

    def __init__(self, run_dir: Path, name: str, rounds: Sequence[Round]):
        self.run_dir = Path(run_dir)
        self.name = store.check_name(name)
        self.file = store.corruption_file(run_dir, name)
        self.targets = zellig_targets(rounds)
        self.known_phenomena = sorted({r.variant.phenomenon for r in rounds if r.variant is not None})

    def done(self) -> dict[str, dict[str, Any]]:
        return self.file.read()

    def progress(self) -> tuple[int, int]:
        return len(self.done()), len(self.targets)

    def pending(self) -> list[Target]:
        done = self.done()
        return [t for t in self.targets if t.instance.id not in done]

    def phenomena(self) -> list[str]:
        """Labels to offer: the person's own earlier ones first, then the run's."""
        own = [r["variant"]["phenomenon"] for r in self.done().values() if r.get("variant")]
        return list(dict.fromkeys(own + self.known_phenomena))

    def corrupt(self, target: Target, text: str, phenomenon: str | None, seconds: float) -> tuple[dict[str, Any], bool]:
        """Record the person's corruption of ``target`` (``text`` equal to the reference:
        none applies); return the record that stands and whether it was written now."""
        instance = target.instance
        variant = None
        if text != instance.reference:
            meta = {"person": self.name, "seconds": round(float(seconds), 3)}
            variant = dump(variant_from_text(instance, text, check_phenomenon(phenomenon), meta))
        record = {"john": target.john, "instance": dump(instance), "variant": variant, "seconds": round(seconds, 3),
                  "author": self.name, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        return self.file.write_once(record)

    def export(self, experiment: Mapping[str, Any]) -> Path:
        """Write the corruptions as a LingEval97 test set and a config that replays them
        (beside the run's model Zelligs, except ``replay``, which needs the original
        John) against the run's Claudes; return the config's path."""
        import yaml

        from arena.formats.lingeval97 import Contrastive, Sentence, write_lingeval97

        records = self.done()
        directory = self.file.directory / "replay"
        sentences = []
        for target in self.targets:
            record = records.get(target.instance.id)
            if record is None:
                continue
            variant = record["variant"]
            errors = (Contrastive(variant["phenomenon"], variant["text"]),) if variant else ()
            sentences.append(Sentence(target.instance.source, target.instance.reference, target.instance.id, errors))
        if not sentences:
            raise UsageError(f"{self.name} has corrupted no instance of {self.run_dir} yet")
        testset = directory / "testset.json"
        write_lingeval97(testset, sentences)
        config = {
            "name": f"{experiment['name']}-{self.name}-zellig",
            "description": f"{self.name}'s corruptions of {self.run_dir.name}, replayed against its Claudes",
            # the test set beside this file, read from here wherever the config is run from
            "johns": [{"name": "lingeval97", "alias": "people", "params": {"path": testset.name}}],
            "zelligs": [{"name": "replay", "alias": store.label(self.name)}]
            + [z for z in experiment["zelligs"] if z["name"] != "replay"],
            "claudes": experiment["claudes"],
            "seeds": experiment["seeds"],
            "relative_paths": "config",
        }
        for key in ("contrastive_ties", "bootstrap_samples", "discrepancy", "generative_rate", "beam"):
            if key in experiment:
                config[key] = experiment[key]
        path = directory / "replay.yaml"
        transcripts.atomic_write_text(path, yaml.safe_dump(config, allow_unicode=True, sort_keys=False))
        return path
