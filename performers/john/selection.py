"""Selecting a test set: the instances of a John that exemplify a Zellig's phenomena.

Smith's John "selects data to exemplify phenomena of interest".  :func:`select` takes
a John's instances and a Zellig and returns the instances the Zellig applies to, with
their variants, under these rules (applied in this order; every instance that is left
out is counted under exactly one reason in ``report["instances"]``):

1. **length** — ``min_words`` / ``max_words`` bound the words (split at whitespace)
   of the *source*, which a human- and an MT-reference John share, so both keep the
   same sentences (``too_short`` / ``too_long``);
2. **line breaks** — an instance whose source or reference holds a character that
   ``str.splitlines`` breaks at (newstest has a few U+0085 inside lines) cannot be
   written to line-aligned test-set files, and is left out (``line_break``);
3. **deduplication** — ``dedup="source"`` keeps the first instance of each source
   (whitespace-normalised, case-folded), ``"pair"`` of each (source, reference),
   ``"none"`` keeps all (``duplicate``);
4. **prefilter** — an optional regular expression that the reference (or, for a
   machine reference, the human one beside it) must match before the Zellig runs:
   a cheap *necessary* condition of the Zellig applying (``(?i)\\bun`` for
   polarity_affix_del, the prepositions for hypercorrect_genitive), which saves
   analysing sentences that cannot qualify.  It is the user's claim that it is
   necessary; a prefilter that is not changes the test set (``prefiltered``);
5. **the Zellig applies** — it makes at least one variant of the reference
   (``zellig_not_applicable``); variants identical to the reference or to another
   are dropped by :func:`arena.engine.match.corrupt_one`;
6. **validation** of machine references (``validate=True``, the default): instances
   whose ``meta["human_reference"]`` is set are checked phenomenon by phenomenon
   against the human reference (:mod:`performers.john.validation`); only kept
   phenomena, with their aligned variants, remain (``rejected_by_validation`` when
   none does).  Kept / flagged / dropped per phenomenon are in ``report["validation"]``;
7. **caps per phenomenon with stratified, seeded sampling** — at most ``cap``
   instances per phenomenon.  Instances are ranked by a hash of ``seed`` and their id
   (so the rank of one sentence never depends on the others, and a human- and an
   MT-reference John over the same ids sample the same sentences where both apply).
   With ``stratify`` (a metadata key, ``origin`` by default: the test set, e.g.
   ``newstest2009``), the cap is split over the strata in proportion to their sizes
   (largest remainder), each stratum contributes its best-ranked applicable
   instances, and what a stratum cannot fill goes to the others in proportion to
   theirs.  Strata are scanned lazily in rank order and a stratum stops once its
   quota of every phenomenon seen so far is filled, so the Zellig never runs on
   sentences a capped test set does not need (``not_scanned``; ``over_cap`` for
   applicable instances beyond the caps).  A phenomenon that a Zellig produces only
   alongside a more frequent one may be seen late; name all phenomena in
   ``phenomena`` to have each filled to its cap in every stratum;
8. **variants per instance** — ``variants_per_instance`` (1 by default, as in most
   DistilLingEval sets) keeps that many variants per (instance, phenomenon), sampled by
   a hash of seed, id and variant text (``None``: all; counted in ``variants_over_cap``).

Selected instances keep the John's order.  The :class:`~performers.john.select.SelectJohn`
performer (catalog name ``select``) wraps it for experiments: its instances carry their chosen
variants in ``meta["variants"]``, so the ``replay`` Zellig plays exactly the selected
test set.
"""

from __future__ import annotations

import logging
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena.sdk import ConfigError, Instance, Variant, has_line_break
from performers.john.quotas import allocate, rank
from performers.john.scanner import Scanner
from performers.john.selection_records import (
    REASONS,
    Selected,
    Selection,
    SelectionOptions,
    stratum_of,
)

logger = logging.getLogger(__name__)

def _normalised(text: str) -> str:
    return " ".join(text.split()).casefold()


def _passes(prefilter: re.Pattern[str], instance: Instance) -> bool:
    """Whether the reference (or the human reference kept beside a machine one)
    matches the prefilter."""
    if prefilter.search(instance.reference):
        return True
    human = instance.meta.get("human_reference")
    return isinstance(human, str) and prefilter.search(human) is not None


