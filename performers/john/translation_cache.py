"""The translations a Claude made for the ``mt-reference`` John, kept on disk (JSON lines) so
that a test set built on machine references is translated once."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from arena.sdk import DataError, loads_json

logger = logging.getLogger(__name__)

MISSING_POLICIES = ("skip", "error")
_SYSTEM_FILE = re.compile(r"^wmt(\d\d)\.(.+)\.de$")


class TranslationCache:
    """A JSON-lines cache of a Claude's translations, keyed by (model, beam, source).

    Each line is ``{"model", "beam", "source", "translation"}``.  A truncated last
    line (an interrupted write) is ignored; any other malformed line is a
    ``ValueError`` naming file and line.
    """

    def __init__(self, path: str | Path | None, model: str, beam: int):
        self.path = Path(path) if path else None
        self.model = model
        self.beam = beam
        self.entries: dict[str, str] = {}
        if self.path is not None and self.path.exists():
            self._load()

    def _load(self) -> None:
        assert self.path is not None
        raw = self.path.read_text(encoding="utf-8")
        lines = raw.split("\n")
        complete = raw.endswith("\n")
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entry = loads_json(line, self.path, number)  # bounded: depth, unpaired surrogates
            except DataError:
                if number == len(lines) and not complete:
                    logger.warning("%s:%d: ignoring a truncated last line", self.path, number)
                    continue
                raise
            if not isinstance(entry, Mapping) or not {"model", "beam", "source", "translation"} <= set(entry):
                raise DataError(f"{self.path}:{number}: a cache line needs model, beam, source and translation")
            if entry["model"] == self.model and entry["beam"] == self.beam:
                self.entries[entry["source"]] = entry["translation"]

    def get(self, source: str) -> str | None:
        return self.entries.get(source)

    def add(self, pairs: Sequence[tuple[str, str]]) -> None:
        for source, translation in pairs:
            self.entries[source] = translation
        if self.path is None or not pairs:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as file:
            for source, translation in pairs:
                record = {"model": self.model, "beam": self.beam, "source": source, "translation": translation}
                file.write(json.dumps(record, ensure_ascii=False) + "\n")
