"""Second opinions on people's corruptions: another person checks each submitted pair
(is the edit really an error of the stated phenomenon?), and the arena reports how often
checkers accept an author's pairs and how often two checkers agree.

A check is written once per (checker, author, instance) to ``RUN/people/CHECKER/checks.jsonl``
with the verdict (``valid`` true or false) and the time; nobody checks their own pairs.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

from arena.record import people_store as store

CHECKS = "checks.jsonl"


def check_file(run_dir: Path, name: str) -> store.PersonFile:
    return store.PersonFile(run_dir, name, CHECKS, "key")


def submissions(run_dir: Path) -> list[dict[str, Any]]:
    """Every person's corruptions (with a variant) as ``{author, instance, variant, time}``."""
    found = []
    for author in store.people(run_dir):
        for record in store.corruption_file(run_dir, author).read().values():
            if record.get("variant"):
                found.append({"author": author, "instance": record["instance"], "variant": record["variant"],
                              "time": record.get("time")})
    return found


def next_to_check(run_dir: Path, name: str) -> dict[str, Any] | None:
    """A pair by someone else that ``name`` has not checked yet (oldest author first), or ``None``."""
    done = check_file(run_dir, name).read()
    for item in submissions(run_dir):
        if item["author"] != name and f"{item['author']}/{item['instance']['id']}" not in done:
            return item
    return None


def record_check(run_dir: Path, name: str, author: str, instance_id: str, valid: bool) -> tuple[dict[str, Any], bool]:
    """Write ``name``'s verdict on ``author``'s corruption of ``instance_id`` (once)."""
    store.check_name(author)
    if author == store.check_name(name):
        raise ValueError("nobody checks their own corruptions")
    known = {item["instance"]["id"] for item in submissions(run_dir) if item["author"] == author}
    if instance_id not in known:
        raise ValueError(f"{author} has submitted no corruption of {instance_id!r}")
    record = {"key": f"{author}/{instance_id}", "author": author, "instance": instance_id, "valid": bool(valid),
              "checker": name, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    return check_file(run_dir, name).write_once(record)


def agreement(run_dir: Path) -> dict[str, Any]:
    """Acceptance per author and overall, and the agreement of checkers on pairs two of them checked."""
    verdicts: dict[str, dict[str, bool]] = {}  # pair key -> checker -> valid
    for checker in store.people(run_dir):
        for record in check_file(run_dir, checker).read().values():
            verdicts.setdefault(record["key"], {})[checker] = bool(record["valid"])
    authors: dict[str, list[bool]] = {}
    for key, by_checker in verdicts.items():
        authors.setdefault(key.split("/", 1)[0], []).extend(by_checker.values())
    pairs = [(a, b) for by_checker in verdicts.values()
             for a, b in itertools.combinations(sorted(by_checker.values()), 2)]
    checks = [v for values in authors.values() for v in values]
    return {
        "pairs_checked": len(verdicts),
        "checks": len(checks),
        "accepted": _share(checks),
        "by_author": {author: {"checks": len(values), "accepted": _share(values)} for author, values in
                      sorted(authors.items())},
        "checker_pairs": len(pairs),
        "checker_agreement": _share([a == b for a, b in pairs]),
    }


def _share(values: list[bool]) -> float | None:
    return sum(values) / len(values) if values else None
