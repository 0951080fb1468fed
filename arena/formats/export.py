"""An experiment's pairs in the reference tools' formats, for external scorers.

The input is a list of round records as ``rounds.jsonl`` holds them (one JSON object
per round with ``round``, ``john``, ``zellig``, ``seed``, ``instance`` ``{id, source,
reference, meta}``, ``variant`` ``{instance_id, text, phenomenon, edits, meta}`` or
``null``, ``candidates``, ``corrupted``).  Rounds without a variant (the Zellig had
nothing to offer, or ran out of time) have no pair and are counted, not exported.
The same pair played under several seeds is exported once.

- **LingEval97**: one test set per John; a sentence per instance (``origin`` is the
  instance id), its ``errors`` the distinct variants of every Zellig in order of
  first appearance, with ``type`` = the variant's phenomenon, ``contrastive`` = its
  text, LingEval97's ``distance``/``frequency`` from the variant's meta, and the
  Zellig's label under the extra key ``zellig``.
- **DistilLingEval**: one directory per (Zellig, John), named ``ZELLIG.JOHN`` after
  DistilLingEval's ``<error_type>.<human|mt>``; one line per distinct pair.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import DataError, UsageError
from arena.formats.distil_lingeval import FILES as DISTIL_FILES
from arena.formats.distil_lingeval import ContrastivePair, write_distil_lingeval
from arena.formats.lingeval97 import Contrastive, Sentence, write_lingeval97, write_plaintext
from arena.formats.textlines import check_line_text, write_text_atomic
from arena.specs.yamlio import loads_json, read_text

FORMATS = ("lingeval97", "distil-lingeval")
MANIFEST = "export.json"


def read_round_records(path: str | Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, record)`` for every line of a ``rounds.jsonl``; a malformed line is a
    ``ValueError`` naming file and line."""
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        record = loads_json(line, path, number)  # bounded; damage is a DataError with file and line
        if not isinstance(record, dict):
            raise DataError(f"{where}: a round is a JSON object, not {type(record).__name__}")
        yield where, record


