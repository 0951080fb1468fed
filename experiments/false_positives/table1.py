"""Vamvas & Sennrich 2021, Table 1 from a run or tournament directory: per phenomenon,
reference kind (human / MT) and Claude, the mean ± std over seeds of contrastive accuracy,
distributional discrepancy, contrastive error rate and generative rate, and the verdict of
``arena false-positives`` (the contrastive error rate significantly above the generative rate:
a likely false positive of an implausible hypothesis).

    arena false-positives runs/false-positives-table1-ad3c6104d0 --pool-sources FILE   # the verdicts
    python experiments/false_positives/table1.py runs/false-positives-table1-ad3c6104d0 > table1.md

The verdicts come from ``RUN/report/false_positives.json`` when ``arena false-positives`` has
written it (with its pool, if it was given one), else from the report built here without a
pool.  Only cells where the Zellig applies (rounds > 0) are reported; the reference kind comes
from the John's DistilLingEval directory name (``<set>.human`` / ``<set>.mt``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from arena.codec import dump
from arena.stats import false_positives
from arena.stats.aggregate import mean_std
from arena.stats.results import Cell, read_scores

KINDS = {"human": "human", "machine": "MT"}


def reference_kinds(manifest: dict) -> dict[str, tuple[str, str]]:
    """John label → (test set, reference kind) from the manifest's resolved config."""
    from arena.specs.spec import PerformerSpec

    kinds = {}
    for spec in manifest["experiment"]["johns"]:
        label = spec.get("alias") or PerformerSpec(spec["name"], spec.get("params") or {}).label
        name = Path(str((spec.get("params") or {}).get("dir", label))).name
        test_set, _, kind = name.partition(".")
        kinds[label] = (test_set, {"human": "human", "mt": "MT"}.get(kind, kind or "?"))
    return kinds


def verdicts(run_dir: Path) -> dict[tuple[str, str, str, str], dict]:
    """The false-positive report's rows by (phenomenon, reference kind, Claude, Zellig)."""
    path = run_dir / "report" / f"{false_positives.REPORT_NAME}.json"
    report = (json.loads(path.read_text(encoding="utf-8")) if path.is_file()
              else dump(false_positives.build(run_dir)))
    return {(r["phenomenon"], KINDS.get(r["reference_kind"], r["reference_kind"]), r["claude"], r["zellig"]): r
            for r in report["rows"]}


def table(run_dir: Path) -> list[dict]:
    scores = read_scores(run_dir)
    manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    kinds = reference_kinds(manifest)
    report = verdicts(run_dir)
    groups: dict[tuple[str, str, str, str], list[Cell]] = defaultdict(list)
    for cell in scores.cells:
        if not cell.summary.rounds or cell.summary.metric("accuracy") is None:
            continue
        test_set, kind = kinds[cell.john]
        groups[test_set, kind, cell.claude, cell.zellig].append(cell)
    rows = []
    for (test_set, kind, claude, zellig), cells in sorted(groups.items()):
        accuracy = [c.summary.value("accuracy") for c in cells]
        discrepancy = [value for c in cells if (value := c.summary.value("discrepancy")) is not None]
        rates = [c.generative_rate for c in cells if c.generative_rate is not None]
        verdict = report.get((test_set, kind, claude, zellig), {})
        used = verdict.get("generative_pool") if verdict.get("generative_used") == "pool" else verdict.get("generative")
        rows.append({
            "set": test_set, "reference": kind, "claude": claude, "zellig": zellig, "seeds": len(cells), "pairs": cells[0].summary.rounds,
            "accuracy": mean_std([100 * a for a in accuracy]),
            "discrepancy": mean_std(discrepancy) if discrepancy else None,
            "error": mean_std([100 * (1 - a) for a in accuracy]),
            "generative": mean_std([100 * r.rate for r in rates]) if rates else None,
            "detected": [f"{r.detected}/{r.sources}" for r in rates],
            "verdict": verdict.get("verdict", "–"),
            "p_value": verdict.get("p_value"),
            "tested_against": (f"{verdict['generative_used']} {100 * used['rate']:.1f}% ({int(used['count'])}/{used['n']})"
                               if used and used.get("n") else "–"),
        })
    return rows


def markdown(rows: list[dict]) -> str:
    def pm(value, digits):
        return "–" if value is None else f"{value[0]:.{digits}f} ± {value[1]:.{digits}f}"

    zelligs = len({(r["set"], r["zellig"]) for r in rows}) > len({r["set"] for r in rows})  # a column if needed
    lines = [f"| phenomenon | reference | model |{' zellig |' if zelligs else ''} seeds | pairs | accuracy % "
             "| discrepancy | contrastive error % | generative rate % | detected / 1-bests | verdict (p) "
             "| generative rate tested against |",
             f"|---|---|---|{'---|' if zelligs else ''}---:|---:|---:|---:|---:|---:|---|---|---|"]
    for r in rows:
        p = "" if r["p_value"] is None else " (p <0.001)" if r["p_value"] < 0.001 else f" (p {r['p_value']:.3f})"
        zellig = f" {r['zellig']} |" if zelligs else ""
        lines.append(f"| {r['set']} | {r['reference']} | {r['claude']} |{zellig} {r['seeds']} | {r['pairs']} | "
                     f"{pm(r['accuracy'], 1)} | {pm(r['discrepancy'], 2)} | {pm(r['error'], 1)} | "
                     f"{pm(r['generative'], 1)} | {', '.join(r['detected']) or '–'} | {r['verdict']}{p} | "
                     f"{r['tested_against']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="example: python experiments/false_positives/table1.py runs/false-positives-table1-ad3c6104d0")
    parser.add_argument("run", type=Path, help="a finished run or tournament directory (with scores.json)")
    parser.add_argument("--json", action="store_true", help="the rows as JSON instead of a Markdown table")
    args = parser.parse_args(argv)
    if not (args.run / "scores.json").is_file():
        print(f"{args.run}: no scores.json (not a finished run or tournament directory)", file=sys.stderr)
        return 2
    rows = table(args.run)
    print(json.dumps(rows, indent=2) if args.json else markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
