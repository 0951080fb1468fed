"""Declared types of config fields and performer params, checked without building anything.

A config field or a performer constructor parameter declares what it accepts with its
type annotation; :func:`check_value` checks a value read from YAML (or ``--set``)
against it, strictly: ``"forty"`` is no ``int``, ``"no"`` no ``bool``, ``True`` no
``int``; an ``int`` is accepted where a ``float`` is.  Ranges are declared with
``annotated_types`` (``Annotated[int, Ge(1)]``), and two markers say more than a type:

- :class:`MustExist` — the string names a file or directory that must exist when the
  performer is built (:data:`ExistingFile`, :data:`ExistingDir`, :data:`ExistingPath`);
  relative paths are read from the working directory, as the performer reads them.
  It is declared for the data Johns and Zelligs read, not for Claudes' model paths:
  on a cluster those need to exist only on the nodes that run the Claude, and a hub
  name looks like a relative path;
- :class:`Performer` — the value is a nested performer spec of a role (a SPEC string
  or ``{name, params}``), checked like a top-level one (e.g. the John a ``select``
  John draws from);
- :class:`Check` — a function of the value that says what is wrong with it (a device
  that must be present, a model that must resolve offline, a year range), so that the
  performer's own rule is declared once and run by ``validate`` and ``run`` alike.

So ``arena validate`` finds what ``arena run`` would reject on its config before any
model is loaded::

    def __init__(self, dir: ExistingDir, limit: PositiveInt | None = None): ...

Pydantic (strict mode) does the type checking; this module turns its findings into
one readable line.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from annotated_types import Ge, Gt, Lt, MinLen


@dataclass(frozen=True)
class MustExist:
    """Marker: a path that must exist; ``kind`` is ``file``, ``directory`` or ``path`` (either)."""

    kind: str = "path"
    contains: tuple[str, ...] = ()  # files a directory must hold

    def problem(self, value: str) -> str | None:
        """Why ``value`` does not name what it must (a phrase), or ``None``."""
        path = Path(value).expanduser()
        if self.kind == "file" and not path.is_file():
            return f"names a directory, expected a file: {value}" if path.is_dir() else f"names no file: {value}"
        if self.kind == "directory" and not path.is_dir():
            return f"names a file, expected a directory: {value}" if path.exists() else f"names no directory: {value}"
        if not path.exists():
            return f"names no file or directory: {value}"
        missing = [name for name in self.contains if not (path / name).is_file()]
        if missing:
            return f"names a directory without {', '.join(missing)}: {value}"
        return None


@dataclass(frozen=True)
class Performer:
    """Marker: a nested performer spec of ``role`` (``john``, ``zellig``, ``claude``) whose class
    also has the methods ``needs`` names (``score``, ``translate``): checked by ``validate`` and
    ``run`` alike (:func:`arena.specs.registry.check_role`)."""

    role: str
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Check:
    """Marker: ``function(value)`` returns why the value is refused (a phrase) or ``None``;
    an :class:`~arena.errors.ArenaError` it raises counts as its phrase."""

    function: Callable[[Any], str | None]

    def problem(self, value: Any) -> str | None:
        from arena.errors import ArenaError

        try:
            return self.function(value)
        except ArenaError as error:
            return str(error)


ExistingFile = Annotated[str, MustExist("file")]
ExistingDir = Annotated[str, MustExist("directory")]
ExistingPath = Annotated[str, MustExist("path")]
PositiveInt = Annotated[int, Ge(1)]
PositiveFloat = Annotated[float, Gt(0)]
FinitePositiveFloat = Annotated[float, Gt(0), Lt(math.inf)]  # a weight or penalty: inf is no number here
NonNegativeFloat = Annotated[float, Ge(0), Lt(math.inf)]  # a rate, a cost in seconds: 0 is allowed, inf is not
Name = Annotated[str, MinLen(1)]  # a non-empty string: a key, a label, a module
# a performer nested in another's params (a SPEC string or {name, params}), checked as a top-level one
NestedJohn = Annotated[Any, Performer("john")]
NestedZellig = Annotated[Any, Performer("zellig")]
NestedClaude = Annotated[Any, Performer("claude")]
NestedScoringClaude = Annotated[Any, Performer("claude", ("score",))]  # a Claude whose scores are used
NestedTranslatingClaude = Annotated[Any, Performer("claude", ("translate",))]  # a Claude that translates


def type_hints(target: Any) -> dict[str, Any]:
    """The evaluated annotations (with ``Annotated`` extras) of a class's constructor or of
    a dataclass; ``{}`` when they cannot be evaluated (then nothing is type-checked)."""
    # a class: the constructor its instances get (its own or an inherited ``__init__``)
    function = inspect.getattr_static(target, "__init__") if isinstance(target, type) else target
    try:
        return typing.get_type_hints(function, include_extras=True)
    except Exception:  # a forward reference that does not resolve: no declared types to check
        return {}


@functools.cache
def _adapter(annotation: Any):
    from pydantic import ConfigDict, TypeAdapter

    return TypeAdapter(annotation, config=ConfigDict(strict=True, arbitrary_types_allowed=True))


def describe(annotation: Any) -> str:
    """A readable name of a declared type: ``int ≥ 1 or null``, ``list of str``."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        inner, *extras = typing.get_args(annotation)
        words = [describe(inner)]
        for extra in extras:
            for name, symbol in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
                if hasattr(extra, name):
                    words.append(f"{symbol} {getattr(extra, name)}")
            if getattr(extra, "min_length", None):
                words.insert(0, "a non-empty" if extra.min_length == 1 else f"(at least {extra.min_length} long)")
            if isinstance(extra, MustExist):
                words.append(f"naming an existing {extra.kind}" if extra.kind != "path" else "naming an existing path")
        return " ".join(words)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(annotation)
        named = [describe(arg) for arg in args if arg is not type(None)]
        return " or ".join(named + (["null"] if type(None) in args else []))
    if origin is typing.Literal:
        return "one of " + ", ".join(str(arg) for arg in typing.get_args(annotation))
    if origin in (list, tuple, set, frozenset, collections.abc.Sequence):
        items = [arg for arg in typing.get_args(annotation) if arg is not Ellipsis]
        return f"a list of {describe(items[0])}" if items else "a list"
    if origin in (dict, collections.abc.Mapping):
        return "a mapping"
    if annotation is bool:
        return "a boolean (true or false)"
    if annotation is Any:
        return "anything"
    return {int: "an integer", float: "a number", str: "a string", type(None): "null"}.get(
        annotation, getattr(annotation, "__name__", str(annotation))
    )


