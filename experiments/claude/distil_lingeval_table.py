"""DistilLingEval accuracy and distributional discrepancy of a scoring Claude, per test set.

For every set in ``--data`` (``<phenomenon>.<human|mt>/{src.en,tgt.correct.de,tgt.incorrect.de}``):

- accuracy: share of pairs whose correct variant has a mean log-probability ≥ that of
  the incorrect one (DistilLingEval's ``contrastive_evaluation.py``: ties count as correct);
- discrepancy: mean over pairs of ``max(0, s(1-best) − max(s(correct), s(incorrect)))``
  with ``s`` the mean log-probability and the 1-best the Claude's own beam-search
  translation of the source (beam 5), pairs with a NaN score left out (as
  DistilLingEval does; their number is reported).

All sets are scored in one call (distinct sources are translated once, distinct
(source, target) pairs scored once, and both are cached, so a re-run is instant and
an interrupted run resumes).  Writes a Markdown table (``--out``) and prints it.

    python experiments/claude/distil_lingeval_table.py --out experiments/claude/toy-en-de.md
    python experiments/claude/distil_lingeval_table.py --claude toy-en-de --limit 300
    python experiments/claude/distil_lingeval_table.py --claude hf-seq2seq:model=Helsinki-NLP/opus-mt-en-de,device=cuda
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEFAULT_CLAUDE = "toy-en-de-ct2:compute_type=float32"


def evaluate(claude, sets, beam: int) -> list[dict]:
    sources = list(dict.fromkeys(pair.source for testset in sets for pair in testset.pairs))
    started = time.perf_counter()
    one_best = dict(zip(sources, claude.translate(sources, beam=beam)))
    translated = time.perf_counter() - started
    requests = []
    for testset in sets:
        for pair in testset.pairs:
            requests += [(pair.source, pair.correct), (pair.source, pair.incorrect), (pair.source, one_best[pair.source])]
    started = time.perf_counter()
    scores = claude.score([s for s, _ in requests], [t for _, t in requests])
    scored = time.perf_counter() - started
    print(f"translated {len(sources)} distinct sources in {translated:.0f} s, scored {len(requests)} requests "
          f"({len(set(requests))} distinct) in {scored:.0f} s", file=sys.stderr)
    rows, position = [], 0
    for testset in sets:
        correct_count, gaps, unscorable = 0, [], 0
        for _ in testset.pairs:
            correct, incorrect, own = (s.mean for s in scores[position : position + 3])
            position += 3
            correct_count += correct >= incorrect
            gap = max(0.0, own - max(correct, incorrect))
            if math.isnan(gap) or math.isnan(own) or math.isnan(correct) or math.isnan(incorrect):
                unscorable += 1
            else:
                gaps.append(gap)
        phenomenon, _, reference = testset.name.rpartition(".")
        rows.append({
            "set": testset.name, "phenomenon": phenomenon, "reference": reference, "pairs": len(testset),
            "accuracy": correct_count / len(testset) if len(testset) else math.nan,
            "discrepancy": sum(gaps) / len(gaps) if gaps else math.nan, "nan": unscorable,
            "empty_lines": list(testset.empty_lines),
        })
    return rows


def markdown(rows: list[dict], label: str, signature: str, limit: int | None) -> str:
    lines = [
        f"DistilLingEval, Claude `{label}` ({signature}); "
        + (f"first {limit} pairs of each set" if limit else "all pairs of each set")
        + "; accuracy = % of pairs with mean log-prob(correct) ≥ mean log-prob(incorrect); discrepancy = mean of "
        "max(0, s(1-best) − max(s(correct), s(incorrect))), beam 5.",
        "",
        "| set | reference | pairs | accuracy % | discrepancy | NaN left out |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(f"| {row['phenomenon']} | {row['reference']} | {row['pairs']} | {100 * row['accuracy']:.1f} | "
                     f"{row['discrepancy']:.2f} | {row['nan']} |")
    phenomena = sorted({r["phenomenon"] for r in rows})
    by = {(r["phenomenon"], r["reference"]): r for r in rows}
    lines += ["", "Human vs machine references, side by side:", "",
              "| phenomenon | accuracy % human | accuracy % mt | discrepancy human | discrepancy mt |",
              "|---|---:|---:|---:|---:|"]
    for phenomenon in phenomena:
        human, machine = by.get((phenomenon, "human")), by.get((phenomenon, "mt"))

        def cell(row, key, scale=1.0, digits=1):
            return "–" if row is None else f"{scale * row[key]:.{digits}f}"

        lines.append(f"| {phenomenon} | {cell(human, 'accuracy', 100)} | {cell(machine, 'accuracy', 100)} | "
                     f"{cell(human, 'discrepancy', digits=2)} | {cell(machine, 'discrepancy', digits=2)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / ".." / "shared" / "data" / "distil-lingeval")
    parser.add_argument("--claude", default=DEFAULT_CLAUDE, metavar="SPEC",
                        help=f"a scoring Claude (default {DEFAULT_CLAUDE}: the toy model, exact float32 scores)")
    parser.add_argument("--limit", type=int, default=None, help="first N pairs of each set (default: all)")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None, help="CPU threads (the Claude's threads param, and PyTorch)")
    parser.add_argument("--out", type=Path, help="write the Markdown table here")
    parser.add_argument("--json", type=Path, help="write the rows as JSON here")
    args = parser.parse_args()

    import logging

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    from arena.cli import catalog
    from arena.formats.distil_lingeval import TestSet, find_sets, read_distil_lingeval
    from arena.specs.registry import build, signature, validate
    from arena.specs.spec import PerformerSpec, parse_spec

    directories = find_sets(args.data)
    if not directories:
        raise SystemExit(f"{args.data}: no DistilLingEval sets found")
    sets = []
    for directory in directories:
        testset = read_distil_lingeval(directory, allow_empty=True)
        if args.limit:
            testset = TestSet(testset.path, testset.pairs[: args.limit], testset.empty_lines)
        sets.append(testset)
    spec = parse_spec(args.claude, where="--claude")
    if args.threads and "threads" in inspect.signature(validate("claude", spec, catalog())).parameters:
        spec = PerformerSpec(spec.name, {**spec.params, "threads": args.threads}, spec.alias)
    claude = build("claude", spec, catalog(), where="--claude")
    rows = evaluate(claude, sets, args.beam)
    table = markdown(rows, spec.label, signature("claude", spec, catalog()), args.limit)
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
