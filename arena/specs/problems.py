"""pydantic's findings on a config as arena's :class:`~arena.errors.ConfigError`: file, line, key, reason.

The experiment config (:mod:`arena.specs.config`) and a performer entry (:mod:`arena.specs.spec`)
are each validated in one pydantic call against a typed model of the YAML.  pydantic reports
each problem with a location (``("claudes", 1, "params")``); :func:`config_error` turns the
first one in the file into one line::

    exp.yaml:6: unknown key 'claudes.1.parms'; allowed keys: name, params, alias, ...
    exp.yaml:9: 'seeds' must be an integer or a list of distinct integers, not 'one'
    exp.yaml (--set time_budget.zellig_seconds): 'time_budget.zellig_seconds' must be a number > 0 or null, not -1

- the line is that of the key in the file (``lines``: :func:`arena.specs.yamlio.yaml_key_lines`),
  or of its nearest enclosing key; a key a ``--set`` override gave (line :data:`SET`) is named so;
- the key path is the one the YAML spells (``john`` where the file says ``john``);
- the reason says what the value must be: the :class:`What` a declaration carries where a
  type alone says too little (``What("an integer or a list of distinct integers")``), else the
  type as :func:`arena.specs.typecheck.describe` reads it; a marker's or a validator's own
  phrase (:func:`refuse`) as it is; for an unknown key the allowed keys, for a missing one
  its name.  An :class:`~arena.errors.ArenaError` that a validator raised with its own
  location (a SPEC string, a schedule) is re-raised as it is.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, NoReturn

from pydantic import AliasChoices, BaseModel, ValidationError
from pydantic_core import PydanticCustomError

from arena.errors import ArenaError, ConfigError
from arena.specs.typecheck import PROBLEM, describe

SET = 0  # the "line" of a key given on the command line (--set)
Keys = tuple[str, ...]


@dataclass(frozen=True)
class What:
    """Marker: what a declared value must be, in words, for messages (pydantic ignores it)."""

    text: str


def refuse(problem: str, keys: Sequence[str] | None = None) -> NoReturn:
    """Refuse a value from inside a validator with the phrase that follows its key path: the
    location pydantic gives, or ``keys`` (relative to the whole value validated) from a model's
    validator that knows which key the problem is about."""
    raise PydanticCustomError(PROBLEM, "{problem}", {"problem": problem, **({} if keys is None else {"keys": tuple(keys)})})


def line_of(lines: Mapping[Keys, int], keys: Keys, spellings: Mapping[str, str] | None = None) -> Keys | None:
    """The longest prefix of ``keys`` that has a line (the key as written, else spelled per
    ``spellings``, e.g. ``johns`` → ``john``), or ``None``."""
    spelled = [keys]
    if keys and spellings and keys[0] in spellings:
        spelled.append((spellings[keys[0]], *keys[1:]))
    for candidate in spelled:
        for end in range(len(candidate), 0, -1):
            if candidate[:end] in lines:
                return candidate[:end]
    return None


def where(path: str, lines: Mapping[Keys, int], keys: Keys, spellings: Mapping[str, str] | None = None) -> str:
    """``file:line`` of a key path, ``file (--set KEY)`` for an override, ``file`` without a line."""
    found = line_of(lines, keys, spellings)
    if found is None or lines[found] is None:
        return path
    if lines[found] == SET:
        return f"{path} (--set {'.'.join(found)})"
    return f"{path}:{lines[found]}"


def _unwrap(annotation: Any) -> tuple[Any, list[Any]]:
    """The type under ``Annotated`` and ``X | None``, with the metadata met on the way."""
    metadata: list[Any] = []
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            annotation, *extras = typing.get_args(annotation)
            metadata += extras
        elif origin in (typing.Union, types.UnionType):
            members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            if len(members) != 1:
                return annotation, metadata
            annotation = members[0]
        else:
            return annotation, metadata


def _what(metadata: Sequence[Any]) -> str | None:
    return next((item.text for item in reversed(metadata) if isinstance(item, What)), None)


def accepted_keys(model: type[BaseModel]) -> dict[str, str]:
    """Each key a model accepts (a field's name, then its alias choices) → the field's name."""
    keys: dict[str, str] = {}
    for name, field in model.model_fields.items():
        keys[name] = name
        alias = field.validation_alias
        for choice in alias.choices if isinstance(alias, AliasChoices) else ():
            if isinstance(choice, str):
                keys[choice] = name
    return keys


@dataclass
class _Spot:
    """Where a location of pydantic's leads in a declaration: the annotation there (as declared,
    for :func:`describe`), and the nearest :class:`What` that speaks for it (its depth in the location)."""

    annotation: Any
    what: str | None
    depth: int
    parent: Any = None  # the model whose key the last step was (for an unknown key)


def _walk(root: Any, loc: Sequence[Any]) -> _Spot:
    spot = _Spot(root, _what(_unwrap(root)[1]), 0)
    steps = list(loc)
    depth = 0
    while depth < len(steps):
        step, (annotation, _) = steps[depth], _unwrap(spot.annotation)
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        is_key = depth + 1 < len(steps) and steps[depth + 1] == "[key]"
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            spot.parent = annotation
            name = accepted_keys(annotation).get(str(step))
            if name is None:
                return spot
            declared = annotation.model_fields[name].rebuild_annotation()
            depth += 1
            spot = _Spot(declared, _what(_unwrap(declared)[1]), depth, annotation)  # a model's key speaks for itself
            continue
        if origin in (list, tuple, Sequence) and args:
            declared = args[0]
        elif origin in (dict, Mapping) and len(args) == 2:
            declared = args[0] if is_key else args[1]
        else:
            return spot
        depth += 2 if is_key else 1
        spot.annotation = declared
        what = _what(_unwrap(declared)[1])
        if what or is_key:  # an item's What speaks for it, else its container's; a key's only its own
            spot.what, spot.depth = what, depth
    return spot


def _repr(value: Any, limit: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _reason(error: Mapping[str, Any], spot: _Spot, keys: Keys) -> tuple[Keys, str]:
    """The key path a problem is told at and what is wrong there."""
    if error["type"] == PROBLEM:
        return keys, str(error["ctx"]["problem"])
    what = spot.what or describe(spot.annotation)
    if "[key]" in keys:  # a mapping's key: told at the mapping
        return keys[: keys.index("[key]") - 1], f"has the key {_repr(error['input'])}; its keys must be {what}"
    if error["type"] == "finite_number":
        what = "a finite number"
    told = keys[: spot.depth] if spot.what else keys  # a What speaks for the value it is declared on
    return told, f"must be {what}, not {_repr(error['input'])}"


def config_error(error: ValidationError, root: Any, path: str, lines: Mapping[Keys, int], *, whole: str,
                 spellings: Mapping[str, str] | None = None, hints: Mapping[Keys, str] | None = None) -> ArenaError:
    """The :class:`ConfigError` for the first problem (in the file's order) pydantic found in a
    value declared as ``root`` (a model or an annotation); ``whole`` says what the whole value
    must be (``an experiment is a YAML mapping``); ``hints`` a hint per key path."""
    problems = error.errors(include_url=False)
    for problem in problems:  # a validator's own error, located already
        if isinstance(problem.get("ctx", {}).get("error"), ArenaError):
            return problem["ctx"]["error"]

    def keys_of(problem: Mapping[str, Any]) -> Keys:
        given = problem.get("ctx", {}).get("keys") if problem["type"] == PROBLEM else None
        return tuple(str(step) for step in (given if given is not None else problem["loc"]))

    def order(problem: Mapping[str, Any]) -> float:
        found = line_of(lines, keys_of(problem), spellings)
        return float("inf") if found is None or lines[found] is None else lines[found]

    first = min(problems, key=order)  # the first in the file; pydantic's order among equals
    keys = keys_of(first)
    spot = _walk(root, first["loc"])
    hint = (hints or {}).get(keys)
    dotted = ".".join(step for step in keys if step != "[key]")
    if first["type"] == "extra_forbidden":
        allowed = ", ".join(accepted_keys(spot.parent)) if spot.parent else ""
        return ConfigError(f"{where(path, lines, keys, spellings)}: unknown key '{dotted}'; allowed keys: {allowed}",
                           hint=hint)
    if first["type"] == "missing":
        said = f"; it must be {spot.what}" if spot.what else ""
        return ConfigError(f"{where(path, lines, keys[:-1], spellings)}: missing key '{dotted}'{said}", hint=hint)
    if not keys:
        return ConfigError(f"{path}: {whole}, not {type(first['input']).__name__}", hint=hint)
    told, reason = _reason(first, spot, keys)
    at = tuple(step for step in keys if step != "[key]")  # a mapping's key is told at the mapping, found at its line
    return ConfigError(f"{where(path, lines, at, spellings)}: '{'.'.join(told)}' {reason}", hint=hint)
