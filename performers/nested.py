"""Building a performer named inside another's params (wrappers such as
``mt-reference``, ``adaptive``, ``model-guided`` and ``learned``)."""

from __future__ import annotations

from typing import Any


def build_nested(role: str, spec: Any, where: str) -> tuple[Any, Any]:
    """Build a performer named inside another's params (a SPEC string or a
    ``{name, params}`` mapping) from the project catalog; returns (spec, performer)."""
    from arena.sdk import build, spec_from_mapping
    from performers.catalog import CATALOG

    parsed = spec_from_mapping(spec, where=where)
    return parsed, build(role, parsed, CATALOG, where=where)


