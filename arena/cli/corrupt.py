"""``arena corrupt``: run one or several Zelligs over German sentences, one per line (a pipe-friendly tool).

Reads one German sentence per line (stdin by default, or ``--input FILE``), optionally with the aligned
English sources (``--source FILE``), and writes per input line:

- ``--format jsonl`` (default): one JSON object ``{"line", "input", "variants": [{"zellig", "text",
  "phenomenon", "edits", "meta"}, ...]}`` per input line, ``variants`` empty where no Zellig has anything
  to change, so output lines stay aligned with input lines;
- ``--format text``: one line ``LINE<TAB>PHENOMENON<TAB>VARIANT`` per candidate (none for lines without).

``--zellig`` may be repeated, and ``--zellig all`` names every Zellig of the catalog's ``all`` group (the
German rule Zelligs).  All Zelligs of one call share one German analysis per sentence, so running the
sixteen German Zelligs at once costs little more than running one.

``--detect`` asks the Zelligs' detectors instead (does the line show the phenomenon?) and writes
``{"line", "input", "detected"}`` (or ``LINE<TAB>true|false``); with several Zelligs ``detected`` maps
each Zellig that has a detector to its verdict (text: ``LINE<TAB>ZELLIG<TAB>true|false``).  A detector
whose phenomenon needs something in the source (a negation to drop or insert, two clauses) answers
``null`` (text: ``n/a``) for a line whose ``--source`` line does not have it, or without ``--source``.  Lines are
processed in blocks of ``--batch`` (256) lines; with ``--workers N`` the blocks (analysis and every
Zellig) run in N processes, each building the Zelligs once, and are written in input order.

Input is UTF-8 (:func:`arena.formats.textlines.iter_lines`): lines end at ``\n`` or ``\r\n``,
a leading byte order mark is dropped, and bytes that are not UTF-8 (a latin-1 file) stop the
command with exit 2 naming the input (``<stdin>``) and the line.  Every line that is not blank
must pass the text policy (:func:`arena.text_policy.text_problem`: no control character such as
NUL, ESC or a lone ``\r``, no bidi override, not only invisible characters), or the command stops
with exit 2 naming the input and the line; blank lines pass through (the output stays aligned).  Memory
stays flat however many lines stream through: the German analysis keeps a few blocks' analyses
and a bounded number of words (``experiments/bench/corrupt_memory.py``: 200,000 distinct lines
peak at 380 MB).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, BinaryIO

from arena.cli import add_verb, catalog, zellig_specs
from arena.cli.ranges import integer
from arena.errors import DataError, UsageError
from arena.formats.textlines import iter_lines
from arena.text_policy import json_visible, visible_lines

EXAMPLES = """
  echo "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus." | arena corrupt --zellig placeholder-ding
  arena corrupt --zellig polarity-affix-del --input ../shared/data/wmt/newstest/newstest2009.de --format text
  arena corrupt --zellig clause-omission:split_after_periods=true --input ../shared/data/wmt/newstest/newstest2010.de > variants.jsonl
  arena corrupt --zellig placeholder-ding --zellig np-agreement --input ../shared/data/wmt/newstest/newstest2009.de --format text
  arena corrupt --zellig all --workers 2 --input ../shared/data/wmt/newstest/newstest2009.de > all.jsonl
  # does a machine translation show the phenomenon? (a detector; some need the source)
  arena corrupt --zellig clause-omission --detect --input ../shared/data/wmt/mt-outputs/wmt09.google.de \\
      --source ../shared/data/wmt/mt-outputs/wmt09.en"""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "corrupt", "run Zelligs over German sentences, one per line", EXAMPLES)
    parser.add_argument("--zellig", required=True, action="append", metavar="SPEC",
                        help="catalog name or SPEC (name:key=value,...); repeatable; 'all' for every German Zellig")
    parser.add_argument("--input", metavar="FILE", help="German sentences, one per line (default: stdin)")
    parser.add_argument("--source", metavar="FILE", help="aligned English sources, one per line (optional)")
    parser.add_argument("--format", choices=("jsonl", "text"), default="jsonl", help="output format (jsonl)")
    parser.add_argument("--detect", action="store_true", help="run the Zelligs' detectors instead of corrupting")
    parser.add_argument("--batch", type=integer(1, 100_000), default=256, help="lines per block (256)")
    parser.add_argument("--workers", type=integer(1, 256), default=1, help="processes, each running every Zellig (1)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


class Corruptor:
    """Every Zellig of one call, built once (per process), applied to blocks of lines."""

    def __init__(self, specs: Sequence[str], detect: bool, text_format: bool, name: str, explicit: bool) -> None:
        from arena.roles import Detector
        from arena.specs.registry import build
        from arena.specs.spec import parse_spec

        self.detect, self.text_format, self.name = detect, text_format, name
        self.zelligs: list[tuple[str, Any]] = []
        for text in specs:
            spec = parse_spec(text, where="--zellig")
            zellig = build("zellig", spec, catalog(), where="--zellig")
            if detect and not isinstance(zellig, Detector):
                if explicit:
                    raise UsageError(f"{spec.name} has no detector (detect)", key="--zellig")
                continue  # a group member without a detector
            self.zelligs.append((spec.label, zellig))
        self.several = len(specs) > 1

    def lines(self, block: Sequence[tuple[int, str, str | None]]) -> str:
        """The output of one block of ``(line number, German line, English source or None)``."""
        from arena.codec import dump
        from arena.engine.jobs import detect_all
        from arena.records import Instance
        from performers.german.analysis import analyze_many

        analyze_many([line for _, line, _ in block if line.strip()])
        out: list[str] = []
        for number, line, source in block:
            if self.detect:
                verdicts: dict[str, bool | None] = {}
                for label, zellig in self.zelligs:
                    found = detect_all(zellig, [line], [source])
                    assert found is not None  # in detect mode every Zellig kept is a detector
                    verdicts[label] = found[0]
                out.extend(self._detected(number, line, verdicts))
                continue
            instance = Instance(f"{self.name}:{number}", source or "", line)
            variants = [(label, v) for label, z in self.zelligs for v in (z.corrupt(instance) if line.strip() else [])]
            if self.text_format:
                out.extend(f"{number}\t{v.phenomenon}\t{v.text}\n" for _, v in variants)
            else:
                items = [{"zellig": label} | {k: x for k, x in dump(v).items() if k != "instance_id"}
                         for label, v in variants]
                out.append(json.dumps({"line": number, "input": line, "variants": items}, ensure_ascii=False) + "\n")
        return "".join(out)

    def _detected(self, number: int, line: str, verdicts: dict[str, bool | None]) -> Iterator[str]:
        if self.text_format:
            words = {label: "n/a" if found is None else str(found).lower() for label, found in verdicts.items()}
            if self.several:
                yield from (f"{number}\t{label}\t{word}\n" for label, word in words.items())
            else:
                yield from (f"{number}\t{word}\n" for word in words.values())
            return
        detected: Any = verdicts if self.several else next(iter(verdicts.values()))
        yield json.dumps({"line": number, "input": line, "detected": detected}, ensure_ascii=False) + "\n"


def _open(path: str | None, what: str) -> tuple[Iterable[bytes], BinaryIO | None]:
    """The input as lines of bytes, and the file to close (``None`` for stdin): decoding
    (UTF-8 only), line ends and a BOM are :func:`arena.formats.textlines.iter_lines`'s
    business.  A stdin replaced by a text stream (an embedding program, a test) is
    re-encoded line by line."""
    if path is None or path == "-":
        binary = getattr(sys.stdin, "buffer", None)
        if binary is not None:
            return binary, None
        return (line.encode("utf-8", "surrogateescape") for line in sys.stdin), None
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise UsageError(f"--{what} {path}: {error.strerror}") from None
    return handle, handle


def _blocks(lines: Iterator[str], sources: Iterator[str] | None, size: int, names: tuple[str, str | None]):
    """Blocks of ``size`` (line number, line, source line), each text line checked by the
    text policy (:func:`arena.text_policy.text_problem`; a blank line passes, keeping the
    output aligned): a refusal names the input (``<stdin>``) and the line."""
    block = []
    for number, line in enumerate(lines, start=1):
        _check_line(line, names[0], number)
        source = None
        if sources is not None:
            source = next(sources, None)
            if source is None:
                raise DataError(f"--source has fewer lines than the input (input line {number})", key="--source")
            _check_line(source, names[1], number)
        block.append((number, line, source))
        if len(block) >= size:
            yield block
            block = []
    if block:
        yield block


def _check_line(line: str, name: str | None, number: int) -> None:
    from arena.text_policy import text_problem

    problem = text_problem(line) if line.strip() else None
    if problem is not None:
        raise DataError(f"the line {problem}", file=name, line=number)


_WORKER: Corruptor | None = None
WORD_CACHE = 20_000  # words per word-level cache of the German analysis in a streaming run


def bound_caches(batch: int) -> None:
    """Each line is analysed for its own block only: keep a few blocks' analyses and a
    bounded number of words (memory stays flat however many lines stream through)."""
    from performers.german.analysis import limit_caches

    limit_caches(texts=max(1024, 2 * batch), words=WORD_CACHE)


def _start_worker(arguments: tuple, batch: int) -> None:
    """A worker process: Ctrl-C is the parent's business (it ends the pool), so a
    worker does not die with a traceback of its own."""
    import signal

    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    bound_caches(batch)
    _WORKER = Corruptor(*arguments)


def _work(block: list[tuple[int, str, str | None]]) -> tuple[int, str]:
    assert _WORKER is not None
    return len(block), _WORKER.lines(block)


def _count_lines(path: str | None) -> int | None:
    if path is None or path == "-":
        return None
    with open(path, "rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


def run(args) -> int:
    from arena.engine.progress import progress_bar

    specs = zellig_specs(args.zellig)
    explicit = not any(name in catalog().zellig_groups for name in args.zellig)
    arguments = (specs, args.detect, args.format == "text", args.input or "stdin", explicit)
    bound_caches(args.batch)
    corruptor = Corruptor(*arguments)  # checks every SPEC (and detector) before reading any input
    if args.detect and not corruptor.zelligs:
        raise UsageError("none of the --zellig Zelligs has a detector (detect)", key="--zellig")
    lines, own_lines = _open(args.input, "input")
    sources, own_sources = _open(args.source, "source") if args.source else (None, None)
    input_name = "<stdin>" if args.input in (None, "-") else args.input
    out = sys.stdout
    pool = None
    try:
        results: Iterator[tuple[int, str]]
        blocks = _blocks(iter_lines(lines, input_name),
                         iter_lines(sources, args.source) if sources is not None else None,
                         args.batch, (input_name, args.source))
        if args.workers > 1:
            import multiprocessing

            pool = multiprocessing.get_context("fork").Pool(args.workers, _start_worker, (arguments, args.batch))
            results = pool.imap(_work, blocks)
        else:
            results = ((len(block), corruptor.lines(block)) for block in blocks)
        with progress_bar(_count_lines(args.input), "corrupting", enabled=not args.no_progress, unit="line") as bar:
            for count, text in results:
                out.write(json_visible(text) if args.format == "jsonl" else visible_lines(text))
                out.flush()
                bar.update(count)
    except BrokenPipeError:  # e.g. piped into head
        return 0
    finally:
        if pool is not None:
            pool.terminate()
        for handle in (own_lines, own_sources):
            if handle is not None:
                handle.close()
    return 0
