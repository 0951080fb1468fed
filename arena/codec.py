"""The one JSON serialiser of arena's records: ``dump(record)`` and ``load(cls, data)``.

Every frozen dataclass that a run writes or reads back (the records of :mod:`arena.records`,
the transcripts' :mod:`arena.record.rounds`, a calibration, a balance summary, LingEval97's
sentences, …) goes through a pydantic ``TypeAdapter`` made once per class.  A record declares
its JSON layout on its own fields, with pydantic's field-level config; this module knows no
record:

- a key that is not the field's name: ``id: Annotated[str, Field(alias="round")]``;
- a key written only when it says something: ``Field(exclude_if=...)``;
- a key that older files lack: ``Field(default=...)`` inside ``Annotated`` (read as that
  default; the dataclass's constructor still requires the argument);
- a value written but never read back: ``computed_field`` over a property;
- strings shared or interned as they are read (memory at 200k rounds): a field validator;
- keys in another order than the fields', or keys that depend on another field: a method
  ``json_keys(self)`` naming the keys to write, in order, for a record written at the top of
  a line or file (a transcript's line, a calibration file).  pydantic's ``model_serializer``
  in ``wrap`` mode does it for a nested record too (LingEval97's sentences and errors keep
  their unnamed keys so), but serialises its result a second time, which would double a
  round's cost.

:func:`dump` gives the ``dict`` that the writers pass to their own ``json.dumps``
(:func:`arena.record.transcripts.dumps_line`): nested records as dicts, mappings as dicts,
every other value as it is (a tuple stays a tuple, which ``json.dumps`` writes as a list;
``-inf`` stays a float, which it writes as ``-Infinity``), so ``ensure_ascii``, the
separators and the float format are the writer's.  (pydantic's ``mode="json"`` is not used:
it turns an infinite float whose type it infers into ``null``.)  :func:`load` takes a decoded
JSON object, :func:`loads` the line itself; one that does not fit the record is a
:class:`~arena.errors.DataError` naming the key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError
from pydantic_core import to_json

from arena.errors import DataError

T = TypeVar("T")
_ADAPTERS: dict[type, TypeAdapter[Any]] = {}
_WRITERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def adapter(cls: type[T]) -> TypeAdapter[T]:
    """The pydantic adapter of a record class (built on first use, then kept)."""
    found = _ADAPTERS.get(cls)
    if found is None:
        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


def _writer(cls: type) -> Callable[[Any], dict[str, Any]]:
    to_python = adapter(cls).serializer.to_python
    keys = getattr(cls, "json_keys", None)
    if keys is None:
        return lambda record: to_python(record, by_alias=True, warnings=False)

    def write(record: Any) -> dict[str, Any]:
        data = to_python(record, by_alias=True, warnings=False)
        return {key: data[key] for key in keys(record)}

    return write


def dump(record: Any) -> dict[str, Any]:
    """The dict of a record that ``json.dumps`` writes, keys in the record's declared order."""
    write = _WRITERS.get(type(record))
    if write is None:
        write = _WRITERS[type(record)] = _writer(type(record))
    return write(record)


def dumps(record: Any) -> bytes:
    """One compact JSON text of a record, for a file only arena reads back (:func:`loads`; a
    spool of the planner): written by pydantic-core, about twice as fast as ``json.dumps``, with
    json's ``NaN`` and ``Infinity`` for the floats that have no JSON number.  A transcript is
    written with :func:`dump` and its writer's ``json.dumps`` instead, whose layout is the
    files' (``", "`` and ``": "`` between items)."""
    return to_json(dump(record), inf_nan_mode="constants")


def load(cls: type[T], data: Mapping[str, Any]) -> T:
    """The record of class ``cls`` that a decoded JSON object holds."""
    try:
        return adapter(cls).validator.validate_python(data)
    except ValidationError as error:
        raise _problem(cls, error) from None


def loads(cls: type[T], text: str | bytes) -> T:
    """The record of class ``cls`` that one JSON text holds (a line its writer wrote), read by
    pydantic's own JSON parser: no dict in between, and short strings shared (≤ 64 characters,
    pydantic's ``cache_strings``).  For a reader that needs the line only as this record."""
    try:
        return adapter(cls).validator.validate_json(text)
    except ValidationError as error:
        raise _problem(cls, error) from None


def _problem(cls: type, error: ValidationError) -> DataError:
    first = error.errors(include_url=False)[0]
    key = ".".join(str(part) for part in first["loc"]) or None
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return DataError(f"not a {cls.__name__} record: {key + ': ' if key else ''}{first['msg']}{more}", key=key)
