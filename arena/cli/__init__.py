"""The ``arena`` command line: ``arena <verb> ...``.

Each verb is one module of this package with ``add_parser(subparsers)`` (which
registers the verb, its help and examples) and ``run(args) -> int``.

The error contract (:mod:`arena.errors`): the user's faults, an
:class:`~arena.errors.ArenaError` (usage, config, data or environment error naming file,
line and key) or an ``OSError`` on a path (missing, unwritable, full; named in the
message), exit with status 2 in one line.  Every other exception is a bug: one paragraph
naming the file that holds its traceback (:func:`arena.errors.bug_report`), exit status
70.  A closed pipe (``arena show RUN | head -1``) ends quietly with status 141
(128 + SIGPIPE), as other Unix tools do; Ctrl-C with 130.

The CLI and :mod:`arena.api` are the top layer, the only place where :mod:`performers`
(the catalog, :func:`arena.api.catalog`) is handed to the framework; the verbs that play
call :mod:`arena.api` (``arena run`` is :func:`arena.api.run`).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import re
import sys
from pathlib import Path
from typing import Any

from arena.errors import EXIT_BUG, EXIT_USAGE, ArenaError, UsageError, bug_report

# verb modules, in the order `arena --help` lists them
VERBS = [
    "run",
    "validate",
    "ls",
    "score",
    "show",
    "evaluate",
    "export",
    "build-testset",
    "compare-johns",
    "corrupt",
    "template",
    "tournament",
    "transfer",
    "leaderboard",
    "report",
    "score-pairs",
    "false-positives",
    "cues",
    "train",
    "play",
    "serve",
    "repair",
]

EPILOG = """examples:
  arena run experiments/quickstart.yaml
  arena validate experiments/quickstart.yaml
  arena ls claudes
  arena score runs/quickstart-100a898585
  arena show runs/quickstart-100a898585 --wrong

Run 'arena VERB --help' for a verb's options and examples."""


def catalog():
    """The catalog of the performers shipped with the project (:func:`arena.api.catalog`)."""
    from arena import api

    return api.catalog()


def zellig_specs(names: list[str]) -> list[str]:
    """``--zellig`` values with the catalog's groups (``all``) expanded, duplicates dropped, in order."""
    groups = catalog().zellig_groups
    return list(dict.fromkeys(member for name in names for member in groups.get(name, (name,))))


