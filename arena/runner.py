"""Run an experiment: plan rounds, judge them, decode 1-bests, write the transcripts,
derive the scores.  Interrupted runs resume; finished runs are never overwritten."""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena import match, transcripts
from arena.config import Experiment
from arena.executor import Executor, InProcessExecutor
from arena.records import Instance
from arena.registry import Catalog, build, signature, validate

logger = logging.getLogger(__name__)


@dataclass
class RunResult:
    run_dir: Path
    scores: dict[str, Any]
    already_finished: bool = False
    resumed: bool = False


def config_hash(experiment: Experiment) -> str:
    text = json.dumps(experiment.to_json(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def run_dir_for(experiment: Experiment, out: Path) -> Path:
    return Path(out) / f"{experiment.name}-{config_hash(experiment)}"


def validate_experiment(experiment: Experiment, catalog: Catalog) -> dict[str, dict[str, str]]:
    """Check every performer's name and params without building anything; return the
    signatures ``{role: {label: name@version(params)}}``."""
    signatures: dict[str, dict[str, str]] = {}
    for role, specs in (("john", experiment.johns), ("zellig", experiment.zelligs), ("claude", experiment.claudes)):
        signatures[role + "s"] = {}
        for index, spec in enumerate(specs):
            where = f"{experiment.where(role + 's', str(index))}: {role}s[{index}]"
            validate(role, spec, catalog, where=where)
            for seed in sorted(spec.replicas):  # model replicas (arena tournament)
                validate(role, spec.for_seed(seed), catalog, where=f"{where}.replicas.{seed}")
            signatures[role + "s"][spec.label] = signature(role, spec, catalog)
    return signatures


def run_signature(experiment: Experiment, signatures: dict[str, dict[str, str]]) -> str:
    """The sacrebleu-style signature printed with every score."""
    from arena import __version__

    parts = [f"arena:{__version__}", f"k:{experiment.variants_per_instance}", f"seeds:{','.join(map(str, experiment.seeds))}"]
    parts.append(f"ties:{experiment.contrastive_ties}")
    return "|".join(parts)


def load_instances(experiment: Experiment, catalog: Catalog, progress: bool = True) -> dict[str, list[Instance]]:
    """Every John's instances (on the driver), capped by ``max_instances``; ids must be unique."""
    result: dict[str, list[Instance]] = {}
    for spec in experiment.johns:
        john = build("john", spec, catalog, where=f"john {spec.label}")
        instances: list[Instance] = []
        for instance in john.instances():
            instances.append(instance)
            if experiment.max_instances is not None and len(instances) >= experiment.max_instances:
                break
        duplicates = [key for key, count in Counter(i.id for i in instances).items() if count > 1]
        if duplicates:
            raise ValueError(f"John {spec.label} yielded duplicate instance id(s): {', '.join(duplicates[:5])}")
        logger.info("John %s: %d instances", spec.label, len(instances))
        result[spec.label] = instances
    return result


def plan(experiment: Experiment, instances: dict[str, list[Instance]], executor: Executor) -> list[match.Round]:
    """Corrupt once per (John, Zellig), then sample rounds per seed; seeds → Johns →
    Zelligs → instances is the transcript order."""
    corruptions: dict[tuple[str, str], list[match.Corruption]] = {}
    for john in experiment.johns:
        for zellig in experiment.zelligs:
            corruptions[john.label, zellig.label] = executor.corrupt(
                zellig, instances[john.label], experiment.time_budget.zellig_seconds
            )
    rounds: list[match.Round] = []
    for seed in experiment.seeds:
        for john in experiment.johns:
            for zellig in experiment.zelligs:
                rounds.extend(
                    match.plan_rounds(
                        corruptions[john.label, zellig.label], seed, john.label, zellig.label,
                        experiment.variants_per_instance,
                    )
                )
    return rounds


def _blocks_done(path: Path, expected: dict[str, int], order: Sequence[str]) -> set[str]:
    """Claudes whose block in a JSON-lines file is complete, in ``order``; the lines of
    an interrupted block (and a truncated last line) are dropped."""
    raw = path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []
    counts: Counter[str] = Counter()
    for line in raw:
        if not line.endswith("\n"):
            break
        counts[json.loads(line)["claude"]] += 1
    done: set[str] = set()
    keep = 0
    for label in order:
        if label not in counts or counts[label] != expected.get(label, 0):
            break
        done.add(label)
        keep += counts[label]
    if keep != len(raw):
        logger.info("%s: dropping %d lines of an interrupted block", path.name, len(raw) - keep)
        transcripts.atomic_write_text(path, "".join(raw[:keep]))
    return done


def make_manifest(experiment: Experiment, signatures: dict[str, dict[str, str]], **extra: Any) -> dict[str, Any]:
    """What ``manifest.json`` records: resolved config, signatures, versions, commit."""
    return {
        "experiment": experiment.to_json(),
        "config_file": experiment.source,
        "config_hash": config_hash(experiment),
        "signature": run_signature(experiment, signatures),
        "signatures": signatures,
        "versions": transcripts.package_versions(),
        "git_commit": transcripts.git_commit(),
        **extra,
    }


def run_experiment(
    experiment: Experiment,
    catalog: Catalog,
    out: Path,
    executor: Executor | None = None,
    progress: bool = True,
) -> RunResult:
    """Run (or resume) an experiment; return its run directory and scores."""
    from arena.metrics import compute_scores

    signatures = validate_experiment(experiment, catalog)
    if any(spec.replicas for spec in experiment.claudes):
        raise ValueError(f"{experiment.source or 'config'}: Claude model replicas are played by 'arena tournament'")
    run_dir = run_dir_for(experiment, out)
    if transcripts.is_finished(run_dir):
        scores = json.loads((run_dir / transcripts.SCORES).read_text(encoding="utf-8"))
        return RunResult(run_dir, scores, already_finished=True)
    resumed = run_dir.exists() and (run_dir / transcripts.MANIFEST).exists()
    run_dir.mkdir(parents=True, exist_ok=True)
    manifest = make_manifest(experiment, signatures)
    if resumed:
        previous = json.loads((run_dir / transcripts.MANIFEST).read_text(encoding="utf-8"))
        if previous.get("experiment") != json.loads(json.dumps(manifest["experiment"])):
            raise ValueError(f"{run_dir}: holds a run of a different configuration; choose another --out")
        logger.info("resuming %s", run_dir)
    else:
        transcripts.atomic_write_json(run_dir / transcripts.MANIFEST, manifest)

    own_executor = executor is None
    executor = executor or InProcessExecutor(catalog, progress=progress)
    try:
        rounds = _rounds(experiment, catalog, run_dir, executor, progress)
        _judge_all(experiment, run_dir, rounds, executor)
        _one_best_all(experiment, run_dir, rounds, executor)
    finally:
        if own_executor:
            executor.close()
    scores = compute_scores(run_dir)
    transcripts.atomic_write_json(run_dir / transcripts.SCORES, scores)
    return RunResult(run_dir, scores, resumed=resumed)


def _rounds(experiment: Experiment, catalog: Catalog, run_dir: Path, executor: Executor, progress: bool) -> list[match.Round]:
    path = run_dir / transcripts.ROUNDS
    if path.exists():
        return [match.Round.from_json(r) for r in transcripts.read_jsonl(path)]
    instances = load_instances(experiment, catalog, progress)
    rounds = plan(experiment, instances, executor)
    transcripts.atomic_write_jsonl(path, (r.to_json() for r in rounds))
    return rounds


def _judge_all(experiment: Experiment, run_dir: Path, rounds: list[match.Round], executor: Executor) -> None:
    path = run_dir / transcripts.JUDGEMENTS
    judged = sum(1 for r in rounds if r.judged)
    labels = [spec.label for spec in experiment.claudes]
    done = _blocks_done(path, {label: judged for label in labels}, labels)
    for spec in experiment.claudes:
        if spec.label in done:
            continue
        logger.info("judging %d rounds with %s", judged, spec.label)
        records = executor.judge(spec, rounds, experiment.time_budget.claude_seconds_per_pair)
        transcripts.append_block(path, (r.to_json() for r in records))


def _one_best_all(experiment: Experiment, run_dir: Path, rounds: list[match.Round], executor: Executor) -> None:
    path = run_dir / transcripts.ONEBEST
    if not experiment.discrepancy:
        return
    sources = list(dict.fromkeys(r.instance.source for r in rounds if r.status == match.STATUS_OK))
    scoring = [spec for spec in experiment.claudes if executor.can_translate(spec)]
    labels = [spec.label for spec in scoring]
    done = _blocks_done(path, {label: len(sources) for label in labels}, labels)
    for spec in scoring:
        if spec.label in done:
            executor.release(spec)
            continue
        logger.info("1-best translations of %d sources with %s (beam %d)", len(sources), spec.label, experiment.beam)
        results = executor.translate_and_score(spec, sources, experiment.beam)
        translations = [t for t, _, _ in results]
        detected: list[dict[str, bool]] = [{} for _ in sources]
        if experiment.generative_rate:
            for zellig in experiment.zelligs:
                verdicts = executor.detect(zellig, translations, sources)
                if verdicts is None:
                    continue
                for verdict, slot in zip(verdicts, detected):
                    slot[zellig.label] = verdict
        convention = executor.score_convention(spec)
        records = [
            match.OneBest(spec.label, source, translation, logprob, tokens, flags, convention).to_json()
            for source, (translation, logprob, tokens), flags in zip(sources, results, detected)
        ]
        transcripts.append_block(path, records)
        executor.release(spec)
