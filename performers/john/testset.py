"""Write a selected contrastive test set in the formats of the reference tools.

From a :class:`~performers.john.selection.Selection`, :func:`write_testset` writes into
one output directory

- per phenomenon a **DistilLingEval** directory ``<phenomenon>.<kind>/`` (``kind``:
  ``human``, ``mt`` or ``mixed``, from the references' ``reference_kind``) with the
  line-aligned ``src.en``, ``tgt.correct.de`` and ``tgt.incorrect.de`` — one line
  per pair, so DistilLingEval's own scripts and ``arena evaluate --format
  distil-lingeval`` read it — and ``meta.jsonl``, one JSON object per line with the
  pair's id, origin, reference kind, MT system, human reference, phenomenon, edits,
  distance and frequency (other tools ignore the extra file);
- a **LingEval97** JSON file ``<stem>.json`` (``stem`` is ``<phenomenon>.<kind>`` for
  a one-phenomenon Zellig, else ``testset.<kind>``): one entry per instance with
  ``source``, ``reference``, ``origin`` (``newstest2009.17``: the test set and line
  when the John records them, else the instance id) and ``errors``
  (``type`` = phenomenon, ``contrastive``, ``distance``, ``frequency`` where the
  Zellig annotates them), plus ``id``, ``reference_kind``, ``system`` and
  ``human_reference`` as extra keys LingEval97's scripts ignore;
- ``report.json``: the selection report (what was selected, what was left out and
  why, validation counts) and the list of files written.

Existing files are not overwritten unless ``overwrite=True``; a write cut short (Ctrl-C, a full
disk) removes the files it made, so that the same command can run again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.sdk import DISTIL_LINGEVAL_FILES as DISTIL_FILES
from arena.sdk import (
    ConfigError,
    Contrastive,
    ContrastivePair,
    Sentence,
    dump,
    write_distil_lingeval,
    write_lines,
    write_lingeval97,
    write_text_atomic,
)
from performers.john.selection_records import Selected, Selection

FORMATS = ("distil-lingeval", "lingeval97")
REPORT = "report.json"
META_FILE = "meta.jsonl"


def reference_kind_label(items: Iterable[Selected]) -> str:
    """``human``, ``mt`` or ``mixed`` (or ``unknown``), as DistilLingEval names its sets."""
    kinds = {str(item.instance.meta.get("reference_kind", "unknown")) for item in items}
    if kinds == {"human"}:
        return "human"
    if kinds == {"machine"}:
        return "mt"
    if not kinds or kinds == {"unknown"}:
        return "unknown"
    return "mixed"


def lingeval_origin(item: Selected) -> str:
    """LingEval97's ``origin``: ``<test set>.<line>`` where the John records both."""
    meta = item.instance.meta
    origin, line = meta.get("origin"), meta.get("line")
    if isinstance(origin, str) and isinstance(line, int) and not isinstance(line, bool):
        return f"{origin}.{line}"
    return item.instance.id


def _annotation(value: Any) -> int | float | str | None:
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    return value


def _provenance(item: Selected) -> dict[str, Any]:
    meta = item.instance.meta
    data: dict[str, Any] = {"id": item.instance.id, "reference_kind": meta.get("reference_kind", "unknown")}
    for key in ("system", "human_reference"):
        if key in meta:
            data[key] = meta[key]
    return data


def sentences(items: Sequence[Selected]) -> list[Sentence]:
    """LingEval97 entries of the selected items."""
    result = []
    for item in items:
        errors = tuple(
            Contrastive(
                variant.phenomenon,
                variant.text,
                _annotation(variant.meta.get("distance")),
                _annotation(variant.meta.get("frequency")),
            )
            for variant in item.variants
        )
        result.append(
            Sentence(item.instance.source, item.instance.reference, lingeval_origin(item), errors, _provenance(item))
        )
    return result