class Parser(argparse.ArgumentParser):
    """argparse's parser (its verbs' parsers too), whose messages quote the command line
    terminal-safe: ``--limit $'\\e[2J'`` is refused without clearing the screen."""

    def _print_message(self, message: str, file: Any = None) -> None:
        from arena.text_policy import visible_lines

        super()._print_message(visible_lines(message) if message else message, file)


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``verb`` only that verb's module is imported (fast start-up),
    the others are registered by name so that argparse still knows them."""
    from arena.version import __version__

    parser = Parser(
        prog="arena",
        description="Adversarial evaluation with minimal pairs: John selects, Zellig corrupts, Claude discriminates.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    parser.add_argument("-q", "--quiet", action="store_true", help="only warnings and errors on stderr")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging on stderr")
    subparsers = parser.add_subparsers(dest="verb", metavar="VERB")
    for name in VERBS:
        if verb is not None and name != verb:
            subparsers.add_parser(name, add_help=False)
            continue
        module = importlib.import_module(f"arena.cli.{name.replace('-', '_')}")
        module.add_parser(subparsers)
    return parser


def _requested_verb(argv: list[str]) -> str | None:
    """The verb on the command line; ``""`` for an unknown one (argparse then reports
    it without importing any verb), ``None`` when there is none (full help)."""
    for item in argv:
        if not item.startswith("-"):
            return item if item in VERBS else ""
    return None


def check_output(path: str | os.PathLike, kind: str) -> Path:
    """Refuse, before any work is done, an ``--out`` that cannot be written: a directory
    where a file is expected (``kind="file"``) or the reverse, or a place whose nearest
    existing directory is not writable.  Raises :class:`UsageError` naming the path."""
    path = Path(path)
    if kind == "file" and path.is_dir():
        raise UsageError(f"{path}: is a directory; --out names the file to write")
    if kind == "directory" and path.exists() and not path.is_dir():
        raise UsageError(f"{path}: is a file; --out names a directory to write into")
    existing = path if kind == "directory" and path.is_dir() else path.parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(f"{path}: {existing} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UsageError(f"{path}: cannot write into {existing} (permission denied)")
    return path


def run_directory(path: str | os.PathLike) -> Path:
    """A run directory given on the command line, refused in one line when it is none."""
    path = Path(path)
    if not path.exists():
        raise UsageError(f"{path}: no such run directory")
    if not path.is_dir() or not (path / "manifest.json").is_file():
        raise UsageError(f"{path}: not a run directory (no manifest.json); give the directory 'arena run' printed")
    return path


def add_verb(subparsers, name: str, help: str, examples: str, description: str | None = None):
    """Register one verb with its help and an examples epilog; a description taken from a
    module docstring shows its ````literals```` as plain text."""
    return subparsers.add_parser(
        name,
        help=help,
        description=re.sub(r"``([^`]+)``", r"\1", description) if description else help,
        epilog="examples:\n" + examples.strip("\n"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(_requested_verb(argv))
    args = parser.parse_args(argv)
    if args.verb is None:
        parser.print_help()
        return 2
    # weight-loading bars of Hugging Face libraries are noise next to arena's own bars
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    if getattr(args, "no_progress", False):
        os.environ["ARENA_PROGRESS"] = "0"  # performers' bars too
    level = logging.WARNING if args.quiet else logging.DEBUG if args.verbose else logging.INFO
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    for handler in logging.getLogger().handlers:  # the terminal's handler (not a test's capture)
        if getattr(handler, "stream", None) is sys.stderr and not isinstance(handler.formatter, VisibleFormatter):
            handler.setFormatter(VisibleFormatter(handler.formatter))
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here when the output was buffered
        return status
    except BrokenPipeError:
        return _closed_pipe()
    except ArenaError as error:
        print(f"arena {args.verb}: error: {one_line(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"arena {args.verb}: error: {one_line(os_error_message(error))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"arena {args.verb}: interrupted; re-run the same command to resume", file=sys.stderr)
        return 130
    except Exception as error:  # anything else is a bug in arena (or a performer), never the user's fault
        return report_bug(args.verb, error)


class VisibleFormatter(logging.Formatter):
    """A log line with text from data shown visibly on the terminal (line feeds kept)."""

    def __init__(self, inner: logging.Formatter | None):
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        from arena.text_policy import visible_lines

        return visible_lines(self.inner.format(record))


def report_bug(verb: str, error: BaseException) -> int:
    """Save the traceback of a bug, say where it is in one paragraph, return 70."""
    try:
        where = f"its traceback is saved in {bug_report(error)}"
    except OSError as failure:  # not even the report could be written
        where = f"its traceback could not be saved ({os_error_message(failure)})"
    print(
        f"arena {verb}: internal error: {type(error).__name__}: {one_line(str(error))[:300]}\n"
        f"This is a bug in arena, not a fault of your input; {where}. Please report it with that file "
        "and the command you ran.",
        file=sys.stderr,
    )
    return EXIT_BUG


def one_line(text: str) -> str:
    """A message on one line (a multi-line message would break the one-line contract),
    safe for a terminal: the message's own line feeds become spaces, and whatever text
    from data it quotes shows its control characters (ESC, CR, bidi, …) visibly
    (:func:`arena.text_policy.visible`)."""
    from arena.text_policy import visible

    return " ".join(visible(part.strip(" \t")) for part in text.split("\n") if part.strip()) or visible(text)


def os_error_message(error: OSError) -> str:
    """One line naming the path(s) and what went wrong: ``runs/x: Permission denied``."""
    reason = error.strerror or str(error)
    paths = [str(name) for name in (error.filename, error.filename2) if name is not None]
    return f"{' -> '.join(paths)}: {reason}" if paths else reason


def _closed_pipe() -> int:
    """The reader of stdout went away (``| head``): stop quietly.  Later writes (and
    the interpreter's final flush) go to /dev/null instead of raising again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
