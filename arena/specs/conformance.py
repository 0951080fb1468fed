"""Conformance checks every performer must pass (in the spirit of PettingZoo's API test).

Each ``check_*`` function returns a list of problems (empty when the performer
conforms); :func:`assert_conforms` raises with all of them.  Implementers of new
performers run these in their tests; the project runs them over the whole catalog.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from arena.edits import apply_edits
from arena.records import Instance, Judgement, Pair, Variant
from arena.roles import Chooser, Observer, take


def _json_problem(value: Any, where: str) -> list[str]:
    try:
        json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as error:
        return [f"{where} is not JSON-serialisable: {error}"]
    return []


def check_john(john: Any, limit: int = 200) -> list[str]:
    """Instances are :class:`Instance` records with unique ids, non-empty texts,
    JSON-serialisable meta, in the same order on every call."""
    problems: list[str] = []
    if not callable(getattr(john, "instances", None)):
        return ["has no instances() method"]
    if not isinstance(getattr(type(john), "version", None), str):
        problems.append("class has no string 'version' attribute")
    first = list(take(john.instances(), limit))
    second = list(take(john.instances(), limit))
    if first != second:
        problems.append("instances() is not deterministic: two calls gave different instances")
    seen: set[str] = set()
    for instance in first:
        if not isinstance(instance, Instance):
            problems.append(f"yielded {type(instance).__name__}, not Instance")
            continue
        if not isinstance(instance.id, str) or not instance.id:
            problems.append(f"instance id {instance.id!r} is not a non-empty string")
        if instance.id in seen:
            problems.append(f"duplicate instance id {instance.id!r}")
        seen.add(instance.id)
        for name in ("source", "reference"):
            text = getattr(instance, name)
            if not isinstance(text, str) or not text.strip():
                problems.append(f"{instance.id}: empty {name}")
        problems += _json_problem(instance.meta, f"{instance.id}: meta")
    if isinstance(john, Observer):
        problems += check_observer(john)
    return problems


def check_variant(instance: Instance, variant: Any) -> list[str]:
    """A variant belongs to its instance, differs from the reference, and its edits
    reproduce its text from the reference."""
    if not isinstance(variant, Variant):
        return [f"{instance.id}: returned {type(variant).__name__}, not Variant"]
    problems = []
    where = f"{instance.id}: variant {variant.text!r}"
    if variant.instance_id != instance.id:
        problems.append(f"{where}: instance_id {variant.instance_id!r} is not {instance.id!r}")
    if not isinstance(variant.phenomenon, str) or not variant.phenomenon:
        problems.append(f"{where}: empty phenomenon label")
    if variant.text == instance.reference:
        problems.append(f"{where}: identical to the reference")
    if not variant.edits:
        problems.append(f"{where}: has no edits")
    else:
        try:
            rebuilt = apply_edits(instance.reference, variant.edits)
        except ValueError as error:
            problems.append(f"{where}: edits do not apply: {error}")
        else:
            if rebuilt != variant.text:
                problems.append(f"{where}: edits give {rebuilt!r}")
    problems += _json_problem(variant.meta, f"{where}: meta")
    return problems


def check_zellig(zellig: Any, instances: Sequence[Instance]) -> list[str]:
    """``corrupt`` returns a list (``[]`` when nothing applies, never ``None``), is a
    deterministic function of the instance, and every variant passes
    :func:`check_variant`.  ``detect``, if offered, returns a bool."""
    problems: list[str] = []
    if not callable(getattr(zellig, "corrupt", None)):
        return ["has no corrupt() method"]
    if not isinstance(getattr(type(zellig), "version", None), str):
        problems.append("class has no string 'version' attribute")
    for instance in instances:
        variants = zellig.corrupt(instance)
        if not isinstance(variants, list):
            problems.append(f"{instance.id}: corrupt returned {type(variants).__name__}, not a list")
            continue
        if zellig.corrupt(instance) != variants:
            problems.append(f"{instance.id}: corrupt is not deterministic")
        for variant in variants:
            problems += check_variant(instance, variant)
    if isinstance(zellig, Chooser):
        problems += check_chooser(zellig, instances)
    detect = getattr(zellig, "detect", None)
    if callable(detect) and instances:
        verdict = detect(instances[0].reference)
        if not isinstance(verdict, bool):
            problems.append(f"detect returned {type(verdict).__name__}, not bool")
    return problems


def check_chooser(zellig: Any, instances: Sequence[Instance]) -> list[str]:
    """A choosing Zellig's ``choose`` returns an index into the candidates it is
    given, the same one for the same RNG state (all its randomness from the RNG)."""
    import random

    problems: list[str] = []
    for instance in instances:
        candidates = zellig.corrupt(instance)
        if not candidates:
            continue
        picks = [zellig.choose(instance, candidates, random.Random(f"check/{instance.id}")) for _ in range(2)]
        if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < len(candidates) for p in picks):
            problems.append(f"{instance.id}: choose returned {picks[0]!r}, not an index below {len(candidates)}")
        elif picks[0] != picks[1]:
            problems.append(f"{instance.id}: choose is not a function of the instance, candidates and RNG")
    return problems


def check_observer(performer: Any) -> list[str]:
    """An observing performer accepts an empty block of outcomes."""
    try:
        performer.observe([])
    except Exception as error:  # noqa: BLE001 - any failure is a conformance problem
        return [f"observe([]) raised {type(error).__name__}: {error}"]
    return []


def check_claude(claude: Any, pairs: Sequence[Pair]) -> list[str]:
    """``judge([])`` is ``[]``; one :class:`Judgement` per pair; indices in range;
    scores, when given, one per candidate; the same answers batched or one by one."""
    problems: list[str] = []
    if not callable(getattr(claude, "judge", None)):
        return ["has no judge() method"]
    if not isinstance(getattr(type(claude), "version", None), str):
        problems.append("class has no string 'version' attribute")
    if claude.judge([]) != []:
        problems.append("judge([]) did not return []")
    judgements = claude.judge(list(pairs))
    if not isinstance(judgements, list) or len(judgements) != len(pairs):
        return problems + [f"judge returned {len(judgements) if isinstance(judgements, list) else judgements!r} "
                           f"judgements for {len(pairs)} pairs"]
    for pair, judgement in zip(pairs, judgements):
        if not isinstance(judgement, Judgement):
            problems.append(f"{pair.id}: {type(judgement).__name__}, not Judgement")
            continue
        if judgement.corrupted is not None and judgement.corrupted not in range(len(pair.candidates)):
            problems.append(f"{pair.id}: corrupted index {judgement.corrupted!r} out of range")
        if judgement.scores is not None and len(judgement.scores) != len(pair.candidates):
            problems.append(f"{pair.id}: {len(judgement.scores)} scores for {len(pair.candidates)} candidates")
    if isinstance(claude, Observer):
        problems += check_observer(claude)
    if pairs:
        single = claude.judge([pairs[0]])
        if single and single[0].corrupted != judgements[0].corrupted:
            problems.append(f"{pairs[0].id}: a different answer when judged alone than in a batch")
    return problems


def assert_conforms(problems: list[str], what: str) -> None:
    if problems:
        listed = "\n  ".join(problems[:20])
        more = f"\n  … and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise AssertionError(f"{what} does not conform:\n  {listed}{more}")
