"""The labelled pairs a cue audit (:mod:`arena.stats.cues`) runs on, from every input ``arena
cues`` reads: a DistilLingEval set (or a directory of sets), a LingEval97 JSON file, own pairs
(TSV, CSV, JSONL, Parquet, a datasets directory, read as ``arena score-pairs`` reads them), and a run
or tournament directory (its judged rounds, with each Claude's per-round correctness so that
the cues can be set beside the Claudes).

A :class:`CueItem` is one minimal pair with its answer; ``group`` is its instance (the source
sentence of a test set, the instance id of a run): cross-validation keeps a group in one fold.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.engine.balance import summaries
from arena.errors import DataError, UsageError
from arena.record.rounds import STATUS_BALANCED_OUT

OWN_PHENOMENON = "own"  # the pairs John's label for a pair without a phenomenon column


@dataclass(frozen=True)
class CueItem:
    """One labelled minimal pair: ``set`` and ``phenomenon`` name the table it belongs to."""

    id: str
    group: str
    source: str
    correct: str
    corrupted: str
    set: str
    phenomenon: str


@dataclass
class CueInput:
    """What an audit reads: the items, how many were left out and why, and for a run each
    Claude's correctness (``claudes[label][item id]``: 1.0 right, 0.0 wrong) and contrastive
    correctness (``contrastive[label][item id]``, where the Claude gave scores)."""

    items: list[CueItem]
    skipped: dict[str, int] = field(default_factory=dict)
    claudes: dict[str, dict[str, float]] = field(default_factory=dict)
    contrastive: dict[str, dict[str, float]] = field(default_factory=dict)
    kind: str = "testset"
    # (set, phenomenon) -> what a balance (a John's ``balance:``, ``arena cues --balance``) did
    balance: dict[tuple[str, str], Any] = field(default_factory=dict)


def _phenomenon(set_name: str) -> str:
    return set_name.split(".")[0]


def from_distil_lingeval(path: Path) -> CueInput:
    """A DistilLingEval set directory, or a directory holding several sets."""
    from arena.formats.distil_lingeval import FILES, find_sets, read_distil_lingeval

    if not path.is_dir():
        raise UsageError(f"{path}: no such directory", file=path, key="--testset",
                         hint=f"give a DistilLingEval set directory (with {', '.join(FILES)}) or a directory of sets")
    directories = [path] if all((path / name).is_file() for name in FILES) else find_sets(path)
    if not directories:
        raise DataError(f"{path}: neither a DistilLingEval set ({', '.join(FILES)}) nor a directory of sets",
                        file=path, key="--testset")
    items: list[CueItem] = []
    skipped: dict[str, int] = defaultdict(int)
    for directory in directories:
        test_set = read_distil_lingeval(directory, allow_empty=True)
        for number, pair in enumerate(test_set.pairs, 1):
            if not (pair.source.strip() and pair.correct.strip() and pair.incorrect.strip()):
                skipped["empty line"] += 1
                continue
            items.append(CueItem(f"{test_set.name}:{number}", f"{test_set.name}:{pair.source}", pair.source,
                                 pair.correct, pair.incorrect, test_set.name, _phenomenon(test_set.name)))
    return CueInput(items, dict(skipped))


def from_lingeval97(path: Path) -> CueInput:
    """A LingEval97 JSON file: one table per error type."""
    from arena.formats.lingeval97 import read_lingeval97

    if not path.is_file():
        raise UsageError(f"{path}: no such file", file=path, key="--testset", hint="give a LingEval97 JSON file")
    items = []
    for index, sentence in enumerate(read_lingeval97(path)):
        for number, error in enumerate(sentence.errors):
            items.append(CueItem(f"{index}:{number}", str(index), sentence.source, sentence.reference,
                                 error.contrastive, path.name, error.type))
    return CueInput(items)


def from_pairs(path: Path, columns: str | Mapping[str, str] | None = None) -> CueInput:
    """A user's own pairs (:func:`arena.formats.pairs.read_pairs`: the reader and ``--columns``
    mapping ``arena score-pairs`` and the ``pairs`` John use): one table per ``phenomenon``
    column value (``own`` where there is none, as the ``pairs`` John labels them); a group is a
    source sentence."""
    from arena.formats.pairs import read_pairs

    items = []
    for pair in read_pairs(path, columns):
        label = pair.meta.get("phenomenon")
        phenomenon = str(label) if label not in (None, "") else OWN_PHENOMENON
        items.append(CueItem(pair.id, f"{path.name}:{pair.source}", pair.source, pair.correct, pair.incorrect,
                             path.name, phenomenon))
    return CueInput(items)


def _labels_of(experiment: Mapping, names: Collection[str]) -> set[str]:
    """The labels (alias, else name) of the run's Claudes whose catalog name is in ``names``."""
    claudes = experiment.get("claudes", [])
    return {str(c.get("alias") or c.get("name")) for c in claudes if isinstance(c, Mapping) and c.get("name") in names}


