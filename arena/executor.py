"""Executors: where performers are built and their work runs.

The runner plans and writes transcripts; an executor builds performers from their
specs and runs corruption, judging and 1-best decoding.  :class:`InProcessExecutor`
does it all in this process (tests, debugging, small runs); the Ray executor in
:mod:`arena.tournament` runs Claudes as actors and Zellig work as tasks.  Both return
the same records, so transcripts are byte-identical.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from arena import match
from arena.records import Instance, RoundOutcome
from arena.registry import Catalog, build
from arena.roles import Observer
from arena.spec import PerformerSpec

logger = logging.getLogger(__name__)


class Executor(Protocol):
    def corrupt(self, zellig: PerformerSpec, instances: Sequence[Instance], seconds: float | None) -> list[match.Corruption]: ...

    def judge(
        self, claude: PerformerSpec, rounds: Sequence[match.Round], seconds_per_pair: float | None
    ) -> list[match.JudgementRecord]: ...

    def translate_and_score(self, claude: PerformerSpec, sources: Sequence[str], beam: int) -> list[tuple[str, float, int]]: ...

    def detect(self, zellig: PerformerSpec, texts: Sequence[str], sources: Sequence[str]) -> list[bool] | None: ...

    def can_translate(self, claude: PerformerSpec) -> bool: ...

    def keep_claudes(self) -> None: ...

    def observes(self, claude: PerformerSpec) -> bool: ...

    def observe(self, claude: PerformerSpec, outcomes: Sequence[RoundOutcome]) -> None: ...

    def score_convention(self, claude: PerformerSpec) -> str: ...

    def release(self, claude: PerformerSpec) -> None: ...

    def close(self) -> None: ...


class InProcessExecutor:
    """Builds each performer once, lazily, in this process."""

    def __init__(self, catalog: Catalog, progress: bool = True):
        self.catalog = catalog
        self.progress = progress
        self._built: dict[tuple[str, str], Any] = {}

    def performer(self, role: str, spec: PerformerSpec) -> Any:
        key = (role, spec.label)
        if key not in self._built:
            logger.info("building %s %s", role, spec.label)
            self._built[key] = build(role, spec, self.catalog, where=f"{role} {spec.label}")
        return self._built[key]

    def corrupt(self, zellig: PerformerSpec, instances: Sequence[Instance], seconds: float | None) -> list[match.Corruption]:
        performer = self.performer("zellig", zellig)
        from arena.progress import progress_bar

        with progress_bar(total=len(instances), desc=f"corrupt {zellig.label}", enabled=self.progress) as bar:
            return match.corrupt_all(performer, instances, seconds, progress=bar.update)

    def judge(
        self, claude: PerformerSpec, rounds: Sequence[match.Round], seconds_per_pair: float | None
    ) -> list[match.JudgementRecord]:
        return match.judge_rounds(
            self.performer("claude", claude), claude.label, rounds, seconds_per_pair,
            sees_source=claude.sees_source, sees_metadata=claude.sees_metadata,
        )

    def can_translate(self, claude: PerformerSpec) -> bool:
        return match.is_scoring(self.performer("claude", claude))

    def score_convention(self, claude: PerformerSpec) -> str:
        return str(getattr(self.performer("claude", claude), "convention", "mean"))

    def keep_claudes(self) -> None:
        """Every Claude stays built until released (it does already in process)."""

    def observes(self, claude: PerformerSpec) -> bool:
        return isinstance(self.performer("claude", claude), Observer)

    def observe(self, claude: PerformerSpec, outcomes: Sequence[RoundOutcome]) -> None:
        self.performer("claude", claude).observe(list(outcomes))

    def translate_and_score(self, claude: PerformerSpec, sources: Sequence[str], beam: int) -> list[tuple[str, float, int]]:
        performer = self.performer("claude", claude)
        translations = performer.translate(list(sources), beam=beam)
        scores = performer.score(list(sources), translations)
        return [(t, float(s.logprob), int(s.tokens)) for t, s in zip(translations, scores)]

    def detect(self, zellig: PerformerSpec, texts: Sequence[str], sources: Sequence[str]) -> list[bool] | None:
        performer = self.performer("zellig", zellig)
        if not callable(getattr(performer, "detect", None)):
            return None
        return [bool(match._detect(performer, text, source)) for text, source in zip(texts, sources)]

    def release(self, claude: PerformerSpec) -> None:
        """Drop a Claude once its work is done, so two large models are never held at once."""
        self._built.pop(("claude", claude.label), None)

    def close(self) -> None:
        self._built.clear()
