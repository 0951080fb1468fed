"""People repair the machine references that validation flagged: the patch file and the review.

Validation (:mod:`performers.john.validation`) *flags* a machine reference that already
shows the error a Zellig inserts (*erwartet* where the human wrote *unerwartet*).  People
review each flagged reference, in the terminal (``arena repair``) or the browser
(``arena repair --serve``, :mod:`arena.people.repair_web`), and **fix** it (type the
corrected translation), **keep** it (the reference is right, the flag is wrong: it stays,
marked as reviewed), **reject** it (the instance stays out) or **skip** it (decide
later).  Both front ends use :class:`RepairReview`, so they ask, check and write the same
way.  The decisions are a patch file (:mod:`arena.formats.repairs`), JSON lines beside the test set::

    {"id": "newstest2012.17", "action": "fix", "was": "…", "reviewer": "ann", "time": "…", "reference": "…"}
    {"id": "newstest2012.40", "action": "reject", "was": "…", "reviewer": "ann", "time": "…"}
    {"id": "newstest2012.52", "action": "keep", "was": "…", "reviewer": "bob", "time": "…"}

that the ``mt-reference`` John applies (``repairs: FILE``,
:func:`performers.john.repairs.apply_repairs`).  Each id is decided once (a decision made
on a machine reference that has changed since is *stale*: not applied, and up for review
again): a decision is
written under a lock beside the file (``.NAME.lock``, threads and processes) after
re-reading it, and the file is replaced whole by rename (:func:`arena.record.transcripts.atomic_write_text`),
so two people at once, or a browser and a terminal, never lose or duplicate a decision
and a reader never sees half a line; the second decision on an id is refused and the
first stands.  In the browser, a reference shown to one person is held for them for
:data:`HOLD_SECONDS`, so that two people get different references.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.errors import UsageError
from arena.formats.repairs import ACTIONS, Flagged, current, decision_problem, read_repairs
from arena.record import people_store as store
from arena.record.transcripts import atomic_write_text, dumps_line
from arena.records import Instance

COUNTED = {"fix": "fixed", "keep": "kept", "reject": "rejected"}  # the summary's name of each action
MAX_REFERENCE = 2000  # characters of a fixed reference
HOLD_SECONDS = 600.0  # a reference shown in the browser is kept for that person this long


def repair_record(instance: Instance, action: str, reviewer: str, reference: str | None = None) -> dict[str, Any]:
    """One decision, checked: a fix needs a one-line text (at most :data:`MAX_REFERENCE`
    characters, passing the text policy) that differs from the machine reference; a keep
    takes no text or the machine reference unchanged (:class:`UsageError` otherwise)."""
    if action not in ACTIONS:
        raise UsageError(f"action must be fix, keep or reject, not {action!r}", key="action")
    record: dict[str, Any] = {"id": instance.id, "action": action, "was": instance.reference,
                              "reviewer": store.check_name(reviewer),
                              "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    text = reference.strip() if isinstance(reference, str) else reference
    if action == "fix" and isinstance(text, str) and len(text) > MAX_REFERENCE:
        raise UsageError(f"the corrected reference must be one line of at most {MAX_REFERENCE} characters",
                         key="reference")
    problem = decision_problem({**record, "reference": text})  # what the patch file's reader refuses too
    if problem is not None:
        raise UsageError(problem, key="reference")
    if action == "fix":
        if text == instance.reference:
            raise UsageError("the corrected reference is the machine reference unchanged: keep it instead "
                             "(the flag is wrong), or skip or reject it", key="reference")
        record["reference"] = text
    return record


def write_once(path: str | Path, record: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Add ``record`` to the patch file unless its id is decided already (on the same
    machine reference); return the decision that stands and whether it was written now
    (see the module docstring)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with store.lock_file(path.with_name(f".{path.name}.lock")):
        existing = read_repairs(path).get(record["id"])
        if existing is not None and current(existing, record["was"]):
            return existing, False
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if text and not text.endswith("\n"):
            text += "\n"
        atomic_write_text(path, text + dumps_line(record))
    return record, True


class RepairReview:
    """The flagged references under review and the patch file's decisions; one per
    server or terminal, safe to share between threads."""

    def __init__(self, patch: str | Path, items: Sequence[Flagged], hold_seconds: float = HOLD_SECONDS):
        self.patch = Path(patch)
        self.items = list(items)
        self.by_id = {item.instance.id: item for item in self.items}
        self.hold_seconds = hold_seconds
        self._held: dict[str, tuple[str, float]] = {}
        self._skipped: dict[str, set[str]] = {}
        self._lock = threading.Lock()
        self.decided_before = len(self.decisions())  # a bad patch file fails here, before any work

    def decisions(self) -> dict[str, dict[str, Any]]:
        """The patch file's current decisions on the references under review."""
        return {key: record for key, record in read_repairs(self.patch).items()
                if key in self.by_id and current(record, self.by_id[key].instance.reference)}

    def pending(self) -> list[Flagged]:
        """The references nobody has decided yet, in order."""
        decided = self.decisions()
        return [item for item in self.items if item.instance.id not in decided]

    def next_for(self, name: str) -> Flagged | None:
        """The next reference for ``name``: the first undecided one that ``name`` has not
        skipped and nobody else holds; it is held for ``name`` from now on."""
        pending = self.pending()
        now = time.monotonic()
        with self._lock:
            skipped = self._skipped.get(name, set())
            for item in pending:
                key = item.instance.id
                holder = self._held.get(key)
                if key in skipped or (holder and holder[0] != name and now - holder[1] < self.hold_seconds):
                    continue
                if holder is None or holder[0] != name:
                    self._held[key] = (name, now)
                return item
        return None

    def skip(self, name: str, key: str) -> None:
        """``name`` decides on ``key`` later: it goes to the others, and back to ``name`` after :meth:`unskip`."""
        with self._lock:
            self._skipped.setdefault(name, set()).add(key)
            if self._held.get(key, ("",))[0] == name:
                del self._held[key]

    def unskip(self, name: str) -> None:
        with self._lock:
            self._skipped.pop(name, None)

    def decide(self, name: str, key: str, action: str, reference: str | None = None) -> tuple[dict[str, Any], bool]:
        """Write ``name``'s decision on ``key`` once (:func:`write_once`); the decision
        that stands and whether it is this one."""
        item = self.by_id.get(key)
        if item is None:
            raise UsageError(f"{key!r} is not one of the flagged references under review")
        result = write_once(self.patch, repair_record(item.instance, action, name, reference))
        with self._lock:
            self._held.pop(key, None)
            self._skipped.get(name, set()).discard(key)
        return result

    def progress(self, name: str | None = None) -> dict[str, int]:
        """How many references are under review, fixed, kept, rejected and left (and, for
        ``name``, how many of those left they skipped)."""
        decisions = self.decisions()
        counts = Counter(record["action"] for record in decisions.values())
        left = len(self.items) - len(decisions)
        with self._lock:
            skipped = len(self._skipped.get(name, set()) - set(decisions)) if name else 0
        return {"total": len(self.items), **{COUNTED[action]: counts[action] for action in ACTIONS}, "left": left,
                "skipped": skipped}
