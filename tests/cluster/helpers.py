"""Performers for the multi-node tests (importable by Ray workers as ``tests.cluster.helpers``):
each writes the Ray node it was built on, so a test can see where Ray placed it."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from arena.records import Instance, Judgement, Pair, Variant
from performers.claude.random import RandomClaude
from performers.zellig.replay import ReplayZellig

HERE = "tests.cluster.helpers"


def record_node(log: str) -> None:
    """Append ``<node id> <pid>`` of this process to ``log`` (nothing when ``log`` is empty)."""
    if not log:
        return
    import ray

    node = ray.get_runtime_context().get_node_id() if ray.is_initialized() else "driver"
    with open(log, "a", encoding="utf-8") as file:
        file.write(f"{node} {os.getpid()}\n")


class PlacedClaude:
    """The random Claude, ``delay`` seconds per judge call; logs its node when built."""

    version = "1"

    def __init__(self, seed: int = 0, delay: float = 0.0, log: str = ""):
        self.inner = RandomClaude(seed)
        self.delay = delay
        record_node(log)

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        time.sleep(self.delay)
        return self.inner.judge(pairs)


class PlacedReplay(ReplayZellig):
    """The replay Zellig, ``delay`` seconds per instance; logs its node when built (once per
    worker process that runs one of its tasks)."""

    version = "1"

    def __init__(self, delay: float = 0.0, log: str = ""):
        super().__init__()
        self.delay = delay
        record_node(log)

    def corrupt(self, instance: Instance) -> list[Variant]:
        time.sleep(self.delay)
        return super().corrupt(instance)
