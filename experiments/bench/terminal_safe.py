"""What terminal-safe output costs: ``arena.text_policy.visible_lines`` and ``json_visible``
on the stdout of ``arena score-pairs`` (1,000 own pairs as TSV and as JSON lines), against the
naive baseline (the text written as it is) and against scoring the pairs with the toy model,
all measured in the same run (CPU time of this process).

The texts are the first 1,000 DistilLingEval placeholder_ding pairs of ``../shared/data``,
ordinary German with no control character: the common case, where the check is one regex
search per line and nothing is replaced.  ``--hostile`` puts ESC and U+202E into every
sentence, so that every line is rewritten.

    python experiments/bench/terminal_safe.py
    python experiments/bench/terminal_safe.py --hostile --repeat 20
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DISTIL = ROOT / ".." / "shared" / "data" / "distil-lingeval" / "placeholder_ding.human"
sys.path.insert(0, str(ROOT))


def rows(limit: int, hostile: bool) -> list[dict]:
    files = [(DISTIL / name).read_text(encoding="utf-8").split("\n")[:limit]
             for name in ("src.en", "tgt.correct.de", "tgt.incorrect.de")]
    mark = "\x1b[2J\u202e" if hostile else ""
    return [{"id": f"p.{i}", "source": s, "correct": c + mark, "incorrect": b + mark, "score_correct": -1.25,
             "score_incorrect": -2.5} for i, (s, c, b) in enumerate(zip(*files, strict=True))]


def cpu(function, repeat: int) -> float:
    started = time.process_time()
    for _ in range(repeat):
        function()
    return (time.process_time() - started) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--hostile", action="store_true", help="every sentence holds ESC and U+202E")
    parser.add_argument("--no-model", action="store_true", help="skip scoring with the toy model")
    args = parser.parse_args()

    from arena.formats.tables import delimited as delimited_text
    from arena.text_policy import json_visible, visible_lines

    data = rows(args.limit, args.hostile)
    tsv = delimited_text(data, "tsv")
    jsonl = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in data)
    sink = io.StringIO()
    results = {
        "tsv as it is (baseline)": cpu(lambda: sink.write(tsv), args.repeat),
        "tsv through visible_lines": cpu(lambda: sink.write(visible_lines(tsv)), args.repeat),
        "jsonl as it is (baseline)": cpu(lambda: sink.write(jsonl), args.repeat),
        "jsonl through json_visible": cpu(lambda: sink.write(json_visible(jsonl)), args.repeat),
    }
    for name, seconds in results.items():
        print(f"{name:30s} {seconds * 1e3:8.3f} ms CPU per {len(data)} rows")
    extra_tsv = results["tsv through visible_lines"] - results["tsv as it is (baseline)"]
    extra_json = results["jsonl through json_visible"] - results["jsonl as it is (baseline)"]
    print(f"added by terminal-safe output: tsv {extra_tsv * 1e3:.3f} ms, jsonl {extra_json * 1e3:.3f} ms "
          f"({'hostile' if args.hostile else 'ordinary'} texts)")
    if args.no_model:
        return
    from arena.specs.registry import build
    from arena.specs.spec import parse_spec
    from performers.catalog import CATALOG

    claude = build("claude", parse_spec("toy-en-de:cache=false,progress=false"), CATALOG)
    started = time.process_time()
    claude.score([row["source"] for row in data], [row["correct"] for row in data])
    claude.score([row["source"] for row in data], [row["incorrect"] for row in data])
    scoring = time.process_time() - started
    print(f"scoring the {len(data)} pairs with toy-en-de: {scoring:.2f} s CPU; terminal-safe tsv output adds "
          f"{100 * extra_tsv / scoring:.3f}% of it")


if __name__ == "__main__":
    main()