def _markers(annotation: Any, value: Any) -> list[tuple[Any, Any]]:
    """``(marker, value)`` for every marker that applies to ``value`` (or to its items)."""
    origin = typing.get_origin(annotation)
    if value is None:
        return []
    if origin is Annotated:
        inner, *extras = typing.get_args(annotation)
        found = [(extra, value) for extra in extras if isinstance(extra, (MustExist, Performer, Check))]
        return found + _markers(inner, value)
    if origin in (typing.Union, types.UnionType):
        return [found for arg in typing.get_args(annotation) for found in _markers(arg, value)]
    if origin in (list, tuple) and isinstance(value, (list, tuple)):
        args = [arg for arg in typing.get_args(annotation) if arg is not Ellipsis]
        return [found for item in value for found in _markers(args[0], item)] if args else []
    return []


def check_value(value: Any, annotation: Any) -> str | None:
    """Why ``value`` does not fit ``annotation`` (a short phrase), or ``None`` if it does.

    Nested :class:`Performer` markers are not checked here; see :func:`nested_performers`."""
    if annotation is Any or annotation is typing.Any:
        return None
    if isinstance(value, float) and not math.isfinite(value):  # .nan, .inf in YAML: no number a param can use
        return f"must be a finite number, not {value!r}"
    from pydantic import ValidationError

    try:
        _adapter(annotation).validate_python(value)
    except ValidationError:
        return f"must be {describe(annotation)}, not {value!r}"
    for marker, item in _markers(annotation, value):
        problem = None
        if isinstance(marker, MustExist) and isinstance(item, str):
            problem = marker.problem(item)
        elif isinstance(marker, Check):
            problem = marker.problem(item)
        if problem:
            return problem
    return None


def nested_performers(value: Any, annotation: Any) -> list[tuple[str, Any]]:
    """``(role, spec)`` of the nested performer specs a value holds, per its annotation."""
    return [(marker.role, item) for marker, item in nested_markers(value, annotation)]


def nested_markers(value: Any, annotation: Any) -> list[tuple[Performer, Any]]:
    """``(marker, spec)`` of the nested performer specs a value holds, per its annotation."""
    return [(marker, item) for marker, item in _markers(annotation, value) if isinstance(marker, Performer)]