def from_run(run_dir: Path | Any, baselines: Collection[str] = ()) -> CueInput:
    """A run or tournament directory: its judged, counted rounds, one table per Zellig and
    phenomenon (a balanced John's pairs in a table of their own, ``ZELLIG (balanced John JOHN)``,
    with what the balance cost in ``balance``), and each Claude's correctness on them; Claudes whose catalog name is in
    ``baselines`` (chance, oracle, the surface cues themselves) are left out of the comparison.
    ``run_dir`` may also be the run's records already read (:class:`arena.stats.run.RunData`)."""
    from arena.record import transcripts
    from arena.record.run_dir import RunDir
    from arena.stats import aggregate

    if isinstance(run_dir, Path):
        for name in (transcripts.MANIFEST, transcripts.ROUNDS):
            if not (run_dir / name).is_file():
                raise UsageError(f"{run_dir}: no {name}; not a run directory", file=run_dir,
                                 hint="give the directory 'arena run' or 'arena tournament' printed")
        run: Any = RunDir.open(run_dir)
    else:
        run = run_dir
    experiment, rounds, judgements, one_bests = run.manifest.experiment, run.rounds, run.judgements, run.one_bests
    left_out = _labels_of(experiment, baselines)
    balances = balances_of(experiment)

    def table(r: Any) -> tuple[str, str]:
        """A round's table: its Zellig (apart for a balanced John's pairs) and phenomenon."""
        phenomenon = r.variant.phenomenon if r.variant is not None else r.zellig
        return (f"{r.zellig} (balanced John {r.john})" if r.john in balances else r.zellig), phenomenon

    items: list[CueItem] = []
    skipped: dict[str, int] = defaultdict(int)
    for r in rounds:
        if r.status == STATUS_BALANCED_OUT:
            skipped["balanced out"] += 1
            continue
        if not r.judged or r.candidates is None or r.corrupted is None or len(r.candidates) != 2:
            skipped["not judged"] += 1
            continue
        if not r.counts:
            skipped["observation phase"] += 1
            continue
        items.append(CueItem(r.id, r.instance.id, r.instance.source, r.candidates[1 - r.corrupted],
                             r.candidates[r.corrupted], *table(r)))
    kept = {item.id for item in items}
    claudes: dict[str, dict[str, float]] = defaultdict(dict)
    contrastive: dict[str, dict[str, float]] = defaultdict(dict)
    for label, outcomes in aggregate.join(rounds, judgements, one_bests, counted_only=True).items():
        if label.split("#")[0] in left_out:
            continue
        for outcome in outcomes:
            if outcome.round.id not in kept:
                continue
            found = aggregate.correct(outcome)
            if found is not None:  # a round the Claude abstained on is left out, as in its S
                claudes[label][outcome.round.id] = found
            if outcome.scores is not None:
                contrastive[label][outcome.round.id] = float(outcome.scores[0] > outcome.scores[1])
    return CueInput(items, dict(skipped), dict(claudes), dict(contrastive), kind="run",
                    balance=summaries(rounds, balances, table))


def balances_of(experiment: Mapping) -> dict[str, Mapping[str, Any]]:
    """John label → its ``balance:``, for the balanced Johns of a run's resolved config."""
    from arena.specs.spec import spec_from_mapping

    johns = experiment.get("johns", [])
    specs = [spec_from_mapping(j, "manifest") for j in johns if isinstance(j, Mapping) and j.get("balance")]
    return {spec.label: spec.balance for spec in specs}


FORMATS = ("distil-lingeval", "lingeval97", "run", "pairs")


def load(kind: str, path: Path, baselines: Collection[str] = (),
         columns: str | Mapping[str, str] | None = None) -> CueInput:
    """``kind``: ``distil-lingeval``, ``lingeval97``, ``run`` (a tournament directory is a run) or
    ``pairs`` (own pairs, their columns mapped by ``columns``)."""
    if kind == "pairs":
        return from_pairs(path, columns)
    if kind == "distil-lingeval":
        return from_distil_lingeval(path)
    if kind == "lingeval97":
        return from_lingeval97(path)
    if kind == "run":
        return from_run(path, baselines)
    raise UsageError(f"--format {kind!r} is not one of {', '.join(FORMATS)}", key="--format")
