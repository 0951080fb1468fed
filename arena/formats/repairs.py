"""The repair patch file: people's decisions on flagged machine references, JSON lines
beside the test set, read by the ``mt-reference`` John and written by the review
(:mod:`arena.people.repairs`, where the whole workflow is described)::

    {"id": "newstest2012.17", "action": "fix", "was": "…", "reviewer": "ann", "time": "…", "reference": "…"}
    {"id": "newstest2012.40", "action": "reject", "was": "…", "reviewer": "ann", "time": "…"}
    {"id": "newstest2012.52", "action": "keep", "was": "…", "reviewer": "ann", "time": "…"}

A fixed reference passes the text policy (:mod:`arena.text_policy`); a keep leaves the
reference as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import DataError
from arena.records import Instance
from arena.specs.yamlio import iter_jsonl
from arena.text_policy import text_problem

ACTIONS = ("fix", "keep", "reject")
KEEP_CHANGED = ("a keep leaves the reference as it is, but this one has a changed text: "
                "fix it to save the change, or keep it unchanged")


@dataclass(frozen=True)
class Flag:
    """Why validation flagged a reference: the phenomenon and its evidence (``Unklarheit → Klarheit``)."""

    phenomenon: str
    evidence: str = ""


@dataclass(frozen=True)
class Flagged:
    """A machine-reference instance (``meta["human_reference"]`` holds the human one) and its flags."""

    instance: Instance
    flags: tuple[Flag, ...]


def read_repairs(path: str | Path) -> dict[str, dict[str, Any]]:
    """The patch file's decisions by instance id (none when it does not exist yet); a bad
    line is a :class:`DataError` naming the file, line and key.  Should an id appear twice
    (a file edited by hand), the last line stands."""
    path = Path(path)
    repairs: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return repairs
    for line, record in iter_jsonl(path):  # bounded: depth, line size, unpaired surrogates
        if not isinstance(record, dict) or record.get("action") not in ACTIONS or not isinstance(record.get("id"), str):
            raise DataError("expected {\"id\", \"action\": fix|keep|reject, ...}", file=path, line=line, key="action")
        problem = decision_problem(record)
        if problem is not None:
            raise DataError(problem, file=path, line=line, key="reference")
        repairs[record["id"]] = record
    return repairs


def decision_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with a patch line's ``reference`` for its action, or ``None``."""
    reference, action = record.get("reference"), record["action"]
    if action == "fix":
        if not (isinstance(reference, str) and reference.strip()):
            return "a fix needs the corrected 'reference'"
        problem = text_problem(reference)
        return f"the corrected reference {problem}" if problem else None
    if action == "keep" and reference is not None and reference != record.get("was"):
        return KEEP_CHANGED
    return None


def current(decision: dict[str, Any], reference: str) -> bool:
    """Whether ``decision`` was made on ``reference`` (a stale one, made on a machine
    reference that has changed since, is neither applied nor in the way of a new one)."""
    return decision.get("was") in (None, reference)
