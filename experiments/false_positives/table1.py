"""Vamvas & Sennrich 2021, Table 1 from a run or tournament directory: per phenomenon,
reference kind (human / MT) and Claude, the mean ± std over seeds of contrastive accuracy,
distributional discrepancy, contrastive error rate and generative rate, and how many seeds
flag the hypothesis as a likely false positive.

A seed's verdict: the contrastive error rate (1 − accuracy) is significantly above the
generative rate when the lower end of the error rate's 95% bootstrap interval (from
``scores.json``) lies above the upper end of the generative rate's 95% Wilson interval —
the model prefers the implausible variant far more often than it produces the phenomenon.

    python experiments/false_positives/table1.py runs/false-positives-table1-<hash> > table1.md

Only cells where the Zellig applies (rounds > 0) are reported; the reference kind comes
from the John's DistilLingEval directory name (``<set>.human`` / ``<set>.mt``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

from arena.aggregate import mean_std


def wilson_upper(detected: int, sources: int, z: float = 1.96) -> float:
    """Upper end of the 95% Wilson score interval of ``detected / sources``."""
    if sources == 0:
        return 1.0
    p = detected / sources
    centre = p + z * z / (2 * sources)
    spread = z * math.sqrt(p * (1 - p) / sources + z * z / (4 * sources * sources))
    return (centre + spread) / (1 + z * z / sources)


def reference_kinds(manifest: dict) -> dict[str, tuple[str, str]]:
    """John label → (test set, reference kind) from the manifest's resolved config."""
    from arena.spec import PerformerSpec

    kinds = {}
    for spec in manifest["experiment"]["johns"]:
        label = spec.get("alias") or PerformerSpec(spec["name"], spec.get("params") or {}).label
        name = Path(str((spec.get("params") or {}).get("dir", label))).name
        test_set, _, kind = name.partition(".")
        kinds[label] = (test_set, {"human": "human", "mt": "MT"}.get(kind, kind or "?"))
    return kinds


def table(run_dir: Path) -> list[dict]:
    scores = json.loads((run_dir / "scores.json").read_text(encoding="utf-8"))
    manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    kinds = reference_kinds(manifest)
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for cell in scores["cells"]:
        if not cell.get("rounds") or "accuracy" not in cell:
            continue
        test_set, kind = kinds[cell["john"]]
        groups[test_set, kind, cell["claude"]].append(cell)
    rows = []
    for (test_set, kind, claude), cells in sorted(groups.items()):
        accuracy = [c["accuracy"] for c in cells]
        discrepancy = [c["discrepancy"] for c in cells if c.get("discrepancy") is not None]
        rates = [c["generative_rate"] for c in cells if c.get("generative_rate")]
        flagged = sum(
            1 for c in cells
            if c.get("generative_rate") and c.get("accuracy_ci95")
            and 1 - c["accuracy_ci95"][1] > wilson_upper(c["generative_rate"]["detected"], c["generative_rate"]["sources"])
        )
        rows.append({
            "set": test_set, "reference": kind, "claude": claude, "seeds": len(cells), "pairs": cells[0]["rounds"],
            "accuracy": mean_std([100 * a for a in accuracy]),
            "discrepancy": mean_std(discrepancy) if discrepancy else None,
            "error": mean_std([100 * (1 - a) for a in accuracy]),
            "generative": mean_std([100 * r["rate"] for r in rates]) if rates else None,
            "detected": [f"{r['detected']}/{r['sources']}" for r in rates],
            "flagged": f"{flagged}/{len(cells)}",
        })
    return rows


def markdown(rows: list[dict]) -> str:
    def pm(value, digits):
        return "–" if value is None else f"{value[0]:.{digits}f} ± {value[1]:.{digits}f}"

    lines = ["| phenomenon | reference | model | seeds | pairs | accuracy % | discrepancy | contrastive error % "
             "| generative rate % | detected / 1-bests | flagged as false positive |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        lines.append(f"| {r['set']} | {r['reference']} | {r['claude']} | {r['seeds']} | {r['pairs']} | "
                     f"{pm(r['accuracy'], 1)} | {pm(r['discrepancy'], 2)} | {pm(r['error'], 1)} | "
                     f"{pm(r['generative'], 1)} | {', '.join(r['detected']) or '–'} | {r['flagged']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="example: python experiments/false_positives/table1.py runs/false-positives-table1-1a2b3c4d")
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
