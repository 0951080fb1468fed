"""``arena ls``: list the performers of the catalog."""

from __future__ import annotations

from arena.cli import add_verb, catalog

EXAMPLES = """
  arena ls
  arena ls zelligs
  arena ls claudes --params"""

ROLES = {"johns": "john", "zelligs": "zellig", "claudes": "claude"}


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "ls", "list catalog performers with their version and summary", EXAMPLES)
    parser.add_argument("role", nargs="?", choices=sorted(ROLES), help="only this role")
    parser.add_argument("--params", action="store_true", help="also list each performer's constructor parameters")
    parser.set_defaults(func=run)


def describe(cls: type) -> tuple[str, str]:
    """The version and the first docstring line of a performer (module docstring as fallback)."""
    import sys

    doc = (sys.modules[cls.__module__].__doc__ or cls.__doc__ or "").strip()
    return str(getattr(cls, "version", "?")), doc.splitlines()[0] if doc else ""


def parameters(cls: type) -> str:
    import inspect

    items = []
    for name, p in inspect.signature(cls).parameters.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        items.append(name if p.default is p.empty else f"{name}={p.default!r}")
    return ", ".join(items)


def run(args) -> int:
    from arena.registry import import_path

    table_of = catalog()
    for plural, role in ROLES.items():
        if args.role and args.role != plural:
            continue
        print(f"{plural}:")
        for name, path in sorted(table_of.table(role).items()):
            cls = import_path(path)
            version, summary = describe(cls)
            print(f"  {name:28s} v{version:4s} {summary}")
            if args.params:
                print(f"  {'':28s}       params: {parameters(cls) or '(none)'}")
    return 0