def _get(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in record:
        raise DataError(f"{where}: missing key '{key}'")
    value = record[key]
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise DataError(f"{where}: key '{key}' must be {names}, got {type(value).__name__}")
    return value


@dataclass
class _Instance:
    id: str
    source: str
    reference: str
    variants: dict[tuple[str, str], Contrastive] = field(default_factory=dict)  # (zellig, text) -> error


@dataclass
class Collected:
    """The distinct pairs of a list of rounds, grouped for both formats."""

    johns: dict[str, dict[str, _Instance]] = field(default_factory=dict)  # john -> instance id -> instance
    # (zellig, john) -> (instance id, variant text) -> (pair, phenomenon)
    distil: dict[tuple[str, str], dict[tuple[str, str], tuple[ContrastivePair, str]]] = field(default_factory=dict)
    rounds: int = 0
    without_pair: Counter = field(default_factory=Counter)  # status -> rounds without a variant
    dropped_annotations: int = 0  # distance/frequency values that are no number or string

    def sentences(self, john: str) -> list[Sentence]:
        return [
            Sentence(instance.source, instance.reference, instance.id, tuple(instance.variants.values()))
            for instance in self.johns[john].values()
        ]


def _annotation(meta: Mapping[str, Any], key: str, collected: Collected) -> Any:
    value = meta.get(key)
    if value is None or (isinstance(value, (int, float, str)) and not isinstance(value, bool)):
        return value
    collected.dropped_annotations += 1
    return None


def collect(records: Iterable[tuple[str, Mapping[str, Any]]]) -> Collected:
    """Group round records (``(where, record)``, see :func:`read_round_records`)."""
    collected = Collected()
    for where, record in records:
        collected.rounds += 1
        john = _get(record, "john", str, where)
        zellig = _get(record, "zellig", str, where)
        instance = _get(record, "instance", dict, where)
        instance_id = _get(instance, "id", str, f"{where}: instance")
        source = _get(instance, "source", str, f"{where}: instance")
        reference = _get(instance, "reference", str, f"{where}: instance")
        variant = record.get("variant")
        # a pair a John's balance left out is not part of the balanced test set (arena/engine/balance.py)
        if variant is None or record.get("status") == "balanced_out":
            collected.without_pair[str(record.get("status") or "no variant")] += 1
            continue
        if not isinstance(variant, dict):
            raise DataError(f"{where}: key 'variant' must be an object or null, got {type(variant).__name__}")
        text = _get(variant, "text", str, f"{where}: variant")
        phenomenon = _get(variant, "phenomenon", str, f"{where}: variant")
        meta = variant.get("meta") or {}
        if not isinstance(meta, dict):
            raise DataError(f"{where}: variant: key 'meta' must be an object, got {type(meta).__name__}")
        instances = collected.johns.setdefault(john, {})
        known = instances.get(instance_id)
        if known is None:
            known = instances[instance_id] = _Instance(instance_id, source, reference)
        elif (known.source, known.reference) != (source, reference):
            raise DataError(
                f"{where}: instance {instance_id} of John {john} has a different source or reference "
                "than in an earlier round"
            )
        if (zellig, text) not in known.variants:
            known.variants[zellig, text] = Contrastive(
                phenomenon,
                text,
                _annotation(meta, "distance", collected),
                _annotation(meta, "frequency", collected),
                {"zellig": zellig},
            )
        collected.distil.setdefault((zellig, john), {}).setdefault(
            (instance_id, text), (ContrastivePair(source, reference, text), phenomenon)
        )
    return collected


_UNSAFE = re.compile(r"[^A-Za-z0-9._=+-]+")


def file_name(label: str, taken: set[str]) -> str:
    """A file-system-safe, unique name for a performer label."""
    name = _UNSAFE.sub("_", label).strip("._") or "unnamed"
    unique, number = name, 2
    while unique in taken:
        unique, number = f"{name}-{number}", number + 1
    taken.add(unique)
    return unique


@dataclass(frozen=True)
class Written:
    """One exported test set."""

    format: str
    john: str
    zellig: str | None  # None for a LingEval97 set (all Zelligs of a John)
    path: Path  # the JSON file or the DistilLingEval directory
    sentences: int
    pairs: int
    phenomena: Mapping[str, int]
    unwritable: Mapping[str, str] = field(default_factory=dict)  # pair -> why it could not be written


def _check_free(paths: Iterable[Path], force: bool) -> None:
    if force:
        return
    existing = [str(path) for path in paths if path.exists()]
    if existing:
        raise UsageError(f"{existing[0]} exists; pass --force to overwrite ({len(existing)} file(s) would be replaced)")


def _writable_sentences(sentences: list[Sentence], unwritable: dict[str, str]) -> list[Sentence]:
    """Drop (and record) what cannot be written as plaintext lines."""
    kept = []
    for sentence in sentences:
        try:
            check_line_text(sentence.source, f"instance {sentence.origin}: source")
            check_line_text(sentence.reference, f"instance {sentence.origin}: reference")
        except ValueError as error:
            unwritable[f"instance {sentence.origin}"] = str(error)
            continue
        errors = []
        for variant in sentence.errors:
            try:
                check_line_text(variant.contrastive, f"instance {sentence.origin}: variant of {variant.extra['zellig']}")
            except ValueError as problem:
                unwritable[f"instance {sentence.origin}, variant of {variant.extra['zellig']}"] = str(problem)
                continue
            errors.append(variant)
        if errors:
            kept.append(Sentence(sentence.source, sentence.reference, sentence.origin, tuple(errors)))
    return kept


def export(collected: Collected, out: str | Path, format: str, force: bool = False) -> list[Written]:
    """Write the collected pairs under ``out`` in ``format`` (see the module docstring)
    and a ``export.json`` manifest; returns what was written.  Pairs that cannot be
    written as lines (an empty text, a line break inside a text) are left out and
    listed in :attr:`Written.unwritable` and the manifest."""
    if format not in FORMATS:
        raise UsageError(f"unknown export format {format!r}; formats: {', '.join(FORMATS)}")
    out = Path(out)
    taken: set[str] = set()
    written: list[Written] = []
    if format == "lingeval97":
        plans = [(john, out / file_name(john, taken)) for john in collected.johns]
        _check_free((Path(f"{base}.{suffix}") for _, base in plans for suffix in ("json", "en", "de")), force)
        for john, base in plans:
            unwritable: dict[str, str] = {}
            sentences = _writable_sentences(collected.sentences(john), unwritable)
            write_lingeval97(f"{base}.json", sentences)
            write_plaintext(base, sentences)
            phenomena = Counter(error.type for sentence in sentences for error in sentence.errors)
            written.append(
                Written(
                    format,
                    john,
                    None,
                    Path(f"{base}.json"),
                    len(sentences),
                    sum(phenomena.values()),
                    dict(phenomena),
                    unwritable,
                )
            )
    else:
        directories = [(key, out / file_name(f"{key[0]}.{key[1]}", taken)) for key in collected.distil]
        _check_free((directory / name for _, directory in directories for name in DISTIL_FILES), force)
        for (zellig, john), directory in directories:
            unwritable = {}
            pairs = []
            phenomena = Counter()
            instances = set()
            for (instance_id, _), (pair, phenomenon) in collected.distil[zellig, john].items():
                try:
                    for side in ("source", "correct", "incorrect"):
                        check_line_text(getattr(pair, side), f"instance {instance_id}: {side}")
                except ValueError as error:
                    unwritable[f"instance {instance_id}"] = str(error)
                    continue
                pairs.append(pair)
                phenomena[phenomenon] += 1
                instances.add(instance_id)
            write_distil_lingeval(directory, pairs)
            written.append(
                Written(format, john, zellig, directory, len(instances), len(pairs), dict(phenomena), unwritable)
            )
    manifest = {
        "format": format,
        "rounds": collected.rounds,
        "rounds_without_pair": dict(collected.without_pair),
        "dropped_annotations": collected.dropped_annotations,
        "sets": [
            {
                "path": item.path.name,
                "john": item.john,
                "zellig": item.zellig,
                "sentences": item.sentences,
                "pairs": item.pairs,
                "phenomena": dict(item.phenomena),
                "unwritable": dict(item.unwritable),
            }
            for item in written
        ],
    }
    write_text_atomic(out / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")
    return written
