"""A run's JSON-lines transcripts read in one pass, with memory that does not grow with the run.

The run's files are streamed line by line (:func:`iter_lines`, the one reader of the
verifier and the streamed aggregation); what a later step needs of every round is kept as
fixed-width NumPy columns, never as records:

- :func:`scan_rounds` indexes ``rounds.jsonl``: per judged round a 64-bit digest of its id
  (:func:`key_hash`), its seed, its block's rank in the engine's order and the byte offset of
  its line — 32 bytes a judged round;
- :meth:`RoundsIndex.expected` gives, per Claude model, the positions of the judged rounds in
  the order the engine writes their judgements (models in config order, then blocks in order,
  then rounds in plan order), as :func:`arena.record.order.blocks` and
  :func:`arena.record.verify.expected_judgements` define it;
- :func:`judgements_match` checks ``judgements.jsonl`` against that order one line at a time.

Digests stand in for ids: two different ids share a 64-bit digest with a probability of about
``n² / 2⁶⁵`` (3·10⁻⁸ for a million rounds).  A check that sees anything unexpected (a repeated
digest, a foreign seed, a line out of order) is not trusted to name the problem: the verifier
then re-reads the run the exact way (:mod:`arena.record.verify`), which names file and line.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.errors import DataError
from arena.record import transcripts

REPAIR = "re-run 'arena run' on the config to rebuild it from cells/, or delete the run directory"


def key_hash(*parts: Any) -> int:
    """A 64-bit digest of ``parts`` (strings, or any JSON value by its ``repr``)."""
    if len(parts) == 1 and type(parts[0]) is str:  # the common case, without the join
        text = parts[0] + "\x00"
    else:  # the bytes of hashing each part and a NUL in turn
        text = "".join((part if isinstance(part, str) else "\x01" + repr(part)) + "\x00" for part in parts)
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")


def iter_lines(path: Path) -> Iterator[tuple[int, dict[str, Any], int]]:
    """``(line number, record, byte offset)`` of each non-blank line of a JSON-lines file (none
    when it does not exist); a cut, malformed or non-object line is a :class:`DataError` naming
    file and line.  Streamed: one line in memory at a time."""
    if not Path(path).exists():
        return
    with open(path, "rb") as file:
        offset = 0
        for number, raw in enumerate(file, start=1):
            start = offset
            offset += len(raw)
            if raw.isspace():
                continue
            if not raw.endswith(b"\n"):  # text after the last newline: the writer was cut off
                raise DataError(f"the last line is cut off (no newline); {REPAIR}", file=path, line=number)
            try:
                record = transcripts.loads(raw)  # UTF-8 only: not valid UTF-8 is a UnicodeDecodeError
            except UnicodeDecodeError:
                raise DataError(f"not valid UTF-8; {REPAIR}", file=path, line=number) from None
            except (json.JSONDecodeError, RecursionError) as error:
                reason = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
                raise DataError(f"malformed JSON line ({reason}); {REPAIR}", file=path, line=number) from None
            if not isinstance(record, dict):
                raise DataError(f"a line holds a JSON object, not {type(record).__name__}; {REPAIR}",
                                file=path, line=number)
            yield number, record, start


def count_lines(path: Path) -> int:
    """Newlines in a file (0 when it does not exist), read in blocks."""
    if not Path(path).exists():
        return 0
    with open(path, "rb") as file:
        return sum(block.count(b"\n") for block in iter(lambda: file.read(1 << 20), b""))


@dataclass
class RoundsIndex:
    """What the verifier and the aggregation need of every judged round of ``rounds.jsonl``."""

    rounds: int  # lines holding a round
    ids: np.ndarray  # uint64 digest of each judged round's id, in plan order
    seeds: np.ndarray  # int64 seed of each judged round
    blocks: np.ndarray  # int64 rank of its block in the engine's order (-1: in no block)
    offsets: np.ndarray  # int64 byte offset of its line
    doubtful: bool  # a repeated id digest, a foreign seed or an unreadable round: check the exact way
    unreadable: tuple[int, Exception] | None = None  # the line and error where the reader handed each round failed

    def expected(self, seeds: Sequence[int]) -> np.ndarray:
        """Positions (into the judged rounds) of the judgements of a Claude model playing
        ``seeds``, in the engine's order: blocks in order, rounds in plan order."""
        mine = np.flatnonzero(np.isin(self.seeds, np.asarray(list(seeds), dtype=np.int64)) & (self.blocks >= 0))
        return mine[np.argsort(self.blocks[mine], kind="stable")]


