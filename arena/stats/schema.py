"""The JSON Schema of ``scores.json``, generated from the typed results.

:func:`scores_schema` walks the dataclasses of :mod:`arena.stats.results` the way
their one serialiser writes them (field metadata ``key``, ``omit``, ``flatten``) and
lists the keys of every registered metric (:mod:`arena.stats.registry`); a metric
registered outside the package still validates (a summary admits further number, null
or interval keys).  The schema is checked in as ``docs/scores.schema.json``; rewrite it
after a change to the results with::

    python -m arena.stats.schema docs/scores.schema.json

and raise :data:`arena.stats.results.SCHEMA_VERSION` when an older reader would trip.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena.stats import registry
from arena.stats.registry import MeanStd, MetricValue
from arena.stats.results import SCHEMA_VERSION, Scores

_INTERVAL = {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "minItems": 2, "maxItems": 2}
_EXTRA = {"anyOf": [{"type": ["number", "null"]}, _INTERVAL]}  # keys of metrics registered elsewhere


def _metric_properties(kind: type) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for metric in registry.metrics():
        if kind is MeanStd:
            if metric.over_seeds:
                properties[f"{metric.name}_mean"] = {"type": "number", "description": f"{metric.name} over seeds"}
                properties[f"{metric.name}_std"] = {"type": "number"}
            continue
        properties[metric.name] = {"type": ["number", "null"], "description": metric.description}
        if metric.ci:
            properties[f"{metric.name}_ci95"] = {"anyOf": [_INTERVAL, {"type": "null"}]}
        for key in metric.counts:
            properties[key] = {"type": "integer"}
        if metric.aggregate is not None:
            properties[f"{metric.name}_note"] = {"type": "string", "description": "why the value is undefined"}
    return properties


class _Builder:
    def __init__(self) -> None:
        self.definitions: dict[str, Any] = {}

    def kind(self, hint: Any) -> dict[str, Any]:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            options = [self.kind(arg) for arg in args if arg is not type(None)]
            return {"anyOf": [*options, {"type": "null"}]} if type(None) in args else {"anyOf": options}
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            name = hint.__name__
            if name not in self.definitions:
                self.definitions[name] = {}  # a placeholder against recursion
                self.definitions[name] = self.object(hint)
            return {"$ref": f"#/$defs/{name}"}
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.kind(args[0])}
            return _INTERVAL if args == (float, float) else {"type": "array", "prefixItems": [self.kind(a) for a in args]}
        if origin in (dict, Mapping) or hint is Mapping:
            return {"type": "object", "additionalProperties": self.kind(args[1]) if args else {}}
        return {int: {"type": "integer"}, float: {"type": "number"}, str: {"type": "string"},
                bool: {"type": "boolean"}}.get(hint, {})

    def object(self, cls: type) -> dict[str, Any]:
        hints = typing.get_type_hints(cls)
        properties: dict[str, Any] = {}
        required: list[str] = []
        open_keys = False
        for item in dataclasses.fields(cls):
            hint = hints[item.name]
            if item.metadata.get("flatten"):
                inner = typing.get_args(hint)[0] if typing.get_origin(hint) is tuple else hint
                if inner in (MetricValue, MeanStd):
                    properties.update(_metric_properties(inner))
                    open_keys = True
                    continue
                flattened = self.object(inner)
                properties.update(flattened["properties"])
                required += flattened["required"]
                open_keys = open_keys or flattened.get("additionalProperties") is not False
                continue
            key = item.metadata.get("key", item.name)
            properties[key] = self.kind(hint)
            if not item.metadata.get("omit"):
                required.append(key)
        schema: dict[str, Any] = {"type": "object"}
        if cls.__doc__:
            schema["description"] = " ".join(cls.__doc__.split())
        schema.update({"properties": properties, "required": required,
                       "additionalProperties": _EXTRA if open_keys else False})
        return schema


def scores_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``scores.json`` for the metrics registered now."""
    builder = _Builder()
    root = builder.object(Scores)
    root["properties"]["schema_version"] = {"const": SCHEMA_VERSION}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"arena scores.json, schema version {SCHEMA_VERSION}",
        **root,
        "$defs": dict(sorted(builder.definitions.items())),
    }


def validate(data: Mapping[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` where ``data`` does not follow the schema."""
    import jsonschema

    jsonschema.Draft202012Validator(scores_schema()).validate(data)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = json.dumps(scores_schema(), ensure_ascii=False, indent=2) + "\n"
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
