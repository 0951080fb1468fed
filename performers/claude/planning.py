"""Request planning for sequence scoring, independent of any model.

Scoring a match (or a tournament) means many (source, target) requests, most of
them sharing their source with another (a correct and a corrupted candidate, the
model's own 1-best) and most pairs of targets sharing a long prefix (a minimal pair
differs in a word or two).  The plan

1. groups the (already distinct) targets by source, so that each source is encoded
   once and its encoder output is reused for all its targets;
2. splits a source's targets into runs of neighbours in sorted order
   (:func:`split_by_prefix`); each run has a *leader*, decoded in full, and
   *followers*, which take from the leader the decoder states, keys and values of the
   positions they share with it (their common prefix, :func:`shared_positions`) and
   are decoded over the rest only; the source's cross-attention keys and values are
   computed once per leader and reused by its followers;
3. packs sources, sorted by length, with their runs into *blocks* under a block budget
   of several batches, and inside a block lays out three kinds of batches under the
   token budget: **encoder batches** of sources of similar length, **leader batches** of
   leaders of similar length and **follower batches** of followers of similar suffix
   length, whichever source they belong to.  Each sorted list is cut where padding costs
   more than a batch's fixed cost (:func:`_cut`).

A follower batch whose rows share different numbers of positions needs a decoder that
gives each row its own positions (``mixed=True``, see
:mod:`performers.claude.row_positions`); otherwise follower batches are made per shared
length, and shared lengths are rounded down to a multiple of ``quantum`` so that there
are few of them.

Everything here is pure Python on token-id tuples, so the plan can be tested (and
reasoned about) without a model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# shared lengths are rounded down to multiples of this where follower batches cannot mix them
DEFAULT_QUANTUM = 8
# a block holds up to this many batches' worth of tokens: enough runs for the batches
# inside it to be made of neighbours in length
BLOCK_BATCHES = 8
# what a batch costs beyond its padded tokens, in tokens: cutting sorted lengths into batches
# trades it against padding.  A one-token decoder call of the toy model costs about 2 ms, what
# 25 tokens of a large call cost; 32 ran 1–2% faster than 16 or 64 (300 DistilLingEval pairs)
BATCH_OVERHEAD = 32
# what one more leader costs, in decoder tokens (its source's cross-attention keys and values
# once more, one more full target): a split into runs must save more
SPLIT_OVERHEAD = 8
SPLIT_WINDOW = 64  # targets per run considered by the split (keeps it linear in a source's targets)


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
    """A source and the targets scored against it."""

    source_ids: tuple[int, ...]
    targets: list[TargetRequest]


@dataclass(frozen=True)
class Follower:
    """A target whose first ``shared`` decoder positions are those of ``leader`` (an index
    into its block's leaders): their states, keys and values are the leader's.  ``shared``
    equal to the target's length means there is nothing left to decode."""

    target: TargetRequest
    leader: int
    shared: int

    @property
    def suffix(self) -> int:
        return len(self.target.decoder_ids) - self.shared


def common_prefix(sequences: Sequence[Sequence[int]]) -> int:
    """Length of the longest prefix common to all ``sequences``."""
    first, length = sequences[0], min(len(s) for s in sequences)
    for position in range(length):
        token = first[position]
        if any(s[position] != token for s in sequences[1:]):
            return position
    return length


def shared_positions(prefix: int, length: int, quantum: int) -> int:
    """Positions a target of ``length`` decoder positions takes from a leader it shares
    ``prefix`` positions with: all of them when it is a prefix of the leader's; else the
    common prefix rounded down to a multiple of ``quantum``, but at least 1 (the start
    token, which every target has); 0 where nothing is common or ``quantum`` is 0."""
    if quantum <= 0 or prefix < 1:
        return 0
    if prefix >= length:
        return length
    return max(1, (prefix // quantum) * quantum)


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


def split_by_prefix(group: SourceGroup, quantum: int) -> list[list[tuple[TargetRequest, int]]]:
    """The targets of ``group`` as runs, each a list of ``(target, shared positions)`` with
    its leader first (sharing nothing): a trie cut at one level.  The targets are sorted,
    each run's leader is its first, and the split into runs of neighbours that saves the
    most decoder positions (``SPLIT_OVERHEAD`` per run deducted; runs of at most
    ``SPLIT_WINDOW``) is found by dynamic programming."""
    targets = sorted(group.targets, key=lambda t: t.decoder_ids)
    count = len(targets)
    adjacent = [common_prefix([a.decoder_ids, b.decoder_ids]) for a, b in zip(targets, targets[1:])]
    best, end_of = [0.0] * (count + 1), [count] * (count + 1)
    for first in range(count - 1, -1, -1):  # best[first]: the most saved by runs covering targets[first:]
        best[first], prefix, saved = float("-inf"), len(targets[first].decoder_ids), 0
        for end in range(first + 1, min(count, first + SPLIT_WINDOW) + 1):
            if end > first + 1:
                prefix = min(prefix, adjacent[end - 2])  # common prefix of targets[end - 1] with the leader
                shared = shared_positions(prefix, len(targets[end - 1].decoder_ids), quantum)
                if not shared:
                    break
                saved += shared
            if saved - SPLIT_OVERHEAD + best[end] > best[first]:
                best[first], end_of[first] = saved - SPLIT_OVERHEAD + best[end], end
    runs, first = [], 0
    while first < count:
        run = targets[first:end_of[first]]
        leader, prefix, members = run[0], len(run[0].decoder_ids), [(run[0], 0)]
        for target in run[1:]:
            prefix = min(prefix, common_prefix([leader.decoder_ids, target.decoder_ids]))
            members.append((target, shared_positions(prefix, len(target.decoder_ids), quantum)))
        runs.append(members)
        first = end_of[first]
    return runs


def run_tokens(run: Sequence[tuple[TargetRequest, int]]) -> int:
    """Decoder positions a run costs without padding."""
    return sum(len(target.decoder_ids) - shared for target, shared in run)


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
    """Targets scored together.  ``sources`` are their distinct sources; ``leaders`` are
    decoded in full (``source_of[i]`` is leader ``i``'s source), ``followers`` from their
    leaders' states.  ``encoder_batches`` list source indices of similar lengths,
    ``leader_batches`` leader indices of similar lengths, ``follower_batches`` indices of
    followers with something left to decode, of similar suffix lengths (and equal shared
    lengths unless the plan mixes them)."""

    sources: list[tuple[int, ...]]
    leaders: list[TargetRequest]
    source_of: list[int]
    followers: list[Follower]
    encoder_batches: list[list[int]]
    leader_batches: list[list[int]]
    follower_batches: list[list[int]]


def _block(entries: list[tuple[tuple[int, ...], list]], budget: int, mixed: bool) -> Block:
    """A block of ``entries`` (each: a source and its runs)."""
    sources = [source for source, _ in entries]
    leaders: list[TargetRequest] = []
    source_of: list[int] = []
    followers: list[Follower] = []
    for index, (_, runs) in enumerate(entries):
        for run in runs:
            leaders.append(run[0][0])
            source_of.append(index)
            followers += [Follower(target, len(leaders) - 1, shared) for target, shared in run[1:]]
    encoder_batches = _batches(list(range(len(sources))), lambda i: len(sources[i]), budget)
    leader_batches = _batches(list(range(len(leaders))), lambda i: len(leaders[i].decoder_ids), budget)
    pending = [i for i, follower in enumerate(followers) if follower.suffix]
    follower_batches = _batches(pending, lambda i: followers[i].suffix, budget,
                                bucket=None if mixed else lambda i: followers[i].shared)
    return Block(sources, leaders, source_of, followers, encoder_batches, leader_batches, follower_batches)


def plan_blocks(
    groups: Iterable[SourceGroup],
    budget: int,
    quantum: int = DEFAULT_QUANTUM,
    share_prefixes: bool = True,
    block_budget: int | None = None,
    mixed: bool = False,
) -> list[Block]:
    """Blocks covering every target of ``groups`` exactly once (see module docstring).

    ``budget`` bounds the cost of every batch (padded tokens), except a batch of one
    item that exceeds it on its own; ``block_budget`` (default ``BLOCK_BATCHES × budget``)
    bounds a block's source tokens and unpadded decoder positions, except a block of one
    run.  Without ``share_prefixes`` every target is a leader.  ``mixed``: follower batches
    may mix shared lengths.
    """
    if budget < 1:
        raise ValueError(f"the token budget must be positive, not {budget}")
    block_budget = block_budget or BLOCK_BATCHES * budget
    entries: list[tuple[tuple[int, ...], list]] = []  # per source, its runs, within the block budget
    for group in groups:
        runs = split_by_prefix(group, quantum) if share_prefixes else [[(t, 0)] for t in group.targets]
        entry: list = []
        tokens = len(group.source_ids)
        for run in runs:
            if entry and tokens + run_tokens(run) > block_budget:
                entries.append((group.source_ids, entry))
                entry, tokens = [], len(group.source_ids)
            entry.append(run)
            tokens += run_tokens(run)
        entries.append((group.source_ids, entry))
    entries.sort(key=lambda entry: len(entry[0]))
    blocks: list[Block] = []
    current: list = []
    tokens = 0
    for source, runs in entries:
        size = len(source) + sum(map(run_tokens, runs))
        if current and tokens + size > block_budget:
            blocks.append(_block(current, budget, mixed))
            current, tokens = [], 0
        current.append((source, runs))
        tokens += size
    if current:
        blocks.append(_block(current, budget, mixed))
    return blocks