def select(
    instances: Iterable[Instance],
    zellig: Any,
    options: SelectionOptions | None = None,
    progress: bool = True,
    john: str = "",
    zellig_label: str = "",
    john_report: Mapping[str, Any] | None = None,
) -> Selection:
    """Select the instances that exemplify ``zellig``'s phenomena (module docstring)."""
    from arena.sdk import progress_bar

    options = options or SelectionOptions()
    pool = list(instances)
    ids = Counter(instance.id for instance in pool)
    duplicates = [key for key, count in ids.items() if count > 1]
    if duplicates:
        raise ConfigError(f"John {john or '?'} yielded duplicate instance id(s): {', '.join(duplicates[:5])}")
    reasons: Counter[str] = Counter()
    eligible = _eligible(pool, options, reasons)

    strata: dict[str, list[Instance]] = defaultdict(list)
    for instance in eligible:
        strata[stratum_of(instance, options.stratify)].append(instance)
    for members in strata.values():
        members.sort(key=lambda i: (rank(options.seed, i.id), i.id))
    sizes = {name: len(members) for name, members in sorted(strata.items())}

    with progress_bar(total=len(eligible), desc=f"select {zellig_label or 'zellig'}", enabled=progress) as bar:
        scanner = Scanner(zellig, options, bar)
        if options.cap is None:
            chosen = _take_all(eligible, scanner)
        else:
            chosen = _take_capped(strata, sizes, options, scanner)

    items = _assemble(eligible, chosen, scanner, options)
    selected_ids = {item.instance.id for item in items}
    for instance in eligible:
        reasons[_outcome_reason(instance, selected_ids, scanner)] += 1
    assert sum(reasons.values()) == len(pool), "selection accounting must cover every instance"
    report = _report(pool, eligible, strata, chosen, items, reasons, scanner, options, john, zellig_label, john_report)
    for reason in REASONS[:-1]:
        if reasons[reason]:
            logger.debug("select %s: left out %d of %d instances: %s", zellig_label, reasons[reason], len(pool), reason)
    return Selection(items, report)


def _eligible(pool: Sequence[Instance], options: SelectionOptions, reasons: Counter[str]) -> list[Instance]:
    """The instances that pass the length, line-break, duplicate and prefilter checks;
    each one left out is counted under its reason."""
    eligible: list[Instance] = []
    seen: set[Any] = set()
    prefilter = re.compile(options.prefilter) if options.prefilter is not None else None
    for instance in pool:
        reason = _ineligible_reason(instance, options, seen, prefilter)
        if reason is None:
            eligible.append(instance)
        else:
            reasons[reason] += 1
    return eligible


def _ineligible_reason(
    instance: Instance, options: SelectionOptions, seen: set[Any], prefilter: re.Pattern[str] | None
) -> str | None:
    """Why ``instance`` is not eligible, or None; records its dedup key in ``seen``."""
    words = len(instance.source.split())
    if options.min_words is not None and words < options.min_words:
        return "too_short"
    if options.max_words is not None and words > options.max_words:
        return "too_long"
    if has_line_break(instance.source) or has_line_break(instance.reference):
        return "line_break"
    if options.dedup != "none":
        key: Any = _normalised(instance.source)
        if options.dedup == "pair":
            key = (key, _normalised(instance.reference))
        if key in seen:
            return "duplicate"
        seen.add(key)
    if prefilter is not None and not _passes(prefilter, instance):
        return "prefiltered"
    return None


def _outcome_reason(instance: Instance, selected_ids: set[str], scanner: Scanner) -> str:
    """What became of an eligible instance: selected, or why not."""
    outcome = scanner.outcomes.get(instance.id)
    if instance.id in selected_ids:
        return "selected"
    if outcome is None:
        return "not_scanned"
    if not outcome.applicable:
        return "zellig_not_applicable"
    if not outcome.variants:
        return "rejected_by_validation"
    return "over_cap"


def _take_all(eligible: Sequence[Instance], scanner: Scanner) -> dict[str, list[Instance]]:
    chosen: dict[str, list[Instance]] = defaultdict(list)
    for instance in eligible:
        for phenomenon in scanner(instance).variants:
            chosen[phenomenon].append(instance)
    return dict(chosen)


def _take_capped(
    strata: Mapping[str, list[Instance]],
    sizes: Mapping[str, int],
    options: SelectionOptions,
    scanner: Scanner,
) -> dict[str, list[Instance]]:
    """Lazy stratified sampling: per phenomenon and stratum the best-ranked applicable
    instances up to the stratum's quota, quotas redistributed from strata that run dry."""
    assert options.cap is not None
    cap: int = options.cap
    cursor = {name: 0 for name in sizes}
    # candidates[phenomenon][stratum]: applicable instances in rank order, as scanned
    candidates: dict[str, dict[str, list[Instance]]] = defaultdict(lambda: defaultdict(list))
    known: list[str] = list(options.phenomena or ())

    def step(name: str) -> bool:
        """Scan the next instance of a stratum; False when it is exhausted."""
        if cursor[name] >= sizes[name]:
            return False
        instance = strata[name][cursor[name]]
        cursor[name] += 1
        for phenomenon in scanner(instance).variants:
            candidates[phenomenon][name].append(instance)
            if phenomenon not in known:
                known.append(phenomenon)
        return True

    quotas: dict[str, dict[str, int]] = {}

    def fill(phenomenon: str) -> None:
        # allocate_quotas without knowing the applicable counts in advance: a stratum is
        # found short only by scanning it to its end
        found = candidates[phenomenon]
        quota = allocate(cap, sizes)
        fixed: set[str] = set()
        while True:
            for name in sizes:
                while len(found[name]) < quota[name] and step(name):
                    pass
            if not _reallocate_short(quota, {n: len(found[n]) for n in sizes}, sizes, fixed):
                break
        quotas[phenomenon] = quota

    # discover phenomena (round-robin over strata) when none is named
    while not known and any(cursor[n] < sizes[n] for n in sizes):
        for name in sizes:
            step(name)
    done: set[str] = set()
    while len(done) < len(known):
        phenomenon = next(p for p in known if p not in done)
        fill(phenomenon)
        done.add(phenomenon)
    return {
        phenomenon: [i for name in sizes for i in candidates[phenomenon][name][: quotas[phenomenon][name]]]
        for phenomenon in known
        if phenomenon in candidates
    }


