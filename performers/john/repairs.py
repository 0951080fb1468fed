"""Manual repair of machine references that validation flagged (DistilLingEval's authors
fixed theirs by hand; Vamvas & Sennrich 2021, §3.3).

Validation (:mod:`performers.john.validation`) *flags* a machine reference that already
shows the error a Zellig inserts (*erwartet* where the human wrote *unerwartet*).  A
person reviews each flagged reference (``arena repair``) and either **fixes** it (types
the corrected translation) or **rejects** it (it stays out).  The decisions are a patch
file, JSON lines beside the test set::

    {"id": "newstest2012.17", "action": "fix", "reference": "…", "was": "…", "reviewer": "ann", "time": "…"}
    {"id": "newstest2012.40", "action": "reject", "was": "…", "reviewer": "ann", "time": "…"}

that the ``mt-reference`` John applies (``repairs: FILE``): a fixed reference replaces the
machine translation (``meta["repaired"]``, the original in ``meta["unrepaired_reference"]``),
a rejected instance is left out, and the counts are in the John's report.  A patch entry
applies only while the machine reference is still the one reviewed (``was``); a changed
translation is counted as ``stale`` and left as it is.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from arena.errors import DataError
from arena.records import Instance

ACTIONS = ("fix", "reject")


def read_repairs(path: str | Path) -> dict[str, dict[str, Any]]:
    """The patch file's decisions by instance id (the last decision on an id stands)."""
    path = Path(path)
    repairs: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return repairs
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise DataError(f"not JSON: {error.msg}", file=path, line=line) from None
        if not isinstance(record, dict) or record.get("action") not in ACTIONS or not isinstance(record.get("id"), str):
            raise DataError("expected {\"id\", \"action\": fix|reject, ...}", file=path, line=line, key="action")
        if record["action"] == "fix" and not (isinstance(record.get("reference"), str) and record["reference"].strip()):
            raise DataError("a fix needs the corrected 'reference'", file=path, line=line, key="reference")
        repairs[record["id"]] = record
    return repairs


def append_repair(path: str | Path, instance: Instance, action: str, reviewer: str, reference: str | None = None) -> dict:
    """Append one decision to the patch file and return it."""
    if action not in ACTIONS:
        raise DataError(f"action must be fix or reject, not {action!r}")
    record: dict[str, str | None] = {"id": instance.id, "action": action, "was": instance.reference, "reviewer": reviewer,
              "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if action == "fix":
        record["reference"] = reference
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return record


def apply_repairs(instances: Iterable[Instance], repairs: Mapping[str, Mapping[str, Any]],
                  counts: Counter[str]) -> Iterator[Instance]:
    """The instances with the patch applied; ``counts`` gets fixed / rejected / stale."""
    for instance in instances:
        repair = repairs.get(instance.id)
        if repair is None:
            yield instance
            continue
        if repair.get("was") not in (None, instance.reference):
            counts["stale"] += 1
            yield instance
        elif repair["action"] == "reject":
            counts["rejected"] += 1
        else:
            counts["fixed"] += 1
            meta = {**instance.meta, "repaired": True, "unrepaired_reference": instance.reference}
            yield Instance(instance.id, instance.source, repair["reference"], meta)


def flagged(instances: Iterable[Instance], zellig: Any) -> Iterator[tuple[Instance, list[Any]]]:
    """The machine-reference instances whose reference validation flags for ``zellig``'s
    phenomena, with the flagged checks (phenomenon, evidence)."""
    from performers.john.validation import FLAGGED, validate

    for instance in instances:
        human = instance.meta.get("human_reference")
        if not isinstance(human, str):
            continue
        human_instance = Instance(instance.id, instance.source, human, instance.meta)
        checks = validate(human, zellig.corrupt(human_instance), instance.reference, zellig.corrupt(instance))
        found = [check for check in checks.values() if check.status == FLAGGED]
        if found:
            yield instance, found
