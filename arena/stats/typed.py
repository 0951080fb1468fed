"""How the typed results are serialised, read back and described: by pydantic.

The results (:mod:`arena.stats.results`, the leaderboards, the false-positive rows) are frozen
dataclasses that inherit :class:`Result`; they are written and read by the one serialiser of
arena's records (:func:`arena.codec.dump`, :func:`arena.codec.load`: pydantic's ``TypeAdapter``
over each class), and described by it (:func:`schema`).
What the JSON looks like is declared on the fields:

- ``Annotated[T, Field(alias="yield")]``: the JSON key when it is not the field's name;
- ``Annotated[T, OMIT_NONE]`` / ``Annotated[T, OMIT_EMPTY]``: the key is left out when the value
  is ``None`` / empty (pydantic's ``exclude_if``), so it appears only where it means something;
- ``field(metadata=FLAT)``: the value's keys are merged into the parent object in the field's
  place (a summary into its cell, a paired test into its pair; pydantic's ``model_serializer``
  wraps the fields' dump), and read back from the parent's keys that are no field of its own
  (``model_validator(mode="before")``).  The registered metrics (a tuple of
  :class:`~arena.stats.registry.MetricValue` or :class:`~arena.stats.registry.MeanStd`) are
  flattened the same way; their keys depend on the registry
  (their ``parse_flat`` and ``flat_properties``: :func:`arena.stats.registry.parse_metric_values`).

Objects are closed (``additionalProperties: false``) except where registered metrics are
flattened: there a key of a metric registered elsewhere is admitted (a number, null or an
interval) and ignored when read.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Callable, Mapping
from typing import Any, cast

from pydantic import ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer, model_validator
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import core_schema

from arena.codec import adapter

OMIT_NONE = Field(exclude_if=lambda value: value is None)
OMIT_EMPTY = Field(exclude_if=lambda value: not value)
FLAT: Mapping[str, Any] = {"flatten": True}

INTERVAL: dict[str, Any] = {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                            "minItems": 2, "maxItems": 2}
# the value of a key of a metric registered elsewhere (admitted beside the registered metrics)
OPEN: dict[str, Any] = {"anyOf": [{"type": ["number", "null"]}, INTERVAL]}


class Result:
    """The base of a typed result: a frozen dataclass that pydantic serialises, reads and describes."""

    # a key this arena does not know is ignored when read (as a reader of an older file would); the
    # schema still closes every object that has no registered metrics (:func:`_describe`)
    __pydantic_config__ = ConfigDict(extra="ignore", json_schema_serialization_defaults_required=True)

    @model_serializer(mode="wrap")
    def _flatten(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        flat = _layout(cast(Any, type(self))).flat
        if not flat or not isinstance(data, dict):
            return data
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key not in flat:
                out[key] = value
            elif isinstance(value, dict):
                out.update(value)
            else:  # registered metrics: one object per metric
                for part in value:
                    out.update(part)
        return out

    @model_validator(mode="before")
    @classmethod
    def _unflatten(cls, data: Any) -> Any:
        layout = _layout(cast(Any, cls))
        if not layout.flat or not isinstance(data, Mapping):
            return data
        own = {key: value for key, value in data.items() if key in layout.keys}
        rest = {key: value for key, value in data.items() if key not in layout.keys}
        for name, parse in layout.flat.items():
            own[name] = parse(rest) if parse is not None else rest
        return own


@dataclasses.dataclass(frozen=True)
class _Layout:
    keys: frozenset[str]  # the JSON keys of the fields that are not flattened
    flat: dict[str, Callable[[Mapping[str, Any]], Any] | None]  # flattened field -> how its keys are read


@functools.cache
def _layout(cls: Any) -> _Layout:
    hints = typing.get_type_hints(cls, include_extras=True)
    keys, flat = set(), {}
    for item in dataclasses.fields(cls):
        if item.metadata.get("flatten"):
            inner = _inner(hints[item.name])
            flat[item.name] = getattr(inner, "parse_flat", None)
            continue
        keys.add(_alias(hints[item.name]) or item.name)
    return _Layout(frozenset(keys), flat)


def _alias(hint: Any) -> str | None:
    """The JSON key an ``Annotated[T, Field(alias=...)]`` field is written under."""
    if typing.get_origin(hint) is not typing.Annotated:
        return None
    return next((m.alias for m in typing.get_args(hint)[1:] if getattr(m, "alias", None)), None)


def _inner(hint: Any) -> Any:
    """The class a flattened field holds (the element type of a tuple of metrics)."""
    if typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    return typing.get_args(hint)[0] if typing.get_origin(hint) is tuple else hint


class _Schema(GenerateJsonSchema):
    """pydantic's JSON Schema with the flattened fields' keys in their parent, no titles, and each
    object's docstring as its description."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def ser_schema(self, schema: Any) -> JsonSchemaValue | None:
        if schema["type"] == "function-wrap" and getattr(schema.get("function"), "__qualname__", "") == "Result._flatten":
            return None  # the fields' schema, flattened by dataclass_schema below
        return super().ser_schema(schema)

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        value = super().dataclass_schema(schema)
        cls = schema["cls"]
        if not issubclass(cls, Result):
            return value
        _describe(cls, value, self.mode)
        return value


def _describe(cls: type, target: dict[str, Any], mode: JsonSchemaMode) -> None:
    """Merge the flattened fields' keys into ``target`` (an object's schema) in place."""
    hints = typing.get_type_hints(cls, include_extras=True)
    doc = cls.__doc__ or ""
    if doc and not doc.startswith(f"{cls.__name__}("):  # not the signature dataclasses writes
        target["description"] = " ".join(doc.split())
    properties, required = target.get("properties", {}), list(target.get("required", []))
    merged: dict[str, Any] = {}
    for key, value in properties.items():
        item = next((f for f in dataclasses.fields(cls) if f.name == key and f.metadata.get("flatten")), None)
        if item is None:
            merged[key] = value
            continue
        inner = _inner(hints[item.name])
        if hasattr(inner, "flat_properties"):
            merged.update(inner.flat_properties())
            target["additionalProperties"] = OPEN
        else:
            flat = schema(inner, mode)
            merged.update(flat["properties"])
            required += flat.get("required", [])
            if flat.get("additionalProperties") is not False:
                target["additionalProperties"] = flat["additionalProperties"]
        required = [name for name in required if name != key]
    target["properties"] = merged
    target["required"] = required
    target.setdefault("additionalProperties", False)


def schema(cls: Any, mode: JsonSchemaMode = "serialization") -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a typed result as :func:`dump` writes it."""
    return adapter(cls).json_schema(by_alias=True, mode=mode, schema_generator=_Schema)