def _meta_line(item: Selected, variant_index: int) -> str:
    variant = item.variants[variant_index]
    data = {
        **_provenance(item),
        "origin": lingeval_origin(item),
        "phenomenon": variant.phenomenon,
        "edits": [dump(edit) for edit in variant.edits],
        "distance": _annotation(variant.meta.get("distance")),
        "frequency": _annotation(variant.meta.get("frequency")),
    }
    if item.validation is not None and variant.phenomenon in item.validation:
        data["validation"] = item.validation[variant.phenomenon].to_json()
    return json.dumps(data, ensure_ascii=False)


def _check_free(paths: Iterable[Path], overwrite: bool) -> None:
    if overwrite:
        return
    existing = [str(path) for path in paths if path.exists()]
    if existing:
        raise ConfigError(
            f"{existing[0]} already exists ({len(existing)} file(s) in the way); choose another --out or pass --force"
        )


def write_testset(
    selection: Selection,
    out: str | Path,
    formats: Sequence[str] = FORMATS,
    overwrite: bool = False,
    extra_report: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write ``selection`` (module docstring); returns ``report.json``'s content."""
    unknown = [name for name in formats if name not in FORMATS]
    if unknown or not formats:
        raise ConfigError(f"unknown format(s) {', '.join(unknown) or '(none)'}; formats are {', '.join(FORMATS)}")
    out = Path(out)
    kind = reference_kind_label(selection.items)
    phenomena = sorted({v.phenomenon for item in selection.items for v in item.variants})
    stem = f"{phenomena[0]}.{kind}" if len(phenomena) == 1 else f"testset.{kind}"
    planned: list[Path] = [out / REPORT]
    if "distil-lingeval" in formats:
        for phenomenon in phenomena:
            directory = out / f"{phenomenon}.{kind}"
            planned += [directory / name for name in (*DISTIL_FILES, META_FILE)]
    if "lingeval97" in formats and selection.items:
        planned.append(out / f"{stem}.json")
    _check_free(planned, overwrite)
    made = [directory for directory in {path.parent for path in planned} if not directory.exists()]
    try:
        return _write(selection, out, formats, kind, phenomena, stem, extra_report)
    except BaseException:  # Ctrl-C or a full disk: no half-written test set in the way of the same command
        if not overwrite:  # every planned file was free before: what is there now is this call's
            for path in planned:
                path.unlink(missing_ok=True)
            for directory in sorted(made, key=lambda d: len(d.parts), reverse=True):
                if directory.is_dir() and not any(directory.iterdir()):
                    directory.rmdir()
        raise


def _write(selection: Selection, out: Path, formats: Sequence[str], kind: str, phenomena: list[str], stem: str,
           extra_report: Mapping[str, Any] | None) -> dict[str, Any]:
    written: dict[str, Any] = {}
    if "distil-lingeval" in formats:
        for phenomenon in phenomena:
            directory = out / f"{phenomenon}.{kind}"
            pairs, metas = [], []
            for item in selection.items:
                for index, variant in enumerate(item.variants):
                    if variant.phenomenon != phenomenon:
                        continue
                    pairs.append(ContrastivePair(item.instance.source, item.instance.reference, variant.text))
                    metas.append(_meta_line(item, index))
            write_distil_lingeval(directory, pairs)
            write_lines(directory / META_FILE, metas)
            written[f"distil-lingeval:{phenomenon}"] = {"path": str(directory), "pairs": len(pairs)}
    if "lingeval97" in formats and selection.items:
        path = out / f"{stem}.json"
        entries = sentences(selection.items)
        write_lingeval97(path, entries)
        written["lingeval97"] = {"path": str(path), "sentences": len(entries), "pairs": selection.pairs}
    report = {**selection.report, "reference_kind": kind, "files": written}
    if extra_report:
        report.update(extra_report)
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / REPORT, json.dumps(report, ensure_ascii=False, indent=2) + "\n")
    return report
