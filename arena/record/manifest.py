"""``manifest.json``: what a run records about itself, as one pydantic model.

The engine writes it (:func:`arena.engine.manifest.make_manifest`) before the first round is
played; the run store adds the plan's count and digest (:meth:`Manifest.with_plan`) and, when the
run is assembled, the line counts and digests of the files it wrote (:meth:`Manifest.with_written`);
the run readers (:func:`arena.record.verify.load_manifest`, :class:`arena.record.run_dir.RunDir`)
read it back into the model, so a damaged manifest is a :class:`~arena.errors.DataError` naming the
key.  A key a newer arena added is optional here, so a run written before it is still read; a key
this arena does not know is kept as it is.  ``json.dumps(manifest.dump(), ensure_ascii=False,
indent=2)`` is the file; its JSON Schema is ``docs/manifest.schema.json``
(:func:`arena.stats.schema.manifest_schema`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from arena.errors import DataError

_OMIT_NONE = Field(default=None, exclude_if=lambda value: value is None)


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True)


class Plan(_Entry):
    """The plan ``rounds.jsonl`` holds: its rounds and the SHA-256 of the file."""

    rounds: int
    sha256: str


class Written(_Entry):
    """A file a finished run wrote: its (non-blank) lines and SHA-256, which readers check."""

    lines: int
    sha256: str


class Judge(_Entry):
    """Whether a model-consulting Zellig plays against its own judge (``self``) or a held-out one."""

    zellig: str
    claude: str
    judge: str


class Collusion(_Entry):
    """A Zellig that consults a Claude under test, through its param ``param``."""

    zellig: str
    claude: str
    param: str


class Manifest(BaseModel):
    """What ``manifest.json`` records: the resolved experiment, the config file and its hash, the
    performers' signatures (``{role: {label: name@version(params)}}``), the package versions that
    can change numbers, the code's commit, the backend, a game's schedule (with collusion and
    judges), the plan and the files written."""

    model_config = ConfigDict(frozen=True, extra="allow", json_schema_serialization_defaults_required=True)

    experiment: dict[str, Any]  # the resolved config (arena.specs.config.Experiment.to_json)
    config_file: str | None = None
    config_hash: Annotated[str | None, _OMIT_NONE]
    signatures: dict[str, dict[str, str]] = Field(default_factory=dict)
    versions: dict[str, str] = Field(default_factory=dict)
    git_commit: str | None = None
    backend: Annotated[str | None, _OMIT_NONE]
    game: Annotated[dict[str, Any] | None, _OMIT_NONE]  # a game's schedule, resolved
    collusion: Annotated[tuple[Collusion, ...] | None, _OMIT_NONE]
    judges: Annotated[tuple[Judge, ...] | None, _OMIT_NONE]
    plan: Annotated[Plan | None, _OMIT_NONE]
    written: Annotated[dict[str, Written] | None, _OMIT_NONE]

    def dump(self) -> dict[str, Any]:
        """As JSON values, in the order the file keeps."""
        return self.model_dump(by_alias=True)

    def with_plan(self, rounds: int, sha256: str) -> Manifest:
        return self.model_copy(update={"plan": Plan(rounds=rounds, sha256=sha256)})

    def with_written(self, written: dict[str, Written]) -> Manifest:
        return self.model_copy(update={"written": written})

    def judge_labels(self) -> dict[tuple[str, str], str]:
        """``(zellig, claude) → self/held-out`` as recorded (:mod:`arena.game.judges`)."""
        return {(entry.zellig, entry.claude): entry.judge for entry in self.judges or ()}


def parse(data: Any, path: Path) -> Manifest:
    """The manifest of the JSON values ``data`` read from ``path``; one that does not fit is a
    :class:`DataError` naming the file and the first key that does not."""
    try:
        return Manifest.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or None
        raise DataError(f"not a run manifest ({key or 'the file'}: {first['msg']}); delete the run directory and "
                        "run again", file=path, key=key) from None


def read(path: Path) -> Manifest:
    """``manifest.json`` read and checked; a file that is no JSON or no manifest is a :class:`DataError`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise DataError("not valid UTF-8; delete the run directory and run again", file=path) from None
    except json.JSONDecodeError as error:
        raise DataError(f"not valid JSON ({error.msg}); delete the run directory and run again",
                        file=path, line=error.lineno) from None
    return parse(data, path)
