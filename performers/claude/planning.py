"""Request planning for sequence scoring, independent of any model.

Scoring a match (or a tournament) means many (source, target) requests, most of
them sharing their source with another (a correct and a corrupted candidate, the
model's own 1-best) and most pairs of targets sharing a long prefix (a minimal pair
differs in a word or two).  The plan

1. groups the (already distinct) targets by source, so that each source is encoded
   once and its encoder output is reused for all its targets;
2. finds, per source group, the decoder-input prefix common to all its targets and
   marks it *shared* (rounded down to a multiple of ``quantum`` tokens, so that
   groups with equal shared length can be batched without padding inside the
   decoder's key/value cache — which keeps positions exact for every architecture);
   the decoder runs over the shared prefix once per group, and over each target's
   remaining suffix from the cached keys and values;
3. sorts groups by length (decoder suffix first, then source) and packs them into
   batches under a token budget (padded source tokens + shared-prefix tokens +
   padded suffix tokens).

Everything here is pure Python on token-id tuples, so the plan can be tested (and
reasoned about) without a model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

DEFAULT_QUANTUM = 8


@dataclass(frozen=True)
class TargetRequest:
    """One target to score: ``labels[i]`` is predicted from ``decoder_ids[: i + 1]``;
    positions before ``first_scored`` (forced tokens) are not scored."""

    index: int
    decoder_ids: tuple[int, ...]
    labels: tuple[int, ...]
    first_scored: int = 0

    def __post_init__(self) -> None:
        if len(self.decoder_ids) != len(self.labels):
            raise ValueError(f"request {self.index}: {len(self.decoder_ids)} decoder inputs for {len(self.labels)} labels")
        if not self.labels:
            raise ValueError(f"request {self.index}: no target tokens")

    @property
    def scored(self) -> int:
        return len(self.labels) - self.first_scored


@dataclass
class SourceGroup:
    """A source and the targets scored against it; the first ``shared`` decoder
    positions are identical for all targets (0: nothing shared)."""

    source_ids: tuple[int, ...]
    targets: list[TargetRequest]
    shared: int = 0

    @property
    def longest_suffix(self) -> int:
        return max(len(t.decoder_ids) for t in self.targets) - self.shared


@dataclass
class Batch:
    """Groups run together; all have the same ``shared`` length."""

    shared: int
    groups: list[SourceGroup] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return sum(len(g.targets) for g in self.groups)

    def cost(self) -> int:
        return batch_cost(self.groups, self.shared)


def batch_cost(groups: Sequence[SourceGroup], shared: int) -> int:
    """Tokens processed by a batch of ``groups``: padded source tokens, shared-prefix
    tokens, padded suffix tokens."""
    if not groups:
        return 0
    rows = sum(len(g.targets) for g in groups)
    longest_source = max(len(g.source_ids) for g in groups)
    longest_suffix = max(g.longest_suffix for g in groups)
    return len(groups) * (longest_source + shared) + rows * longest_suffix


def common_prefix(sequences: Sequence[Sequence[int]]) -> int:
    """Length of the longest prefix common to all ``sequences``."""
    first, length = sequences[0], min(len(s) for s in sequences)
    for position in range(length):
        token = first[position]
        if any(s[position] != token for s in sequences[1:]):
            return position
    return length


def shared_length(targets: Sequence[TargetRequest], quantum: int) -> int:
    """Decoder positions to compute once for a group: the common prefix of the
    decoder inputs, leaving at least one suffix position per target, rounded down
    to a multiple of ``quantum``; 0 for a single target or a short prefix."""
    if len(targets) < 2 or quantum <= 0:
        return 0
    prefix = common_prefix([t.decoder_ids for t in targets])
    prefix = min(prefix, min(len(t.decoder_ids) for t in targets) - 1)
    return (prefix // quantum) * quantum


def group_by_source(sources: Sequence[tuple[int, ...]], targets: Sequence[TargetRequest]) -> list[SourceGroup]:
    """Group targets by their source's token ids (``sources[i]`` belongs to
    ``targets[i]``), in first-seen order."""
    groups: dict[tuple[int, ...], SourceGroup] = {}
    for source, target in zip(sources, targets):
        group = groups.get(source)
        if group is None:
            groups[source] = group = SourceGroup(source, [])
        group.targets.append(target)
    return list(groups.values())


def _split_oversized(group: SourceGroup, budget: int, quantum: int, share: bool) -> list[SourceGroup]:
    """Split a group whose targets alone exceed the budget into several groups."""
    parts: list[SourceGroup] = []
    current: list[TargetRequest] = []
    for target in sorted(group.targets, key=lambda t: len(t.decoder_ids)):
        trial = SourceGroup(group.source_ids, current + [target])
        trial.shared = shared_length(trial.targets, quantum) if share else 0
        if current and batch_cost([trial], trial.shared) > budget:
            part = SourceGroup(group.source_ids, current)
            part.shared = shared_length(current, quantum) if share else 0
            parts.append(part)
            current = [target]
        else:
            current = trial.targets
    part = SourceGroup(group.source_ids, current)
    part.shared = shared_length(current, quantum) if share else 0
    parts.append(part)
    return parts


def plan_batches(
    groups: Iterable[SourceGroup],
    budget: int,
    quantum: int = DEFAULT_QUANTUM,
    share_prefixes: bool = True,
) -> list[Batch]:
    """Batches covering every target of ``groups`` exactly once (see module docstring).

    ``budget`` bounds :func:`batch_cost` of every batch, except a batch holding a
    single target that is longer than the budget on its own.
    """
    if budget < 1:
        raise ValueError(f"the token budget must be positive, not {budget}")
    prepared: list[SourceGroup] = []
    for group in groups:
        group.shared = shared_length(group.targets, quantum) if share_prefixes else 0
        if len(group.targets) > 1 and batch_cost([group], group.shared) > budget:
            prepared.extend(_split_oversized(group, budget, quantum, share_prefixes))
        else:
            prepared.append(group)
    buckets: dict[int, list[SourceGroup]] = {}
    for group in prepared:
        buckets.setdefault(group.shared, []).append(group)
    batches: list[Batch] = []
    for shared in sorted(buckets):
        # decoder positions cost about twice an encoder position (self- and cross-attention,
        # output layer), so batches are made of groups with similar suffix lengths
        ordered = sorted(buckets[shared], key=lambda g: (g.longest_suffix, len(g.source_ids)))
        current = Batch(shared)
        for group in ordered:
            if current.groups and batch_cost(current.groups + [group], shared) > budget:
                batches.append(current)
                current = Batch(shared)
            current.groups.append(group)
        if current.groups:
            batches.append(current)
    return batches
