"""Calibration of the cost planner: seconds per unit of work measured on the user's machine.

``experiments/bench/calibrate.py`` writes it (by default to ``$ARENA_CACHE_DIR/calibration.json``,
else ``~/.cache/arena/calibration.json``); ``arena tournament CONFIG --plan`` reads it
(``--calibration FILE`` for another).  The file::

    {"format": 1, "date": "2026-11-25T12:00:00+00:00",
     "machine": {"platform": "...", "processor": "...", "cpus": 2, "gpu": null, "load": [0.4, 0.5, 0.6]},
     "driver": {"per_round": 0.00041, "per_cell": 0.0021},
     "claudes": {"toy-en-de@1(cache=False,...)": {"unit": "CPU", "load": 0.9,
                                                "score_per_word": 0.00012, "decode_per_word": 0.0021},
                 "random@1()": {"unit": "CPU", "load": 0.0, "judge_per_round": 1e-06}}}

Claudes are keyed by their signature (``name@version(params)``), so a calibration applies to the
same model with the same settings; a Claude calibrated only with other params is matched by
``name@version`` (the planner says so).  Units: ``CPU`` seconds (process time, for models on CPU)
or ``GPU`` wall seconds (models on a GPU).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, computed_field

from arena.codec import dump
from arena.codec import load as load_record
from arena.errors import DataError
from arena.specs.registry import Catalog, signature
from arena.specs.spec import PerformerSpec

FORMAT = 1
FILE_NAME = "calibration.json"


def default_path() -> Path:
    base = os.environ.get("ARENA_CACHE_DIR")
    return (Path(base).expanduser() if base else Path.home() / ".cache" / "arena") / FILE_NAME


def claude_key(spec: PerformerSpec, catalog: Catalog) -> str:
    return signature("claude", spec, catalog)


@dataclass(frozen=True)
class DriverRates:
    """The driver's seconds per round judged and per cell played."""

    per_round: float
    per_cell: float


@dataclass
class Calibration:
    """The file's content (:mod:`arena.codec` writes and reads it; ``format`` is written, checked
    by :func:`load`), where it was read from and the Claudes matched loosely."""

    date: str
    machine: dict[str, Any]
    driver: DriverRates
    claudes: dict[str, dict[str, Any]] = field(default_factory=dict)
    path: Annotated[Path | None, Field(exclude=True)] = None
    loose: Annotated[list[str], Field(exclude=True)] = field(default_factory=list)  # matched by name@version only

    @computed_field  # type: ignore[prop-decorator]
    @property
    def format(self) -> int:
        return FORMAT

    def claude(self, key: str) -> dict[str, Any] | None:
        """The rates of a Claude signature, else of one with the same ``name@version``."""
        if key in self.claudes:
            return self.claudes[key]
        stem = _stem(key)
        for known, rates in self.claudes.items():
            if _stem(known) == stem:
                self.loose.append(key)
                return rates
        return None

    def json_keys(self) -> tuple[str, ...]:
        return ("format", "date", "machine", "driver", "claudes")


def _stem(key: str) -> str:
    """``name@version`` of a Claude's signature; a key that is no signature is its own stem."""
    from arena.specs.signature import Signature

    try:
        return Signature.parse(key).stem
    except ValueError:
        return key


def load(path: Path | None = None) -> Calibration | None:
    """The calibration at ``path`` (default :func:`default_path`); ``None`` when the default is
    absent.  A named file that is missing or malformed is a :class:`DataError`."""
    named = path is not None
    path = Path(path) if path is not None else default_path()
    if not path.is_file():
        if named:
            raise DataError("no such calibration file", file=str(path),
                            hint="write one with: python experiments/bench/calibrate.py --out " + str(path))
        return None
    from arena.specs.yamlio import load_json

    data = load_json(path)  # bounded in size and depth; bad JSON is a DataError with file:line
    try:
        if data.get("format") != FORMAT:
            raise DataError(f"calibration format {data.get('format')!r}, expected {FORMAT}",
                            file=str(path), key="format", hint="write it again with experiments/bench/calibrate.py")
        check_rates(data, path)
        calibration = load_record(Calibration, data)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        if isinstance(error, DataError) and error.file is not None:
            raise
        raise DataError(f"not a calibration file ({error})", file=str(path), key=getattr(error, "key", None),
                        hint="write it again with experiments/bench/calibrate.py") from None
    calibration.path = path
    return calibration


UNITS = ("CPU", "GPU")


def check_rates(data: dict[str, Any], path: Path) -> None:
    """Every rate the planner multiplies by (``driver.per_round``, ``driver.per_cell``, each
    Claude's ``load`` and ``*_per_*``) is a finite number ≥ 0 (:data:`NonNegativeFloat`, the type
    performer params use), each ``unit`` CPU or GPU; else a :class:`DataError` naming the key."""
    from arena.specs.typecheck import NonNegativeFloat, check_value

    if not isinstance(data.get("driver"), dict) or not isinstance(data.get("claudes"), dict):
        raise DataError("not a calibration file: it needs the objects 'driver' and 'claudes'", file=str(path), key="driver",
                        hint="write it again with experiments/bench/calibrate.py")
    numbers = [(f"driver.{key}", data["driver"].get(key)) for key in ("per_round", "per_cell")]
    for claude, rates in data["claudes"].items():
        if not isinstance(rates, dict):
            raise DataError(f"the rates of {claude} are not an object", file=str(path), key=f"claudes.{claude}")
        unit = rates.get("unit", "CPU")
        if unit not in UNITS:
            raise DataError(f"unit must be one of {', '.join(UNITS)}, not {unit!r}", file=str(path),
                            key=f"claudes.{claude}.unit")
        numbers += [(f"claudes.{claude}.{key}", value) for key, value in rates.items()
                    if key == "load" or "_per_" in key]
    for key, value in numbers:
        problem = check_value(value, NonNegativeFloat)
        if problem:
            raise DataError(f"{key} {problem}: the planner cannot use this rate", file=str(path), key=key,
                            hint="measure it again with experiments/bench/calibrate.py")


def save(calibration: Calibration, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(dump(calibration), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    temporary.replace(path)
