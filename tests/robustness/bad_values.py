"""Bad values for a declared parameter, derived from its annotation alone.

:func:`bad_values` walks a parameter's type (``Literal``, ``int``/``float`` with
``annotated_types`` bounds, ``bool``, ``str``, lists, nested performer specs, paths that
must exist, ``| None``) and returns values a user could plausibly write that the
declaration does not admit, and :func:`edge_values` values of the declared type that a
performer may still refuse (``""``, ``0``, ``-1``, ``nan``, ``[]``, a name that exists
nowhere).  The schema test feeds both to ``arena validate`` and to the build step of
``arena run``: a value of the second kind that ``run`` refuses must be refused by
``validate`` too, so a rule a constructor checks by hand shows up as a mismatch until its
annotation states it.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Annotated, Any

from arena.specs.typecheck import MustExist, Performer


def _bounds(extras: list[Any]) -> list[Any]:
    values = []
    for extra in extras:
        for name, step in (("ge", -1), ("gt", 0), ("le", 1), ("lt", 0)):
            bound = getattr(extra, name, None)
            if isinstance(bound, (int, float)):
                values.append(bound + step)
    return values


# what a plain type does not admit
PLAIN: dict[type, list[Any]] = {bool: ["yes", 1], int: ["forty", 1.5], float: ["fast"], str: [12345, ["a"]]}


def bad_values(annotation: Any) -> list[Any]:
    """Values the annotation does not admit (duplicates removed, order kept)."""
    values: list[Any] = []
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        inner, *extras = typing.get_args(annotation)
        values += _bounds(extras)
        for extra in extras:
            if isinstance(extra, MustExist):
                values.append("no/such/path")
            elif isinstance(extra, Performer):
                values.append("no-such-performer")
        values += bad_values(inner)
    elif origin in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        for arg in args:
            values += [value for value in bad_values(arg) if not _admitted(value, args)]
    elif origin is typing.Literal:
        values += ["no-such-choice"]
    elif origin in (list, tuple, collections.abc.Sequence):
        values += ["not-a-list", {"a": 1}]
    elif origin in (dict, collections.abc.Mapping):
        values += ["not-a-mapping", [1]]
    else:
        values += next((bad for plain, bad in PLAIN.items() if annotation is plain), [])
    unique: list[Any] = []
    for value in values:
        if not any(value == seen and type(value) is type(seen) for seen in unique):
            unique.append(value)
    return unique


def _admitted(value: Any, args: list[Any]) -> bool:
    """Whether a plain type among ``args`` takes ``value`` (``int | str`` takes ``"x"``)."""
    from arena.specs.typecheck import check_value

    return any(check_value(value, arg) is None for arg in args if typing.get_origin(arg) is None)


EDGES: dict[type, list[Any]] = {
    str: ["", "no-such-value", "no/such/path"],  # relative: the test runs in its own directory
    int: [0, -1, 10**12],
    float: [0.0, -1.0, float("nan"), float("inf")],
}


def edge_values(annotation: Any) -> list[Any]:
    """Values of the declared type that a performer may refuse nonetheless."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return edge_values(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [value for arg in typing.get_args(annotation) for value in edge_values(arg)]
    if origin in (list, tuple, collections.abc.Sequence):
        args = [arg for arg in typing.get_args(annotation) if arg is not Ellipsis]
        return [[]] + ([[value] for value in edge_values(args[0])] if args else [])
    return list(EDGES.get(annotation, []))
