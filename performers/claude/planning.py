"""Request planning for sequence scoring, independent of any model.

Scoring a match (or a tournament) means many (source, target) requests, most of
them sharing their source with another (a correct and a corrupted candidate, the
model's own 1-best) and most pairs of targets sharing a long prefix (a minimal pair
differs in a word or two).  The plan

1. groups the (already distinct) targets by source, so that each source is encoded
   once and its encoder output is reused for all its targets;
2. splits a source's targets into runs that share a long decoder-input prefix
   (:func:`split_by_prefix`) and marks each run's common prefix *shared* (rounded down
   to a multiple of ``quantum`` tokens, but at least the decoder's start token, so that
   runs with equal shared length can be batched without padding inside the decoder's
   key/value cache — which keeps positions exact for every architecture); the decoder
   runs over the shared prefix once per run (computing the source's cross-attention
   keys and values once per run too), and over each target's remaining suffix from the
   cached keys and values;
3. packs sources, sorted by length, with their runs into *blocks* under a block budget
   of several batches, and inside a block lays out three kinds of batches under the
   token budget: **encoder batches** of sources of similar length, **prefix batches** of
   runs with equal shared length, and **row batches** of targets with equal shared length
   and similar suffix lengths, whichever source they belong to.  Each sorted list is cut
   where padding costs more than a batch's fixed cost (:func:`_cut`): on 300
   DistilLingEval pairs 8% of the suffix tokens and 4% of the source tokens are padding,
   where batches of whole groups padded them by 33% and 39%.

Everything here is pure Python on token-id tuples, so the plan can be tested (and
reasoned about) without a model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

DEFAULT_QUANTUM = 8
# a block holds up to this many batches' worth of tokens: enough groups for the batches
# inside it to be made of neighbours in length
BLOCK_BATCHES = 8
# what a batch costs beyond its padded tokens, in tokens: cutting sorted lengths into batches
# trades it against padding.  A one-token decoder call of the toy model costs about 2 ms, what
# 25 tokens of a large call cost; 32 ran 1–2% faster than 16 or 64 (300 DistilLingEval pairs)
BATCH_OVERHEAD = 32
# what splitting a source's targets into one more group costs, in decoder tokens (its
# cross-attention keys and values once more, a shorter batch): a split must save more
SPLIT_OVERHEAD = 8
SPLIT_WINDOW = 64  # targets per group considered by the split (keeps it linear in a source's targets)


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


def common_prefix(sequences: Sequence[Sequence[int]]) -> int:
    """Length of the longest prefix common to all ``sequences``."""
    first, length = sequences[0], min(len(s) for s in sequences)
    for position in range(length):
        token = first[position]
        if any(s[position] != token for s in sequences[1:]):
            return position
    return length


def quantised(prefix: int, shortest: int, quantum: int) -> int:
    """Shared positions for a common prefix of ``prefix`` positions among targets of at
    least ``shortest``: at least one suffix position left, a multiple of ``quantum`` but
    at least 1 (the start token, which every target has: its cross-attention keys and
    values are then computed once per group); 0 where nothing is common, a target has a
    single position, or ``quantum`` is 0."""
    prefix = min(prefix, shortest - 1)
    if quantum <= 0 or prefix < 1:
        return 0
    return max(1, (prefix // quantum) * quantum)


def shared_length(targets: Sequence[TargetRequest], quantum: int) -> int:
    """Decoder positions to compute once for a group of targets (see :func:`quantised`;
    a single target shares its start token)."""
    prefix = common_prefix([t.decoder_ids for t in targets]) if len(targets) > 1 else 1
    return quantised(prefix, min(len(t.decoder_ids) for t in targets), quantum)


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


def split_by_prefix(group: SourceGroup, quantum: int) -> list[SourceGroup]:
    """The targets of ``group`` split into groups that each share a long prefix, so that
    more decoder positions are computed once: a trie cut at one level.  The targets are
    sorted, and the split into runs of neighbours that saves the most decoder positions
    (``SPLIT_OVERHEAD`` per extra group deducted; runs of at most ``SPLIT_WINDOW``) is
    found by dynamic programming; the runs keep the source (encoded once for all of them)."""
    targets = sorted(group.targets, key=lambda t: t.decoder_ids)
    count = len(targets)
    adjacent = [common_prefix([a.decoder_ids, b.decoder_ids]) for a, b in zip(targets, targets[1:])]
    best, start = [0.0] + [float("-inf")] * count, [0] * (count + 1)
    for end in range(1, count + 1):
        prefix, shortest = len(targets[end - 1].decoder_ids), len(targets[end - 1].decoder_ids)
        for first in range(end - 1, max(-1, end - 1 - SPLIT_WINDOW), -1):
            if first < end - 1:
                prefix = min(prefix, adjacent[first])
                shortest = min(shortest, len(targets[first].decoder_ids))
            saved = (end - first - 1) * quantised(prefix, shortest, quantum) - (SPLIT_OVERHEAD if first else 0)
            if best[first] + saved > best[end]:
                best[end], start[end] = best[first] + saved, first
    parts, end = [], count
    while end > 0:
        run = targets[start[end]:end]
        parts.append(SourceGroup(group.source_ids, run, shared_length(run, quantum)))
        end = start[end]
    return parts[::-1]


def group_tokens(group: SourceGroup) -> int:
    """Tokens a group costs without padding: its shared prefix once, its suffixes."""
    return group.shared + sum(len(t.decoder_ids) - group.shared for t in group.targets)


def _split_oversized(group: SourceGroup, budget: int, quantum: int) -> list[SourceGroup]:
    """Split a group whose tokens exceed the block budget into several groups."""
    parts: list[SourceGroup] = []
    current: list[TargetRequest] = []
    for target in group.targets:
        trial = current + [target]
        if current and group_tokens(SourceGroup(group.source_ids, trial, shared_length(trial, quantum))) > budget:
            parts.append(SourceGroup(group.source_ids, current, shared_length(current, quantum)))
            current = []
        current.append(target)
    parts.append(SourceGroup(group.source_ids, current, shared_length(current, quantum)))
    return parts


def _cut(lengths: Sequence[int], budget: int) -> list[int]:
    """Where to cut ascending ``lengths`` into batches (end indices): the cuts that minimise
    padded tokens plus ``BATCH_OVERHEAD`` per batch, each batch costing at most ``budget``
    (its size × its longest), except a single item that exceeds it on its own."""
    best, start = [0.0], [0]
    for end in range(1, len(lengths) + 1):
        longest = lengths[end - 1]
        best.append(float("inf"))
        start.append(end - 1)
        for first in range(end - 1, -1, -1):
            size = end - first
            if size > 1 and size * longest > budget:
                break
            cost = best[first] + size * longest + BATCH_OVERHEAD
            if cost < best[end]:
                best[end], start[end] = cost, first
    cuts, end = [], len(lengths)
    while end > 0:
        cuts.append(end)
        end = start[end]
    return cuts[::-1]


def _batches(items: list, length, budget: int, bucket=None) -> list[list]:
    """``items`` (per ``bucket`` value, in increasing order) sorted by ``length`` and cut by
    :func:`_cut`."""
    buckets: dict[int, list] = {}
    for item in items:
        buckets.setdefault(bucket(item) if bucket else 0, []).append(item)
    batches = []
    for key in sorted(buckets):
        ordered = sorted(buckets[key], key=length)
        cuts = _cut([length(item) for item in ordered], budget)
        batches += [ordered[a:b] for a, b in zip([0, *cuts[:-1]], cuts)]
    return batches


@dataclass
class Block:
    """Groups scored together.  ``sources`` are their distinct sources (``source_of[g]``
    is group ``g``'s); ``encoder_batches`` list source indices of similar lengths;
    ``prefix_batches`` list indices of groups with equal ``shared`` (> 0) and similar
    source lengths; ``row_batches`` list ``(group index, target)`` rows of groups with
    equal ``shared`` and similar suffix lengths."""

    sources: list[tuple[int, ...]]
    groups: list[SourceGroup]
    source_of: list[int]
    encoder_batches: list[list[int]]
    prefix_batches: list[list[int]]
    row_batches: list[list[tuple[int, TargetRequest]]]


def _block(entries: list[list[SourceGroup]], budget: int) -> Block:
    """A block of ``entries`` (each: the groups of one source)."""
    sources = [entry[0].source_ids for entry in entries]
    groups = [group for entry in entries for group in entry]
    source_of = [index for index, entry in enumerate(entries) for _ in entry]
    encoder_batches = _batches(list(range(len(sources))), lambda i: len(sources[i]), budget)
    prefixed = [g for g, group in enumerate(groups) if group.shared]
    prefix_batches = _batches(prefixed, lambda g: len(groups[g].source_ids) + groups[g].shared, budget,
                              bucket=lambda g: groups[g].shared)
    rows = [(g, target) for g, group in enumerate(groups) for target in group.targets]
    row_batches = _batches(rows, lambda row: len(row[1].decoder_ids) - groups[row[0]].shared, budget,
                           bucket=lambda row: groups[row[0]].shared)
    return Block(sources, groups, source_of, encoder_batches, prefix_batches, row_batches)


def plan_blocks(
    groups: Iterable[SourceGroup],
    budget: int,
    quantum: int = DEFAULT_QUANTUM,
    share_prefixes: bool = True,
    block_budget: int | None = None,
) -> list[Block]:
    """Blocks covering every target of ``groups`` exactly once (see module docstring).

    ``budget`` bounds the cost of every batch (padded tokens), except a batch of one
    item that exceeds it on its own; ``block_budget`` (default ``BLOCK_BATCHES × budget``)
    bounds the unpadded tokens of a block, except a block of one group of one target.
    Without ``share_prefixes`` nothing is shared and groups are not split.
    """
    if budget < 1:
        raise ValueError(f"the token budget must be positive, not {budget}")
    block_budget = block_budget or BLOCK_BATCHES * budget
    entries: list[list[SourceGroup]] = []  # per source, its groups, within the block budget
    for group in groups:
        parts = split_by_prefix(group, quantum) if share_prefixes else [SourceGroup(group.source_ids, group.targets)]
        entry: list[SourceGroup] = []
        for part in parts:
            pieces = _split_oversized(part, block_budget, quantum if share_prefixes else 0) \
                if group_tokens(part) > block_budget else [part]
            for piece in pieces:
                if entry and len(group.source_ids) + sum(map(group_tokens, entry)) + group_tokens(piece) > block_budget:
                    entries.append(entry)
                    entry = []
                entry.append(piece)
        entries.append(entry)
    entries.sort(key=lambda entry: len(entry[0].source_ids))
    blocks: list[Block] = []
    run: list[list[SourceGroup]] = []
    tokens = 0
    for entry in entries:
        size = len(entry[0].source_ids) + sum(map(group_tokens, entry))
        if run and tokens + size > block_budget:
            blocks.append(_block(run, budget))
            run, tokens = [], 0
        run.append(entry)
        tokens += size
    if run:
        blocks.append(_block(run, budget))
    return blocks
