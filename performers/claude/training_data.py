"""The training corpus of ``arena train``: line-aligned files read strictly, tokenised,
cut into length-sorted batches.

Files are read with :func:`arena.formats.textlines.read_lines` (UTF-8, ``\\n`` or ``\\r\\n``
line ends, a leading BOM dropped); a file that is not UTF-8 is a :class:`~arena.errors.DataError`
naming file and line.  Pairs with an empty side or more than ``max_length`` tokens are left
out and counted, never dropped silently.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Sequence
from pathlib import Path

from arena.sdk import DataError, UsageError

TOKENIZER_FILES = ("source.spm", "target.spm", "vocab.json", "tokenizer_config.json")


def read_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 text file (empty lines kept: they are left out, counted, later)."""
    from arena.sdk import read_lines as read_text_lines

    return read_text_lines(Path(path), allow_empty=True)


def read_parallel(source: str | os.PathLike, target: str | os.PathLike, max_pairs: int | None = None
                  ) -> tuple[list[str], list[str]]:
    """Line-aligned source and target lines (the first ``max_pairs``, all for ``None``);
    a length mismatch is an error naming both files."""
    if max_pairs is not None and max_pairs < 0:
        raise UsageError(f"must be at least 0, not {max_pairs}", key="max_pairs")
    for path in (source, target):
        if not Path(path).is_file():
            raise DataError("no such file", file=path)
    sources, targets = read_lines(source), read_lines(target)
    if len(sources) != len(targets):
        raise DataError(f"{source} has {len(sources)} lines but {target} has {len(targets)}; they must be "
                        "line-aligned")
    if max_pairs is not None:
        sources, targets = sources[:max_pairs], targets[:max_pairs]
    return sources, targets


def copy_tokenizer(tokenizer_dir: str | os.PathLike, out: Path) -> None:
    """Copy the Marian tokenizer files into ``out`` (an error naming what is missing)."""
    tokenizer_dir = Path(tokenizer_dir)
    missing = [name for name in TOKENIZER_FILES if not (tokenizer_dir / name).is_file()]
    if missing:
        raise UsageError(f"{tokenizer_dir}: not a Marian tokenizer directory (missing {', '.join(missing)})",
                         key="--tokenizer")
    out.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZER_FILES:
        shutil.copy(tokenizer_dir / name, out / name)


def encode_corpus(tokenizer, sources: Sequence[str], targets: Sequence[str], max_length: int,
                  progress: bool = True) -> tuple[list[list[int]], list[list[int]], int]:
    """Token ids of every pair (end-of-sentence included); pairs with an empty side or
    longer than ``max_length`` tokens are left out and counted."""
    from arena.sdk import progress_bar

    source_ids: list[list[int]] = []
    target_ids: list[list[int]] = []
    dropped = 0
    chunk = 2000
    with progress_bar(len(sources), "tokenizing", enabled=progress, unit="pair") as bar:
        for start in range(0, len(sources), chunk):
            src = list(sources[start:start + chunk])
            tgt = list(targets[start:start + chunk])
            encoded = tokenizer(src, text_target=tgt)
            for text_s, text_t, s, t in zip(src, tgt, encoded["input_ids"], encoded["labels"]):
                if not text_s.strip() or not text_t.strip() or len(s) > max_length or len(t) > max_length:
                    dropped += 1
                    continue
                source_ids.append(list(s))
                target_ids.append(list(t))
            bar.update(len(src))
    return source_ids, target_ids, dropped


def make_batches(lengths: Sequence[tuple[int, int]], batch_tokens: int, seed: int, epoch: int) -> list[list[int]]:
    """Batches of pair indices for one epoch: pairs sorted by length (ties broken by a
    seeded shuffle), cut into batches of at most ``batch_tokens`` padded tokens (longer
    side × rows), batch order shuffled.  Deterministic in ``(seed, epoch)``."""
    rng = random.Random(f"{seed}/{epoch}")
    order = list(range(len(lengths)))
    rng.shuffle(order)
    order.sort(key=lambda i: lengths[i])
    batches: list[list[int]] = []
    current: list[int] = []
    longest = 0
    for i in order:
        size = max(lengths[i])
        if current and max(longest, size) * (len(current) + 1) > batch_tokens:
            batches.append(current)
            current, longest = [], 0
        current.append(i)
        longest = max(longest, size)
    if current:
        batches.append(current)
    rng.shuffle(batches)
    return batches


def pad(rows: Sequence[Sequence[int]], value: int):
    """A ``long`` tensor of the rows, right-padded with ``value``."""
    import torch

    width = max(len(row) for row in rows)
    return torch.tensor([list(row) + [value] * (width - len(row)) for row in rows], dtype=torch.long)
