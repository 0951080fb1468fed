"""The model in the loop for a person playing Zellig (Dynabench's idea): as they edit a
reference, the run's scoring Claudes score the reference and the edit, and the
phenomenon's detector says whether the edit shows it.

A Claude is *fooled* by an edit when it does not score the edit below the reference in
its own convention (mean log-probability per token by default): it would not have named
the edit as the corrupted candidate.  The detector of a phenomenon is the catalog Zellig
of that name (``placeholder_ding`` → ``placeholder-ding``) when it has ``detect``;
phenomena without one get no verdict (``None``).  Claudes are built once, on first use
(or by :meth:`LiveScorer.warm`), and scored under a lock: one server thread scores at a
time, which the toy model does in milliseconds.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

log = logging.getLogger(__name__)


class LiveScorer:
    """Scores edits with an experiment's scoring Claudes; ``catalog`` is the CLI's."""

    def __init__(self, claude_specs: Sequence[Any], catalog: Any):
        self.specs = list(claude_specs)
        self.catalog = catalog
        self._claudes: list[tuple[str, Any, bool]] | None = None
        self._detectors: dict[str, Any] = {}
        self._lock = threading.Lock()

    def claudes(self) -> list[tuple[str, Any, bool]]:
        """``(label, Claude, sees_source)`` of the scoring Claudes (built on first use)."""
        if self._claudes is None:
            from arena.specs.registry import build

            built = []
            for spec in self.specs:
                claude = build("claude", spec, self.catalog, where=f"claude {spec.label}")
                if callable(getattr(claude, "score", None)):
                    built.append((spec.label, claude, spec.sees_source))
            self._claudes = built
            log.info("live scoring with %s", ", ".join(label for label, _, _ in built) or "no scoring Claude")
        return self._claudes

    def warm(self) -> None:
        """Build the Claudes and score one pair, so that the first person waits for nothing."""
        with self._lock:
            for _, claude, _ in self.claudes():
                claude.score(["A test."], ["Ein Test."])

    def detector(self, phenomenon: str | None) -> Any:
        """The catalog Zellig that detects ``phenomenon``, or ``None``."""
        if not phenomenon:
            return None
        if phenomenon not in self._detectors:
            from arena.specs.registry import build
            from arena.specs.spec import PerformerSpec

            name = phenomenon.replace("_", "-")
            zellig = None
            if name in self.catalog.table("zellig"):
                try:
                    zellig = build("zellig", PerformerSpec(name), self.catalog, where=f"detector {name}")
                except (ValueError, TypeError) as error:  # a Zellig that needs params: no verdict
                    log.info("no detector for %s: %s", phenomenon, error)
            self._detectors[phenomenon] = zellig if callable(getattr(zellig, "detect", None)) else None
        return self._detectors[phenomenon]

    def evaluate(self, source: str, reference: str, text: str, phenomenon: str | None) -> dict[str, Any]:
        """Per Claude the scores of reference and edit and whether the edit fooled it; the
        detector's verdict on the edit (and on the reference, for comparison)."""
        from arena.record.scoring_rule import candidate_score

        results = []
        with self._lock:
            for label, claude, sees_source in self.claudes():
                context = source if sees_source else ""
                scores = claude.score([context, context], [reference, text])
                convention = getattr(claude, "convention", "mean")
                good, bad = (candidate_score(s, convention) for s in scores)
                results.append({"claude": label, "reference": good, "edit": bad, "fooled": not bad < good})
            detector = self.detector(phenomenon)
            verdict = before = None
            if detector is not None and text != reference:
                verdict, before = _detect(detector, text, source), _detect(detector, reference, source)
        return {"claudes": results, "detector": verdict, "detector_on_reference": before,
                "fooled_all": bool(results) and all(r["fooled"] for r in results)}


def _detect(detector: Any, text: str, source: str) -> bool:
    import inspect

    if "source" in inspect.signature(detector.detect).parameters:
        return bool(detector.detect(text, source=source))
    return bool(detector.detect(text))
