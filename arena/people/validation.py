"""A validation sample of a run's 1-bests, labelled by people: does the detector's rate transfer?

``arena false-positives RUN --validate N`` draws, per Claude × Zellig (the stratum: one model's
translations and one detector), ``N`` of the run's beam-search 1-bests (``onebest.jsonl``) where the
Zellig's detector fired and ``N`` where it did not (all of them where there are fewer), seeded, and
people label each as showing the phenomenon (``present``) or not (``absent``), in the terminal or
the browser (:mod:`arena.people.validation_web`).  The labeller is not told what the detector said,
and the items come in a shuffled order.  The files, beside the run::

    RUN/validation/sample.json     the draw: {"version", "per_stratum", "seed", "strata": [{"claude",
                                   "zellig", "detector", "flagged", "unflagged"}], "items": [{"id",
                                   "claude", "zellig", "detector", "source", "translation", "flagged"}]}
    RUN/validation/labels.jsonl    one line per labelled item: {"item", "label": "present"|"absent",
                                   "labeller", "time"}

``sample.json`` is written once (a second ``--validate`` with another ``N`` or seed is refused: the
labels refer to the first draw).  A label is written once per item, whoever gives it, under a lock
(:func:`arena.record.people_store.lock_file`) after re-reading the file, which is replaced whole by rename;
a second label for an item is refused and the first stands.  :func:`validations` turns the labels
into the counts of :class:`arena.stats.fp_validation.Validation` that ``arena false-positives`` then
corrects with (:mod:`arena.stats.fp_validation`).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.errors import DataError, UsageError
from arena.record import people_store as store
from arena.record import transcripts
from arena.record.rounds import OneBest
from arena.stats.fp_validation import Validation

DIRECTORY = "validation"
SAMPLE = "sample.json"
LABELS = "labels.jsonl"
LABEL_VALUES = ("present", "absent")
VERSION = 1
DEFAULT_SEED = 1
HOLD_SECONDS = 600.0  # an item shown in the browser is kept for that person this long


def sample_path(run_dir: Path) -> Path:
    return Path(run_dir) / DIRECTORY / SAMPLE


def labels_path(run_dir: Path) -> Path:
    return Path(run_dir) / DIRECTORY / LABELS


def sessions_path(run_dir: Path) -> Path:
    """``RUN/validation/.sessions.json``: the labelling page's signed-in sessions (a restart keeps them)."""
    return Path(run_dir) / DIRECTORY / ".sessions.json"


def item_id(claude: str, seed: int | None, zellig: str, source: str) -> str:
    text = json.dumps([claude, seed, zellig, source], ensure_ascii=False)
    return "v-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _stratum_rng(seed: int, claude: str, zellig: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{claude}\x00{zellig}".encode()).digest()
    return np.random.default_rng([seed, int.from_bytes(digest[:8], "big")])


