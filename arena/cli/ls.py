"""``arena ls``: list the performers of the catalog."""

from __future__ import annotations

from arena.cli import add_verb, catalog
from arena.present.catalog import listing

EXAMPLES = """
  arena ls
  arena ls zelligs
  arena ls claudes --params"""

ROLES = {"johns": "john", "zelligs": "zellig", "claudes": "claude"}


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "ls", "list catalog performers with their version and summary", EXAMPLES)
    parser.add_argument("role", nargs="?", choices=sorted(ROLES), help="only this role")
    parser.add_argument("--params", action="store_true",
                        help="also list each performer's constructor parameters: type, default and meaning")
    parser.set_defaults(func=run)


def run(args) -> int:
    from arena.specs.registry import import_path

    table_of = catalog()
    for plural, role in ROLES.items():
        if args.role and args.role != plural:
            continue
        print(f"{plural}:")
        classes = {name: import_path(path) for name, path in sorted(table_of.table(role).items())}
        for line in listing(classes, args.params):
            print(line)
    return 0
