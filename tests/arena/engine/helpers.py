"""Small test performers for the tournament tests (importable by Ray workers as
``tests.arena.engine.helpers``): a deterministic scoring Claude, a slow Claude
whose actor can be killed, an interruptible Claude, and a replay Zellig with a detector."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Sequence

from arena.records import Judgement, Pair, SequenceScore
from performers.claude.random import RandomClaude
from performers.zellig.replay import ReplayZellig

HERE = "tests.arena.engine.helpers"


def _unit(*parts: str) -> float:
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class HashScorer:
    """A scoring Claude without a model: the log-probability of a target is a hash of
    (source, target), the token count its number of words + 1 (end of sentence).
    It judges as scoring Claudes do (lowest mean is corrupted, a tie abstains) and
    counts the (source, target) pairs it scores."""

    version = "1"
    convention = "mean"

    def __init__(self, salt: str = "", tie_every: int = 0):
        self.salt = salt
        self.tie_every = tie_every
        self.scored = 0

    def _score(self, source: str, target: str) -> SequenceScore:
        tokens = len(target.split()) + 1
        if self.tie_every and int(_unit("tie", source) * 1000) % self.tie_every == 0:
            return SequenceScore(-2.0 * tokens, tokens)  # the same mean for every target of this source
        return SequenceScore(-20.0 * _unit(self.salt, source, target) * tokens, tokens)

    def score(self, sources: Sequence[str], targets: Sequence[str]) -> list[SequenceScore]:
        self.scored += len(targets)
        return [self._score(s, t) for s, t in zip(sources, targets)]

    def translate(self, sources: Sequence[str], beam: int = 5) -> list[str]:
        return [("Das Ding: " if _unit("t", s) < 0.3 else "Übersetzung: ") + s for s in sources]

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        result = []
        for pair in pairs:
            means = tuple(self._score(pair.source, c).mean for c in pair.candidates)
            lowest = min(means)
            result.append(Judgement(None if means.count(lowest) > 1 else means.index(lowest), means))
        return result


class SlowClaude:
    """The random Claude, slowly (``delay`` seconds per judge call); writes its process
    id to ``pid_file`` when built, so a test can kill the process it runs in."""

    version = "1"

    def __init__(self, seed: int = 0, delay: float = 0.2, pid_file: str = ""):
        self.inner = RandomClaude(seed)
        self.delay = delay
        if pid_file:
            with open(pid_file, "a", encoding="utf-8") as file:
                file.write(f"{os.getpid()}\n")

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        time.sleep(self.delay)
        return self.inner.judge(pairs)


class InterruptibleClaude:
    """The random Claude, except that its call number ``ARENA_TEST_INTERRUPT_AT`` (in
    this process) raises KeyboardInterrupt, as a Ctrl-C in the middle of a tournament."""

    version = "1"
    calls = 0

    def __init__(self, seed: int = 0):
        self.inner = RandomClaude(seed)

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        InterruptibleClaude.calls += 1
        if str(InterruptibleClaude.calls) == os.environ.get("ARENA_TEST_INTERRUPT_AT"):
            raise KeyboardInterrupt
        return self.inner.judge(pairs)


class DetectingReplay(ReplayZellig):
    """The replay Zellig with a detector: does a text contain a placeholder *Ding*?"""

    version = "1"

    def detect(self, text: str, source: str | None = None) -> bool:
        return "Ding" in text.split() or "Ding:" in text


class BrokenZellig:
    """Makes a variant whose edits do not reproduce its text (a bug the arena reports)."""

    version = "1"

    def corrupt(self, instance):
        from arena.records import Edit, Variant

        return [Variant(instance.id, instance.reference + "!", "broken", (Edit(0, 0, "", "?"),))]


class SlowScorer(HashScorer):
    """The hash scorer, slowly (``delay`` seconds per ``score`` call); writes its process
    id to ``pid_file`` when built (the kill test's scoring Claude)."""

    version = "1"

    def __init__(self, delay: float = 0.2, pid_file: str = ""):
        super().__init__()
        self.delay = delay
        if pid_file:
            with open(pid_file, "a", encoding="utf-8") as file:
                file.write(f"{os.getpid()}\n")

    def score(self, sources: Sequence[str], targets: Sequence[str]) -> list[SequenceScore]:
        time.sleep(self.delay)
        return super().score(sources, targets)


class DuplicatingJohn:
    """The DistilLingEval John, yielding its first instance once more at the end when
    ``duplicate`` (an id given twice, which the engine refuses)."""

    version = "1"

    def __init__(self, dir: str, duplicate: bool = False):
        from performers.john.distil_lingeval import DistilLingEvalJohn

        self.inner = DistilLingEvalJohn(dir)
        self.duplicate = duplicate

    def instances(self):
        items = list(self.inner.instances())
        yield from items
        if self.duplicate and items:
            yield items[0]


def run(*args, **kwargs):
    """:func:`arena.engine.run`, then scored as the API scores it (:func:`arena.api.finish`): a
    finished run with ``scores.json``, what the engine's tests check."""
    from arena import api, engine

    return api.finish(engine.run(*args, **kwargs))


class AbstainingClaude:
    """A Claude that abstains (``Judgement(None)``, no scores) on a share of the pairs, chosen by a
    hash of the source (``share: 1``: on every pair), and picks a candidate by a hash on the others."""

    version = "1"

    def __init__(self, share: float = 0.5):
        self.share = share

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        return [Judgement(None) if _unit("abstain", pair.source) < self.share
                else Judgement(int(_unit("pick", pair.source, *pair.candidates) * len(pair.candidates)))
                for pair in pairs]