def _reallocate_short(quota: dict[str, int], found: Mapping[str, int], sizes: Mapping[str, int], fixed: set[str]) -> bool:
    """Cap each stratum that ran dry (fewer ``found`` than its quota) at what it found,
    mark it ``fixed``, and hand its deficit to the strata not fixed in proportion to their
    sizes; False when no stratum is short or none is left to take the deficit."""
    short = [n for n in sizes if n not in fixed and found[n] < quota[n]]
    if not short:
        return False
    deficit = sum(quota[n] - found[n] for n in short)
    for name in short:
        quota[name] = found[name]
        fixed.add(name)
    rest = {n: sizes[n] for n in sizes if n not in fixed}
    if not rest:
        return False
    for name, amount in allocate(deficit, rest).items():
        quota[name] += amount
    return True


def _choose_variants(instance: Instance, variants: Sequence[Variant], limit: int | None, seed: int) -> list[Variant]:
    if limit is None or len(variants) <= limit:
        return list(variants)
    keep = set(sorted(range(len(variants)), key=lambda k: (rank(seed, f"{instance.id}/{variants[k].text}"), k))[:limit])
    return [variant for k, variant in enumerate(variants) if k in keep]


def _assemble(
    eligible: Sequence[Instance],
    chosen: Mapping[str, Sequence[Instance]],
    scanner: Scanner,
    options: SelectionOptions,
) -> list[Selected]:
    by_instance: dict[str, list[str]] = defaultdict(list)
    for phenomenon in sorted(chosen):
        for instance in chosen[phenomenon]:
            by_instance[instance.id].append(phenomenon)
    items = []
    for instance in eligible:
        phenomena = by_instance.get(instance.id)
        if not phenomena:
            continue
        outcome = scanner.outcomes[instance.id]
        picked: set[int] = set()
        for phenomenon in phenomena:
            kept = _choose_variants(instance, outcome.variants[phenomenon], options.variants_per_instance, options.seed)
            picked.update(id(variant) for variant in kept)
        ordered = tuple(v for p in phenomena for v in outcome.variants[p] if id(v) in picked)
        items.append(Selected(instance, ordered, tuple(phenomena), stratum_of(instance, options.stratify), outcome.checks))
    return items


def _report(
    pool: Sequence[Instance],
    eligible: Sequence[Instance],
    strata: Mapping[str, Sequence[Instance]],
    chosen: Mapping[str, Sequence[Instance]],
    items: Sequence[Selected],
    reasons: Counter[str],
    scanner: Scanner,
    options: SelectionOptions,
    john: str,
    zellig_label: str,
    john_report: Mapping[str, Any] | None,
) -> dict[str, Any]:
    phenomena: dict[str, Any] = {}
    all_candidates: dict[str, int] = Counter()
    for outcome in scanner.outcomes.values():
        for phenomenon in outcome.variants:
            all_candidates[phenomenon] += 1
    for phenomenon in sorted(set(all_candidates) | set(chosen)):
        selected = [item for item in items if phenomenon in item.phenomena]
        usable = sum(len(scanner.outcomes[item.instance.id].variants[phenomenon]) for item in selected)
        pairs = sum(1 for item in selected for v in item.variants if v.phenomenon == phenomenon)
        by_stratum = Counter(item.stratum for item in selected)
        phenomena[phenomenon] = {
            "candidates": int(all_candidates[phenomenon]),
            "selected": len(selected),
            "pairs": pairs,
            "variants_over_cap": usable - pairs,
            "by_stratum": dict(sorted(by_stratum.items())),
        }
    scanned_by_stratum = Counter(stratum_of(i, options.stratify) for i in eligible if i.id in scanner.outcomes)
    kinds = Counter(str(item.instance.meta.get("reference_kind", "unknown")) for item in items)
    systems = Counter(str(item.instance.meta["system"]) for item in items if "system" in item.instance.meta)
    report: dict[str, Any] = {
        "john": john,
        "zellig": zellig_label,
        "options": options.to_json(),
        "pool": len(pool),
        "instances": {reason: int(reasons[reason]) for reason in REASONS},
        "scanned": len(scanner.outcomes),
        "strata": {
            name: {"eligible": len(members), "scanned": int(scanned_by_stratum[name])}
            for name, members in sorted(strata.items())
        },
        "selected": len(items),
        "pairs": sum(len(item.variants) for item in items),
        "duplicate_variants": scanner.duplicate_variants,
        "phenomena": phenomena,
        "reference_kinds": dict(sorted(kinds.items())),
    }
    if systems:
        report["systems"] = dict(sorted(systems.items()))
    if scanner.validated:
        report["validation"] = scanner.validation.to_json()
    if john_report:
        report["john_report"] = dict(john_report)
    return report
