"""``adaptive`` John: selects, block by block, from the metadata bucket on which the
Claudes it observes score best (Smith 2012, §7: a John is better when, for the same
Zellig and Claude, his data give a higher S).

Source: Smith (2012) §3 and §7 (John's goal and observation); Thompson sampling
(Thompson 1933) over buckets.

It wraps a John (``john``) and groups its instances by a metadata key (``key``,
``origin`` by default: e.g. ``newstest2009`` vs ``newstest2016``; or ``genre``,
``reference_kind``).  Each instance it yields comes from one bucket, in the wrapped
John's order within the bucket; the bucket is the one with the highest draw from a
Beta posterior over the Claudes' S on it (prior Beta(1, 1)), drawn from an RNG
seeded by ``seed`` and the number of instances yielded so far, so the choice is
reproducible from the outcomes alone.  The arena consumes ``instances()`` block by
block and calls ``observe`` between blocks, so what it yields next depends on what
it has seen.  It learns from rounds *transparent to John* (it sees every Claude's
choice and the answer key); in non-transparent rounds it sees only its own
instances and keeps its posterior, so without transparency it draws buckets from
the prior (a random interleaving of the buckets).  It ends when every bucket is
exhausted.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from arena.sdk import Instance, Name, NestedJohn, RoundOutcome
from performers.nested import build_nested


class AdaptiveJohn:
    """Params: ``john`` (a John SPEC), ``key`` (instance metadata key, default
    ``origin``), ``seed`` (seeds the
    draw of the next bucket, default 1)."""

    version = "1"

    def __init__(self, john: NestedJohn, key: Name = "origin", seed: int = 1):
        self.base_spec, self.base = build_nested("john", john, where="adaptive: john")
        self.key = key
        self.seed = seed
        self.found: dict[str, int] = {}  # bucket -> rounds in which a Claude found the corruption
        self.missed: dict[str, int] = {}
        self.bucket_of: dict[str, str] = {}  # instance id -> bucket

    def bucket(self, instance: Instance) -> str:
        return str(instance.meta.get(self.key, "(none)"))

    def instances(self) -> Iterator[Instance]:
        buckets: dict[str, list[Instance]] = {}
        for instance in self.base.instances():
            buckets.setdefault(self.bucket(instance), []).append(instance)
        positions = {name: 0 for name in buckets}
        yielded = 0
        while True:
            open_buckets = [name for name in sorted(buckets) if positions[name] < len(buckets[name])]
            if not open_buckets:
                return
            rng = random.Random(f"{self.seed}/{yielded}")
            draws = [rng.betavariate(1 + self.found.get(b, 0), 1 + self.missed.get(b, 0)) for b in open_buckets]
            name = open_buckets[draws.index(max(draws))]
            instance = buckets[name][positions[name]]
            positions[name] += 1
            yielded += 1
            self.bucket_of[instance.id] = name
            yield instance

    def observe(self, outcomes: Sequence[RoundOutcome]) -> None:
        for outcome in outcomes:
            if not outcome.transparent or outcome.instance is None or outcome.corrupted is None:
                continue
            name = self.bucket(outcome.instance)
            for choice in outcome.choices.values():
                counter = self.found if choice == outcome.corrupted else self.missed
                counter[name] = counter.get(name, 0) + 1
