"""Building a performer named inside another's params (wrappers such as
``mt-reference``, ``adaptive``, ``model-guided`` and ``learned``)."""

from __future__ import annotations

from typing import Any


def build_nested(role: str, spec: Any, where: str) -> tuple[Any, Any]:
    """Build a performer named inside another's params (a SPEC string or a
    ``{name, params}`` mapping) from the project catalog; returns (spec, performer)."""
    from arena.specs.registry import build
    from arena.specs.spec import spec_from_mapping
    from performers.catalog import CATALOG

    parsed = spec_from_mapping(spec, where=where)
    return parsed, build(role, parsed, CATALOG, where=where)


def scoring_problem(params: Any, key: str, performer: str) -> str | None:
    """Why the Claude a performer consults (``params[key]``, e.g. ``search``'s ``model``,
    ``edit-aware``'s ``claude``) cannot do what it needs, or ``None``: it must score
    (offer ``score(sources, targets)``).  A ``check_params`` rule, so ``arena validate`` and
    ``arena run`` refuse it alike before anything is built; an unknown name is left to the
    nested spec's own check, which names the catalog."""
    from arena.errors import ArenaError
    from arena.specs.registry import resolve
    from arena.specs.spec import spec_from_mapping
    from performers.catalog import CATALOG

    if key not in params:
        return None
    try:
        spec = spec_from_mapping(params.get(key), where=f"{performer}: {key}")
        consulted = resolve("claude", spec.name, CATALOG)
    except ArenaError:
        return None  # the nested spec's own check names what is wrong with it
    if not callable(getattr(consulted, "score", None)):
        return f"{key} {spec.label} does not score; {performer} consults a scoring Claude (e.g. toy-en-de)"
    return None
