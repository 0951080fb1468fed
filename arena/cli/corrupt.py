"""``arena corrupt``: run one Zellig over German sentences, one per line (a pipe-friendly tool).

Reads one German sentence per line (stdin by default, or ``--input FILE``), optionally with the aligned
English sources (``--source FILE``), and writes per input line:

- ``--format jsonl`` (default): one JSON object ``{"line", "input", "variants": [{"text", "phenomenon",
  "edits", "meta"}, ...]}`` per input line, ``variants`` empty where the Zellig has nothing to change,
  so output lines stay aligned with input lines;
- ``--format text``: one line ``LINE<TAB>PHENOMENON<TAB>VARIANT`` per candidate (none for lines without).

``--detect`` asks the Zellig's detector instead (does the line show the phenomenon?) and writes
``{"line", "input", "detected"}`` (or ``LINE<TAB>true|false``).  Lines are processed in blocks of
``--batch`` (256) lines; the German analysis of a block runs in ``--workers`` processes.
"""

from __future__ import annotations

import json
import sys

from arena.cli import add_verb, catalog

EXAMPLES = """
  echo "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus." | arena corrupt --zellig placeholder-ding
  arena corrupt --zellig polarity-affix-del --input newstest2009.de --format text
  arena corrupt --zellig clause-omission:split_after_periods=true --input refs.de > variants.jsonl
  arena corrupt --zellig placeholder-ding --detect --input mt.de --source src.en"""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "corrupt", "run a Zellig over German sentences, one per line", EXAMPLES)
    parser.add_argument("--zellig", required=True, metavar="SPEC", help="catalog name or SPEC (name:key=value,...)")
    parser.add_argument("--input", metavar="FILE", help="German sentences, one per line (default: stdin)")
    parser.add_argument("--source", metavar="FILE", help="aligned English sources, one per line (optional)")
    parser.add_argument("--format", choices=("jsonl", "text"), default="jsonl", help="output format (jsonl)")
    parser.add_argument("--detect", action="store_true", help="run the Zellig's detector instead of corrupting")
    parser.add_argument("--batch", type=int, default=256, help="lines per block (256)")
    parser.add_argument("--workers", type=int, default=1, help="processes for the German analysis (1)")
    parser.set_defaults(func=run)


def _open(path: str | None, what: str):
    if path is None or path == "-":
        return sys.stdin
    try:
        return open(path, encoding="utf-8")
    except OSError as error:
        raise ValueError(f"--{what} {path}: {error.strerror}") from None


def _blocks(lines, sources, size: int):
    block = []
    for number, line in enumerate(lines, start=1):
        source = ""
        if sources is not None:
            source = sources.readline()
            if not source:
                raise ValueError(f"--source has fewer lines than the input (input line {number})")
        block.append((number, line.rstrip("\n"), source.rstrip("\n")))
        if len(block) >= size:
            yield block
            block = []
    if block:
        yield block


def run(args) -> int:
    from arena.records import Instance
    from arena.registry import build
    from arena.spec import parse_spec

    if args.batch < 1 or args.workers < 1:
        raise ValueError("--batch and --workers must be at least 1")
    spec = parse_spec(args.zellig, where="--zellig")
    zellig = build("zellig", spec, catalog(), where="--zellig")
    if args.detect and not callable(getattr(zellig, "detect", None)):
        raise ValueError(f"--zellig {spec.name} has no detector (detect)")
    name = args.input or "stdin"
    lines = _open(args.input, "input")
    sources = _open(args.source, "source") if args.source else None
    out = sys.stdout
    try:
        for block in _blocks(lines, sources, args.batch):
            _prefill([line for _, line, _ in block], args.workers)
            for number, line, source in block:
                if args.detect:
                    detected = bool(zellig.detect(line, source if sources is not None else None))
                    if args.format == "jsonl":
                        record = {"line": number, "input": line, "detected": detected}
                        out.write(json.dumps(record, ensure_ascii=False) + "\n")
                    else:
                        out.write(f"{number}\t{str(detected).lower()}\n")
                    continue
                variants = zellig.corrupt(Instance(f"{name}:{number}", source, line)) if line.strip() else []
                if args.format == "jsonl":
                    items = [
                        {key: value for key, value in variant.to_json().items() if key != "instance_id"}
                        for variant in variants
                    ]
                    out.write(json.dumps({"line": number, "input": line, "variants": items}, ensure_ascii=False) + "\n")
                else:
                    for variant in variants:
                        out.write(f"{number}\t{variant.phenomenon}\t{variant.text}\n")
            out.flush()
    except BrokenPipeError:  # e.g. piped into head
        return 0
    finally:
        if lines is not sys.stdin:
            lines.close()
        if sources is not None and sources is not sys.stdin:
            sources.close()
    return 0


def _prefill(texts: list[str], workers: int) -> None:
    """Analyse a block at once (in ``workers`` processes) so the Zellig finds it in the cache."""
    if workers > 1:
        from performers.german.analysis import analyze_many

        analyze_many([text for text in texts if text.strip()], workers=workers)