def draw(one_bests: Sequence[OneBest], per_stratum: int, seed: int = DEFAULT_SEED,
         detectors: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The sample (``sample.json``'s content) of ``per_stratum`` flagged and unflagged 1-bests per
    Claude × Zellig; ``detectors`` names each Zellig label's detector (shown to the labeller)."""
    strata: dict[tuple[str, str], dict[bool, list[OneBest]]] = {}
    for one_best in one_bests:
        for zellig, fired in one_best.detected.items():
            strata.setdefault((one_best.claude, zellig), {True: [], False: []})[bool(fired)].append(one_best)
    summary, items = [], []
    for (claude, zellig), groups in sorted(strata.items()):
        detector = (detectors or {}).get(zellig, zellig)
        summary.append({"claude": claude, "zellig": zellig, "detector": detector,
                        "flagged": len(groups[True]), "unflagged": len(groups[False])})
        rng = _stratum_rng(seed, claude, zellig)
        for flagged in (True, False):
            population = groups[flagged]
            chosen = sorted(rng.choice(len(population), min(per_stratum, len(population)), replace=False))
            items += [{"id": item_id(claude, population[i].seed, zellig, population[i].source), "claude": claude,
                       "zellig": zellig, "detector": detector, "source": population[i].source,
                       "translation": population[i].translation, "flagged": flagged} for i in chosen]
    order = np.random.default_rng(seed).permutation(len(items))  # blind: the flag is not in the order
    return {"version": VERSION, "per_stratum": per_stratum, "seed": seed, "strata": summary,
            "items": [items[i] for i in order]}


def prepare(run_dir: Path, one_bests: Sequence[OneBest], per_stratum: int, seed: int = DEFAULT_SEED,
            detectors: Mapping[str, str] | None = None) -> tuple[dict[str, Any], bool]:
    """The run's sample: drawn and written now, or the one written before when it was drawn with the
    same ``per_stratum`` and ``seed`` (else a :class:`UsageError`); and whether it was written now."""
    path = sample_path(run_dir)
    if path.exists():
        sample = read_sample(run_dir)
        if (sample["per_stratum"], sample["seed"]) != (per_stratum, seed):
            raise UsageError(f"a sample of {sample['per_stratum']} per stratum (seed {sample['seed']}) was "
                             f"drawn before; its labels refer to it", file=path, key="per_stratum",
                             hint=f"label it with --validate {sample['per_stratum']} --validate-seed {sample['seed']}")
        return sample, False
    sample = draw(one_bests, per_stratum, seed, detectors)
    if not sample["items"]:
        raise UsageError("no 1-best translation has a detector verdict to validate",
                         file=Path(run_dir) / transcripts.ONEBEST, key="detected")
    path.parent.mkdir(parents=True, exist_ok=True)
    transcripts.atomic_write_json(path, sample)
    return sample, True


def read_sample(run_dir: Path) -> dict[str, Any]:
    path = sample_path(run_dir)
    try:
        sample = json.loads(path.read_text(encoding="utf-8"))
        if sample.get("version") != VERSION:
            raise ValueError(f"version {sample.get('version')!r}, expected {VERSION}")
        for key in ("per_stratum", "seed", "strata", "items"):
            sample[key]  # noqa: B018  # KeyError names a missing key
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise DataError(f"not a validation sample ({error})", file=path, key="version",
                        hint="delete the validation folder and draw again with --validate N") from None
    return sample


def read_labels(run_dir: Path, items: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The labels by item, checked: a known item, a label of :data:`LABEL_VALUES`, one label per item
    (a :class:`DataError` naming the file, line and key otherwise)."""
    path = labels_path(run_dir)
    labels: dict[str, dict[str, Any]] = {}
    for line, record in enumerate(transcripts.read_jsonl(path), 1):
        key = record.get("item") if isinstance(record, dict) else None
        if not isinstance(key, str) or key not in items:
            raise DataError(f"item {str(key)[:40]!r} is not in {SAMPLE}", file=path, line=line,
                            key="item")
        if record.get("label") not in LABEL_VALUES:
            raise DataError(f"label {str(record.get('label'))[:40]!r} of {key} is not one of "
                            f"{', '.join(LABEL_VALUES)}", file=path, line=line, key="label")
        if key in labels:
            raise DataError(f"a second label for {key} (the first is {labels[key]['label']!r})",
                            file=path, line=line, key="item", hint="keep one line per item")
        labels[key] = record
    return labels


def validations(run_dir: Path) -> dict[tuple[str, str], Validation]:
    """The labelled counts per (Claude, Zellig) of a run with a validation sample (empty without)."""
    if not sample_path(run_dir).exists():
        return {}
    sample = read_sample(run_dir)
    items = {item["id"]: item for item in sample["items"]}
    labels = read_labels(run_dir, items)
    counts: dict[tuple[str, str], list[int]] = {}
    for key, record in labels.items():
        item = items[key]
        slot = counts.setdefault((item["claude"], item["zellig"]), [0, 0, 0, 0])
        offset = 0 if item["flagged"] else 2
        slot[offset] += 1
        slot[offset + 1] += record["label"] == "present"
    return {(s["claude"], s["zellig"]): Validation(s["claude"], s["zellig"], int(s["flagged"]), int(s["unflagged"]),
                                                   *counts.get((s["claude"], s["zellig"]), [0, 0, 0, 0]))
            for s in sample["strata"]}


class ValidationReview:
    """The items of a run's sample and their labels; one per server or terminal, safe to share between
    threads."""

    def __init__(self, run_dir: Path, hold_seconds: float = HOLD_SECONDS):
        self.run_dir = Path(run_dir)
        self.sample = read_sample(run_dir)
        self.items = list(self.sample["items"])
        self.by_id = {item["id"]: item for item in self.items}
        self.path = labels_path(run_dir)
        self.hold_seconds = hold_seconds
        self._held: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()
        self.labelled_before = len(self.labels())  # a bad labels file fails here, before any work

    def labels(self) -> dict[str, dict[str, Any]]:
        return read_labels(self.run_dir, self.by_id)

    def pending(self) -> list[dict[str, Any]]:
        labelled = self.labels()
        return [item for item in self.items if item["id"] not in labelled]

    def next_for(self, name: str) -> dict[str, Any] | None:
        """The first unlabelled item nobody else holds; held for ``name`` from now on."""
        pending, now = self.pending(), time.monotonic()
        with self._lock:
            for item in pending:
                holder = self._held.get(item["id"])
                if holder and holder[0] != name and now - holder[1] < self.hold_seconds:
                    continue
                if holder is None or holder[0] != name:
                    self._held[item["id"]] = (name, now)
                return item
        return None

    def label(self, name: str, key: str, value: str) -> tuple[dict[str, Any], bool]:
        """Write ``name``'s label of ``key`` once; the label that stands and whether it is this one."""
        store.check_name(name)
        if key not in self.by_id:
            raise UsageError(f"{key!r} is not an item of {sample_path(self.run_dir)}")
        if value not in LABEL_VALUES:
            raise UsageError(f"label {value!r}: expected one of {', '.join(LABEL_VALUES)}")
        record = {"item": key, "label": value, "labeller": name,
                  "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        with store.lock_file(self.path.with_name(f".{LABELS}.lock")):
            existing = self.labels().get(key)
            if existing is not None:
                return existing, False
            transcripts.atomic_write_jsonl(self.path, [*transcripts.read_jsonl(self.path), record])
        with self._lock:
            self._held.pop(key, None)
        return record, True

    def progress(self) -> dict[str, int]:
        labelled = self.labels()
        present = sum(1 for record in labelled.values() if record["label"] == "present")
        return {"total": len(self.items), "labelled": len(labelled), "present": present,
                "absent": len(labelled) - present, "left": len(self.items) - len(labelled)}


def shown(item: Mapping[str, Any]) -> dict[str, Any]:
    """What a labeller sees of an item: not whether the detector fired."""
    return {"id": item["id"], "source": item["source"], "translation": item["translation"],
            "phenomenon": item["detector"], "claude": item["claude"]}
