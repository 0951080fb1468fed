"""Manual repair of machine references that validation flagged (DistilLingEval's authors
fixed theirs by hand; Vamvas & Sennrich 2021, §3.3): finding the flagged references and
applying the patch file of decisions.

The patch file and the review that writes it (``arena repair`` in the terminal,
``arena serve --repair`` in the browser) are :mod:`arena.people.repairs`.  The
``mt-reference`` John applies the patch (``repairs: FILE``): a fixed reference replaces
the machine translation (``meta["repaired"]``, the original in
``meta["unrepaired_reference"]``), a kept one stays as it is, marked as reviewed
(``meta["reviewed"] = "kept"``: the flag was wrong), a rejected instance is left out, and
the counts (fixed, kept, rejected, stale) are in the John's report.  A patch entry applies only while the machine reference is still the
one reviewed (``was``); a changed translation is counted as ``stale`` and left as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from arena.sdk import Flag, Flagged, Instance, current


def apply_repairs(instances: Iterable[Instance], repairs: dict[str, dict[str, Any]],
                  counts: Counter[str]) -> Iterator[Instance]:
    """The instances with the patch applied; ``counts`` gets fixed / kept / rejected / stale."""
    for instance in instances:
        repair = repairs.get(instance.id)
        if repair is None:
            yield instance
            continue
        if not current(repair, instance.reference):
            counts["stale"] += 1
            yield instance
        elif repair["action"] == "reject":
            counts["rejected"] += 1
        elif repair["action"] == "keep":
            counts["kept"] += 1
            yield Instance(instance.id, instance.source, instance.reference, {**instance.meta, "reviewed": "kept"})
        else:
            counts["fixed"] += 1
            meta = {**instance.meta, "repaired": True, "unrepaired_reference": instance.reference}
            yield Instance(instance.id, instance.source, repair["reference"], meta)


def flagged(instances: Iterable[Instance], zellig: Any) -> Iterator[Flagged]:
    """The machine-reference instances whose reference validation flags for ``zellig``'s
    phenomena, with the flags (phenomenon, evidence)."""
    from performers.john.validation import FLAGGED, validate

    for instance in instances:
        human = instance.meta.get("human_reference")
        if not isinstance(human, str):
            continue
        human_instance = Instance(instance.id, instance.source, human, instance.meta)
        checks = validate(human, zellig.corrupt(human_instance), instance.reference, zellig.corrupt(instance))
        found = tuple(Flag(check.phenomenon, check.evidence) for check in checks.values() if check.status == FLAGGED)
        if found:
            yield Flagged(instance, found)