def scan_rounds(path: Path, experiment: Any, each: Callable[[dict[str, Any]], None] | None = None) -> RoundsIndex:
    """Index ``rounds.jsonl`` in one pass (``experiment``: the run's
    :class:`~arena.specs.config.Experiment`), handing each record to ``each`` (the first
    record it fails on is recorded as ``unreadable`` and the index marked doubtful).  Blocks as :func:`arena.record.order.blocks`
    cuts them: a game's (rounds that carry their block) one per (seed, John, block) in
    first-seen order; a static run's one per (seed, John, Zellig) in config order."""
    from arena.record.rounds import NOT_JUDGED

    static = {
        (seed, john.label, zellig.label): rank
        for rank, (seed, john, zellig) in enumerate(
            (s, j, z) for s in experiment.seeds for j in experiment.johns for z in experiment.zelligs
        )
    }
    game: dict[tuple[Any, Any, Any], int] | None = None
    ids, seeds, ranks, offsets = array("Q"), array("q"), array("q"), array("q")
    all_ids = array("Q")
    count = 0
    doubtful = False
    allowed = set(experiment.seeds)
    unreadable: tuple[int, Exception] | None = None
    for number, record, offset in iter_lines(path):
        count += 1
        if each is not None and unreadable is None:
            try:
                each(record)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                unreadable, doubtful = (number, error), True
        identifier, seed = record.get("round"), record.get("seed")
        digest = key_hash(identifier)
        all_ids.append(digest)
        if seed not in allowed or not isinstance(seed, int) or isinstance(seed, bool):
            doubtful = True
            continue
        if not isinstance(record.get("instance"), dict) or not isinstance(identifier, str):
            doubtful = True  # Round.from_json would fail: the exact check names it
        if count == 1 and record.get("block") is not None:
            game = {}
        if game is not None:
            rank = game.setdefault((seed, record.get("john"), record.get("block") or 0), len(game))
        else:
            rank = static.get((seed, record.get("john"), record.get("zellig")), -1)
        if record.get("status", "ok") in NOT_JUDGED:
            continue
        ids.append(digest)
        seeds.append(seed)
        ranks.append(rank)
        offsets.append(offset)
    every = np.frombuffer(all_ids, dtype=np.uint64) if count else np.zeros(0, dtype=np.uint64)
    if len(np.unique(every)) != len(every):
        doubtful = True
    del every, all_ids
    return RoundsIndex(
        count, _column(ids, np.uint64), _column(seeds, np.int64), _column(ranks, np.int64),
        _column(offsets, np.int64), doubtful, unreadable,
    )


def _column(values: array, dtype: Any) -> np.ndarray:
    return np.frombuffer(values, dtype=dtype).copy() if len(values) else np.zeros(0, dtype=dtype)


def judgements_match(path: Path, index: RoundsIndex, models: Sequence[tuple[str, Sequence[int]]]) -> bool:
    """Whether ``judgements.jsonl`` holds exactly one judgement per judged round and Claude
    model, in the engine's order (``models``: each model's label and seeds, in config order)."""
    expected = ((label, position) for label, seeds in models for position in index.expected(seeds))
    for _, record, _ in iter_lines(path):
        want = next(expected, None)
        if want is None:
            return False
        label, position = want
        if record.get("claude") != label or key_hash(record.get("round")) != int(index.ids[position]):
            return False
    return next(expected, None) is None
