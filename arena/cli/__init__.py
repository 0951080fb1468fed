"""The ``arena`` command line: ``arena <verb> ...``.

Each verb is one module of this package with ``add_parser(subparsers)`` (which
registers the verb, its help and examples) and ``run(args) -> int``.  Usage and
configuration errors (``ValueError``, ``TypeError`` raised with a message naming
file, line and key) exit with status 2; other failures with status 1.

The CLI is the one place where :mod:`performers` (the catalog) is handed to the
framework.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

# verb modules, in the order `arena --help` lists them
VERBS = [
    "run",
    "validate",
    "ls",
    "score",
    "show",
    "evaluate",
    "export",
]

EPILOG = """examples:
  arena run experiments/quickstart.yaml
  arena validate experiments/quickstart.yaml
  arena ls claudes
  arena score runs/quickstart-1a2b3c4d
  arena show runs/quickstart-1a2b3c4d --wrong

Run 'arena VERB --help' for a verb's options and examples."""


class UsageError(ValueError):
    """A usage or configuration error: reported in one line, exit status 2."""


def catalog():
    """The catalog of the performers shipped with the project."""
    from performers.catalog import CATALOG

    return CATALOG


def build_parser() -> argparse.ArgumentParser:
    from arena import __version__

    parser = argparse.ArgumentParser(
        prog="arena",
        description="Adversarial evaluation with minimal pairs: John selects, Zellig corrupts, Claude discriminates.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    parser.add_argument("-q", "--quiet", action="store_true", help="only warnings and errors on stderr")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging on stderr")
    subparsers = parser.add_subparsers(dest="verb", metavar="VERB")
    for verb in VERBS:
        module = importlib.import_module(f"arena.cli.{verb.replace('-', '_')}")
        module.add_parser(subparsers)
    return parser


def add_verb(subparsers, name: str, help: str, examples: str, description: str | None = None):
    """Register one verb with its help and an examples epilog."""
    return subparsers.add_parser(
        name,
        help=help,
        description=description or help,
        epilog="examples:\n" + examples.strip("\n"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.verb is None:
        parser.print_help()
        return 2
    level = logging.WARNING if args.quiet else logging.DEBUG if args.verbose else logging.INFO
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        return int(args.func(args) or 0)
    except (ValueError, TypeError) as error:
        print(f"arena {args.verb}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"arena {args.verb}: interrupted; re-run the same command to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
