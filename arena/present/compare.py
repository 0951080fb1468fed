"""What ``arena compare-johns`` prints: the Johns' scores and their paired tests as readable tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.present.tables import fmt_ci, render, shorten


def _delta(test: Mapping[str, Any] | None) -> str:
    if not test:
        return "-"
    return f"{test['delta']:+.3f} [{test['low']:+.3f}, {test['high']:+.3f}] p={test['p_value']:.3f}"


def format_comparison(report: Mapping[str, Any], width: int = 48) -> str:
    """The comparison as readable tables."""
    lines = [f"Zellig {report['zellig']}  ×  Claude {report['claude']}  (seed {report['seed']})"]
    rows = [
        [
            shorten(row["john"], width), row["instances"], row["rounds"], row["S"], fmt_ci(row["S_ci95"]),
            row["accuracy"], fmt_ci(row["accuracy_ci95"]), row["discrepancy"],
        ]
        for row in report["johns"]
    ]
    lines.append(render(["john", "instances", "rounds", "S", "S 95% CI", "acc", "acc 95% CI", "discr"], rows,
                        align="lrrrlrlr"))
    if report["paired"]:
        lines.append("")
        lines.append("paired bootstrap on shared sources (a − b):")
        paired = [
            [shorten(p["a"], width // 2), shorten(p["b"], width // 2), p["shared_sources"],
             _delta(p.get("S")), _delta(p.get("accuracy")), _delta(p.get("discrepancy"))]
            for p in report["paired"]
        ]
        lines.append(render(["a", "b", "shared", "ΔS", "Δacc", "Δdiscr"], paired, align="llrlll"))
    if report.get("signature"):
        lines.append(f"signature: {report['signature']}")
    return "\n".join(lines)
