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

Selected instances keep the John's order.  The :class:`SelectJohn` performer
(catalog name ``select``) wraps it for experiments: its instances carry their chosen
variants in ``meta["variants"]``, so the ``replay`` Zellig plays exactly the selected
test set.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any, Literal

from annotated_types import Gt, Le

from arena.engine.match import corrupt_one
from arena.errors import ConfigError
from arena.formats.textlines import has_line_break
from arena.records import Instance, Variant
from arena.specs.typecheck import Name, Performer, PositiveInt
from performers.john.validation import KEPT, Check, ValidationCounts, validate

logger = logging.getLogger(__name__)

DEDUP_MODES = ("source", "pair", "none")
NO_STRATUM = "(none)"

# exclusive reasons, in the order they are decided
REASONS = (
    "too_short",
    "too_long",
    "line_break",
    "duplicate",
    "prefiltered",
    "not_scanned",
    "zellig_not_applicable",
    "rejected_by_validation",
    "over_cap",
    "selected",
)


@dataclass(frozen=True)
class SelectionOptions:
    """How :func:`select` chooses (see the module docstring)."""

    cap: int | None = None
    seed: int = 1
    stratify: str | None = "origin"
    dedup: str = "source"
    min_words: int | None = None
    max_words: int | None = None
    variants_per_instance: int | None = 1
    validate: bool = True
    phenomena: tuple[str, ...] | None = None
    max_phrase_words: int = 5
    min_overlap: float = 0.5
    prefilter: str | None = None

    def __post_init__(self) -> None:
        for name in ("cap", "min_words", "max_words", "variants_per_instance"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ConfigError(f"{name} must be a positive integer or null, not {value!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an integer, not {self.seed!r}")
        if self.dedup not in DEDUP_MODES:
            raise ConfigError(f"dedup must be one of {', '.join(DEDUP_MODES)}, not {self.dedup!r}")
        if self.min_words is not None and self.max_words is not None and self.min_words > self.max_words:
            raise ConfigError(f"min_words ({self.min_words}) is larger than max_words ({self.max_words})")
        if self.stratify is not None and (not isinstance(self.stratify, str) or not self.stratify):
            raise ConfigError("stratify must be a metadata key (e.g. origin) or null")
        if not isinstance(self.validate, bool):
            raise ConfigError(f"validate must be true or false, not {self.validate!r}")
        if isinstance(self.max_phrase_words, bool) or not isinstance(self.max_phrase_words, int) or self.max_phrase_words < 1:
            raise ConfigError(f"max_phrase_words must be a positive integer, not {self.max_phrase_words!r}")
        if not isinstance(self.min_overlap, (int, float)) or not 0 < self.min_overlap <= 1:
            raise ConfigError(f"min_overlap must be a number in (0, 1], not {self.min_overlap!r}")
        if self.prefilter is not None:
            if not isinstance(self.prefilter, str) or not self.prefilter:
                raise ConfigError("prefilter must be a regular expression (a string) or null")
            try:
                re.compile(self.prefilter)
            except re.error as error:
                raise ConfigError(f"prefilter {self.prefilter!r} is not a valid regular expression: {error}") from None
        if self.phenomena is not None:
            if isinstance(self.phenomena, str) or not all(isinstance(p, str) and p for p in self.phenomena):
                raise ConfigError("phenomena must be a list of phenomenon labels")
            object.__setattr__(self, "phenomena", tuple(self.phenomena))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["phenomena"] = list(self.phenomena) if self.phenomena is not None else None
        return data


@dataclass(frozen=True)
class Selected:
    """One selected instance: its chosen variants (of every phenomenon it was selected
    for, in the Zellig's order) and, for machine references, the validation checks."""

    instance: Instance
    variants: tuple[Variant, ...]
    phenomena: tuple[str, ...]
    stratum: str
    validation: Mapping[str, Check] | None = None


@dataclass
class Selection:
    """The selected instances (in the John's order) and the report of what was left
    out and why."""

    items: list[Selected]
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def pairs(self) -> int:
        return sum(len(item.variants) for item in self.items)


def rank(seed: int, key: str) -> int:
    """A stable pseudo-random rank of ``key`` under ``seed`` (lower comes first)."""
    return int.from_bytes(hashlib.blake2b(f"{seed}/{key}".encode(), digest_size=8).digest(), "big")


def allocate(total: int, sizes: Mapping[str, int]) -> dict[str, int]:
    """Split ``total`` over strata in proportion to ``sizes`` (largest remainder; ties
    by stratum name); no stratum gets more than its size."""
    pool = sum(sizes.values())
    if total >= pool:
        return dict(sizes)
    shares = {name: total * size / pool for name, size in sizes.items()}
    result = {name: math.floor(share) for name, share in shares.items()}
    left = total - sum(result.values())
    for name in sorted(shares, key=lambda n: (-(shares[n] - result[n]), n))[:left]:
        result[name] += 1
    return result


def allocate_quotas(cap: int, sizes: Mapping[str, int], applicable: Mapping[str, int]) -> dict[str, int]:
    """How many instances of a phenomenon each stratum contributes to a capped sample,
    given every stratum's size and its number of applicable instances.

    The cap is split in proportion to the strata's sizes (:func:`allocate`); a stratum
    with fewer applicable instances than its quota gives all it has, and the shortfall
    is split over the strata not yet found short, in proportion to their sizes, until
    nothing is short.  :func:`select` reaches the same quotas lazily, scanning a stratum
    to its end only when it needs to.
    """
    quota = allocate(cap, sizes)
    fixed: set[str] = set()
    while True:
        short = [n for n in sizes if n not in fixed and applicable.get(n, 0) < quota[n]]
        if not short:
            return quota
        deficit = sum(quota[n] - applicable.get(n, 0) for n in short)
        for name in short:
            quota[name] = applicable.get(name, 0)
            fixed.add(name)
        rest = {n: sizes[n] for n in sizes if n not in fixed}
        if not rest:
            return quota
        for name, amount in allocate(deficit, rest).items():
            quota[name] += amount


def _normalised(text: str) -> str:
    return " ".join(text.split()).casefold()


def _passes(prefilter: re.Pattern[str], instance: Instance) -> bool:
    """Whether the reference (or the human reference kept beside a machine one)
    matches the prefilter."""
    if prefilter.search(instance.reference):
        return True
    human = instance.meta.get("human_reference")
    return isinstance(human, str) and prefilter.search(human) is not None


def _stratum(instance: Instance, key: str | None) -> str:
    if key is None:
        return NO_STRATUM
    value = instance.meta.get(key)
    return NO_STRATUM if value is None else str(value)


@dataclass
class _Outcome:
    """What the Zellig (and validation) made of one scanned instance."""

    variants: dict[str, list[Variant]]  # phenomenon -> usable variants
    applicable: bool
    checks: dict[str, Check] | None = None


class _Scanner:
    """Runs the Zellig (and validation) on instances on demand, once each."""

    def __init__(self, zellig: Any, options: SelectionOptions, progress: Any):
        self.zellig = zellig
        self.options = options
        self.progress = progress
        self.outcomes: dict[str, _Outcome] = {}
        self.validation = ValidationCounts()
        self.duplicate_variants = 0
        self.validated = 0

    def __call__(self, instance: Instance) -> _Outcome:
        outcome = self.outcomes.get(instance.id)
        if outcome is None:
            outcome = self._scan(instance)
            self.outcomes[instance.id] = outcome
            self.progress.update(1)
        return outcome

    def _scan(self, instance: Instance) -> _Outcome:
        corruption = corrupt_one(self.zellig, instance)
        self.duplicate_variants += corruption.dropped
        variants = list(corruption.variants)
        human = instance.meta.get("human_reference")
        machine = instance.meta.get("reference_kind") == "machine"
        if not self.options.validate or not (machine or human is not None):
            groups: dict[str, list[Variant]] = defaultdict(list)
            for variant in variants:
                groups[variant.phenomenon].append(variant)
            return _Outcome(dict(groups), bool(variants))
        if not isinstance(human, str) or not human.strip():
            # a machine reference without its human one cannot be checked
            checks = {
                phenomenon: Check(phenomenon, "dropped", "no_human_reference")
                for phenomenon in sorted({v.phenomenon for v in variants})
            }
            human_variants: list[Variant] = []
        else:
            human_instance = Instance(instance.id, instance.source, human, instance.meta)
            human_variants = list(corrupt_one(self.zellig, human_instance).variants)
            checks = validate(
                human, human_variants, instance.reference, variants,
                self.options.max_phrase_words, self.options.min_overlap,
            )
        if variants or human_variants:
            self.validated += 1
            self.validation.add(instance.id, checks)
        kept = {p: list(check.aligned) for p, check in checks.items() if check.status == KEPT and check.aligned}
        return _Outcome(kept, bool(variants), checks)


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
    from arena.engine.progress import progress_bar

    options = options or SelectionOptions()
    pool = list(instances)
    ids = Counter(instance.id for instance in pool)
    duplicates = [key for key, count in ids.items() if count > 1]
    if duplicates:
        raise ConfigError(f"John {john or '?'} yielded duplicate instance id(s): {', '.join(duplicates[:5])}")
    reasons: Counter[str] = Counter()
    eligible: list[Instance] = []
    seen: set[Any] = set()
    prefilter = re.compile(options.prefilter) if options.prefilter is not None else None
    for instance in pool:
        words = len(instance.source.split())
        if options.min_words is not None and words < options.min_words:
            reasons["too_short"] += 1
            continue
        if options.max_words is not None and words > options.max_words:
            reasons["too_long"] += 1
            continue
        if has_line_break(instance.source) or has_line_break(instance.reference):
            reasons["line_break"] += 1
            continue
        if options.dedup != "none":
            key = _normalised(instance.source)
            if options.dedup == "pair":
                key = (key, _normalised(instance.reference))
            if key in seen:
                reasons["duplicate"] += 1
                continue
            seen.add(key)
        if prefilter is not None and not _passes(prefilter, instance):
            reasons["prefiltered"] += 1
            continue
        eligible.append(instance)

    strata: dict[str, list[Instance]] = defaultdict(list)
    for instance in eligible:
        strata[_stratum(instance, options.stratify)].append(instance)
    for members in strata.values():
        members.sort(key=lambda i: (rank(options.seed, i.id), i.id))
    sizes = {name: len(members) for name, members in sorted(strata.items())}

    with progress_bar(total=len(eligible), desc=f"select {zellig_label or 'zellig'}", enabled=progress) as bar:
        scanner = _Scanner(zellig, options, bar)
        if options.cap is None:
            chosen = _take_all(eligible, scanner)
        else:
            chosen = _take_capped(strata, sizes, options, scanner)

    items = _assemble(eligible, chosen, scanner, options)
    selected_ids = {item.instance.id for item in items}
    for instance in eligible:
        outcome = scanner.outcomes.get(instance.id)
        if instance.id in selected_ids:
            reasons["selected"] += 1
        elif outcome is None:
            reasons["not_scanned"] += 1
        elif not outcome.applicable:
            reasons["zellig_not_applicable"] += 1
        elif not outcome.variants:
            reasons["rejected_by_validation"] += 1
        else:
            reasons["over_cap"] += 1
    assert sum(reasons.values()) == len(pool), "selection accounting must cover every instance"
    report = _report(pool, eligible, strata, chosen, items, reasons, scanner, options, john, zellig_label, john_report)
    for reason in REASONS[:-1]:
        if reasons[reason]:
            logger.debug("select %s: left out %d of %d instances: %s", zellig_label, reasons[reason], len(pool), reason)
    return Selection(items, report)


def _take_all(eligible: Sequence[Instance], scanner: _Scanner) -> dict[str, list[Instance]]:
    chosen: dict[str, list[Instance]] = defaultdict(list)
    for instance in eligible:
        for phenomenon in scanner(instance).variants:
            chosen[phenomenon].append(instance)
    return dict(chosen)


def _take_capped(
    strata: Mapping[str, list[Instance]],
    sizes: Mapping[str, int],
    options: SelectionOptions,
    scanner: _Scanner,
) -> dict[str, list[Instance]]:
    """Lazy stratified sampling: per phenomenon and stratum the best-ranked applicable
    instances up to the stratum's quota, quotas redistributed from strata that run dry."""
    assert options.cap is not None
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
        quota = allocate(options.cap, sizes)
        fixed: set[str] = set()
        while True:
            for name in sizes:
                while len(found[name]) < quota[name] and step(name):
                    pass
            short = [n for n in sizes if n not in fixed and len(found[n]) < quota[n]]
            if not short:
                break
            deficit = sum(quota[n] - len(found[n]) for n in short)
            for name in short:
                quota[name] = len(found[name])
                fixed.add(name)
            rest = {n: sizes[n] for n in sizes if n not in fixed}
            if not rest:
                break
            for name, amount in allocate(deficit, rest).items():
                quota[name] += amount
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


def _choose_variants(instance: Instance, variants: Sequence[Variant], limit: int | None, seed: int) -> list[Variant]:
    if limit is None or len(variants) <= limit:
        return list(variants)
    keep = set(sorted(range(len(variants)), key=lambda k: (rank(seed, f"{instance.id}/{variants[k].text}"), k))[:limit])
    return [variant for k, variant in enumerate(variants) if k in keep]


def _assemble(
    eligible: Sequence[Instance],
    chosen: Mapping[str, Sequence[Instance]],
    scanner: _Scanner,
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
        items.append(Selected(instance, ordered, tuple(phenomena), _stratum(instance, options.stratify), outcome.checks))
    return items


def _report(
    pool: Sequence[Instance],
    eligible: Sequence[Instance],
    strata: Mapping[str, Sequence[Instance]],
    chosen: Mapping[str, Sequence[Instance]],
    items: Sequence[Selected],
    reasons: Counter[str],
    scanner: _Scanner,
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
    scanned_by_stratum = Counter(_stratum(i, options.stratify) for i in eligible if i.id in scanner.outcomes)
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


def selected_instance(item: Selected, seed: int) -> Instance:
    """The instance a :class:`SelectJohn` yields for a selected item: its chosen
    variants in ``meta["variants"]`` (replayable), the phenomena and validation."""
    meta = dict(item.instance.meta)
    meta["variants"] = [
        {"text": v.text, "phenomenon": v.phenomenon, "meta": dict(v.meta)} for v in item.variants
    ]
    meta["phenomena"] = list(item.phenomena)
    meta["selection"] = {"seed": seed, "stratum": item.stratum}
    if item.validation is not None:
        meta["validation"] = {p: check.to_json() for p, check in sorted(item.validation.items())}
    return Instance(item.instance.id, item.instance.source, item.instance.reference, meta)


class SelectJohn:
    """A John that selects from another John the instances a Zellig applies to, with
    caps, seeded stratified sampling, deduplication, length limits and, for machine
    references, the validation step (module docstring).  ``report`` holds the counts
    of the last :meth:`instances` call.

    Params: ``john`` (the John to select from, a SPEC), ``zellig`` (the Zellig that must
    apply, a SPEC), ``cap``, ``seed``, ``stratify``, ``dedup``, ``min_words``/``max_words``
    (bounds on the words of the source), ``variants_per_instance``, ``validate``,
    ``phenomena``, ``max_phrase_words`` (validation: the longest phrase aligned to the
    human reference), ``min_overlap`` (validation: the least word overlap with the human
    reference), ``prefilter`` (a regular expression the reference must match before the
    Zellig runs), ``progress`` (show progress bars)."""

    version = "1"

    def __init__(
        self,
        john: Annotated[Any, Performer("john")],
        zellig: Annotated[Any, Performer("zellig")],
        cap: PositiveInt | None = None,
        seed: int = 1,
        stratify: Name | None = "origin",
        dedup: Literal["source", "pair", "none"] = "source",
        min_words: PositiveInt | None = None,
        max_words: PositiveInt | None = None,
        variants_per_instance: PositiveInt | None = 1,
        validate: bool = True,
        phenomena: list[Name] | None = None,
        max_phrase_words: PositiveInt = 5,
        min_overlap: Annotated[float, Gt(0), Le(1)] = 0.5,
        prefilter: Name | None = None,
        progress: bool = True,
    ):
        from performers.nested import build_nested

        self.options = SelectionOptions(
            cap, seed, stratify, dedup, min_words, max_words, variants_per_instance, validate,
            tuple(phenomena) if phenomena is not None else None, max_phrase_words, min_overlap, prefilter,
        )
        self.progress = progress
        self._john_spec, self._john = build_nested("john", john, where="select: john")
        self._zellig_spec, self._zellig = build_nested("zellig", zellig, where="select: zellig")
        self.report: dict[str, Any] = {}

    def select(self) -> Selection:
        instances = list(self._john.instances())
        selection = select(
            instances, self._zellig, self.options, self.progress,
            john=self._john_spec.label, zellig_label=self._zellig_spec.label,
            john_report=getattr(self._john, "report", None),
        )
        self.report = selection.report
        return selection

    def instances(self) -> Iterator[Instance]:
        for item in self.select().items:
            yield selected_instance(item, self.options.seed)
