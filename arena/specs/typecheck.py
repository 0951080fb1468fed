"""Declared types of config fields and performer params, checked by pydantic without building anything.

A config field or a performer constructor parameter declares what it accepts with its
type annotation, and that declaration is the only check: ranges with ``annotated_types``
(``Annotated[int, Ge(1)]``), choices with ``Literal[...]``.  Pydantic validates a value read
from YAML (or ``--set``) against it in strict mode: ``"forty"`` is no ``int``, ``"no"`` no
``bool``, ``True`` no ``int``; an ``int`` is accepted where a ``float`` is; ``.nan`` and
``.inf`` are no number.  The registry validates a performer's params once, against one
adapter built from its constructor's signature (:func:`params_adapter`).  Three markers say
more than a type, and pydantic runs them as validators where they sit (in a list, a union):

- :class:`MustExist` — the string names a file or directory that must exist when the
  performer is built (:data:`ExistingFile`, :data:`ExistingDir`, :data:`ExistingPath`);
  relative paths are read from the working directory, as the performer reads them.
  It is declared for the data Johns and Zelligs read, not for Claudes' model paths:
  on a cluster those need to exist only on the nodes that run the Claude, and a hub
  name looks like a relative path;
- :class:`Performer` — the value is a nested performer spec of a role (a SPEC string
  or ``{name, params}``), checked like a top-level one (e.g. the John a ``select``
  John draws from): validation collects them for the registry;
- :class:`Check` — a function of the value that says what is wrong with it (a device
  that must be present, a model that must resolve offline, a year range), so that the
  performer's own rule is declared once and run by ``validate`` and ``run`` alike.

So ``arena validate`` finds what ``arena run`` would reject on its config before any
model is loaded::

    def __init__(self, dir: ExistingDir, limit: PositiveInt | None = None): ...

This module turns pydantic's findings into one readable line (:func:`problem_of`).
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import math
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from annotated_types import Ge, Gt, Lt, MinLen

# pydantic's error type of a marker's refusal; its message is the marker's phrase
PROBLEM = "arena_problem"


class _Marker:
    """A marker pydantic runs after the type it annotates has validated (:meth:`refuse`)."""

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        return core_schema.with_info_after_validator_function(self._validate, handler(source))

    def _validate(self, value: Any, info: Any) -> Any:
        from pydantic_core import PydanticCustomError

        problem = self.refuse(value, info)
        if problem:
            raise PydanticCustomError(PROBLEM, "{problem}", {"problem": problem})
        return value

    def refuse(self, value: Any, info: Any) -> str | None:
        raise NotImplementedError


@dataclass(frozen=True)
class MustExist(_Marker):
    """Marker: a path that must exist; ``kind`` is ``file``, ``directory`` or ``path`` (either)."""

    kind: str = "path"
    contains: tuple[str, ...] = ()  # files a directory must hold

    def refuse(self, value: Any, info: Any) -> str | None:
        return self.problem(value) if isinstance(value, str) else None

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
class Performer(_Marker):
    """Marker: a nested performer spec of ``role`` (``john``, ``zellig``, ``claude``) whose class
    also has the methods ``needs`` names (``score``, ``translate``): validation collects it (in
    the context's ``nested`` list, with the parameter's name) for the registry to check as a
    top-level one (:func:`arena.specs.registry.check_params`), by ``validate`` and ``run`` alike."""

    role: str
    needs: tuple[str, ...] = ()

    def refuse(self, value: Any, info: Any) -> str | None:
        if isinstance(info.context, Mapping) and "nested" in info.context:
            info.context["nested"].append((info.field_name, self, value))
        return None


@dataclass(frozen=True)
class Check(_Marker):
    """Marker: ``function(value)`` returns why the value is refused (a phrase) or ``None``;
    an :class:`~arena.errors.ArenaError` it raises counts as its phrase."""

    function: Callable[[Any], str | None]

    def refuse(self, value: Any, info: Any) -> str | None:
        return self.problem(value)

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


def _config(extra: Any = None) -> Any:
    from pydantic import ConfigDict

    # strict: no coercion ("3" is no int); .nan and .inf are no number a config can mean
    return ConfigDict(strict=True, arbitrary_types_allowed=True, allow_inf_nan=False, extra=extra)


@functools.cache
def _adapter(annotation: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(annotation, config=_config())


@dataclass(frozen=True)
class Params:
    """A constructor's parameters as pydantic validates them: one adapter over a ``TypedDict``
    of the keyword parameters (required where they have no default), their annotations, and
    whether the constructor takes ``**kwargs`` (then unknown names are its own business)."""

    accepted: tuple[str, ...]
    annotations: Mapping[str, Any]
    adapter: Any


@functools.cache
def params_adapter(cls: Any) -> Params:
    """The :class:`Params` of ``cls``'s constructor, built once per class."""
    from typing import NotRequired, Required

    from pydantic import TypeAdapter
    from typing_extensions import TypedDict

    signature = inspect.signature(cls)
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    accepted = [name for name, parameter in signature.parameters.items() if parameter.kind in keyword]
    takes_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    hints = type_hints(cls)
    # an annotation pydantic cannot validate (a user's class it knows no schema for) is not checked
    annotations = {name: hints.get(name, Any) if _validatable(hints.get(name, Any)) else Any for name in accepted}
    fields = {
        name: (Required if signature.parameters[name].default is inspect.Parameter.empty else NotRequired)[
            annotations[name]]
        for name in accepted
    }
    params = TypedDict(f"{getattr(cls, '__name__', 'Performer')}Params", fields)  # type: ignore[misc]
    params.__pydantic_config__ = _config(extra="allow" if takes_any else "forbid")  # type: ignore[attr-defined]
    return Params(tuple(accepted), annotations, TypeAdapter(params))


