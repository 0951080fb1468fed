"""A performer built as a config builds it: its params validated by the registry from the
constructor's annotations first (:func:`arena.specs.registry.build`), so a test of a refused
param sees the error ``arena run`` and ``arena validate`` give."""

from __future__ import annotations

from typing import Any

from arena.specs.registry import build
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG


def built(cls: type, **params: Any) -> Any:
    role = "john" if hasattr(cls, "instances") else "zellig" if hasattr(cls, "corrupt") else "claude"
    return build(role, PerformerSpec(f"{cls.__module__}:{cls.__qualname__}", params), CATALOG)