def _validatable(annotation: Any) -> bool:
    try:
        _adapter(annotation)
    except Exception:  # pydantic's schema errors for what it cannot validate
        return False
    return True


def describe(annotation: Any) -> str:
    """A readable name of a declared type, for messages: ``int ≥ 1 or null``, ``list of str``."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        inner, *extras = typing.get_args(annotation)
        words = [describe(inner)]
        for extra in extras:
            for name, symbol in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
                if hasattr(extra, name):
                    words.append(f"{symbol} {getattr(extra, name)}")
            if getattr(extra, "min_length", None) == 1:  # "a string" → "a non-empty string"
                article, _, noun = words[0].partition(" ")
                words[0] = f"a non-empty {noun}" if article in ("a", "an") and noun else f"a non-empty {words[0]}"
            elif getattr(extra, "min_length", None):
                words.append(f"(at least {extra.min_length} long)")
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


def problem_of(errors: Sequence[Mapping[str, Any]], value: Any, annotation: Any) -> str:
    """One phrase for pydantic's ``errors`` about ``value`` (declared ``annotation``): a marker's
    own phrase, else a number that is not finite, else what the declaration admits."""
    for error in errors:
        if error["type"] == PROBLEM:
            return str(error["ctx"]["problem"])
    for error in errors:
        if error["type"] == "finite_number":
            return f"must be a finite number, not {error['input']!r}"
    return f"must be {describe(annotation)}, not {value!r}"


def check_value(value: Any, annotation: Any) -> str | None:
    """Why ``value`` does not fit ``annotation`` (a short phrase), or ``None`` if it does."""
    from pydantic import ValidationError

    try:
        _adapter(annotation).validate_python(value)
    except ValidationError as error:
        return problem_of(error.errors(include_url=False), value, annotation)
    return None


def nested_performers(value: Any, annotation: Any) -> list[tuple[str, Any]]:
    """``(role, spec)`` of the nested performer specs a value holds, per its annotation (those
    validation reached, when the value is refused)."""
    from pydantic import ValidationError

    nested: list[tuple[str | None, Performer, Any]] = []
    try:
        _adapter(annotation).validate_python(value, context={"nested": nested})
    except ValidationError:
        pass
    return [(marker.role, spec) for _, marker, spec in nested]


def check_fields(record: Any) -> None:
    """Each field of a dataclass instance against its declared type (for a record of options
    that more than one front end builds, e.g. the CLI and a performer); a :class:`ConfigError`
    naming the first field refused."""
    import dataclasses

    from arena.errors import ConfigError

    hints = type_hints(type(record))
    for name in (field.name for field in dataclasses.fields(record)):
        problem = check_value(getattr(record, name), hints.get(name, Any))
        if problem:
            raise ConfigError(f"{name} {problem}")
