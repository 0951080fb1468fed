"""What ``arena build-testset`` prints: the counts of a test set build as readable tables."""

from __future__ import annotations

from typing import Any

from arena.present.tables import render


def format_report(report: dict[str, Any]) -> str:
    """The counts of a build as readable tables."""
    lines = [f"John {report.get('john')}  ×  Zellig {report.get('zellig')}  (seed {report['options']['seed']})"]
    instances = report["instances"]
    lines.append(
        f"{report['pool']} instances: "
        + ", ".join(f"{name.replace('_', ' ')} {count}" for name, count in instances.items() if count)
        + f"; Zellig ran on {report['scanned']}"
    )
    rows = []
    validation = report.get("validation", {})
    for phenomenon, entry in report["phenomena"].items():
        checks = validation.get(phenomenon, {})
        rows.append([
            phenomenon, entry["candidates"], entry["selected"], entry["pairs"],
            checks.get("kept"), checks.get("flagged"), checks.get("dropped"),
        ])
    if rows:
        lines.append(render(["phenomenon", "candidates", "selected", "pairs", "kept", "flagged", "dropped"], rows))
    for phenomenon, checks in validation.items():
        reasons = ", ".join(f"{key} {value}" for key, value in checks["reasons"].items())
        lines.append(f"validation {phenomenon}: {reasons}")
    if report.get("systems"):
        lines.append("systems: " + ", ".join(f"{name} {count}" for name, count in report["systems"].items()))
    repairs = (report.get("john_report") or {}).get("repairs")
    if repairs:
        lines.append("repairs of flagged references: " + ", ".join(f"{k} {v}" for k, v in repairs.items()))
    for key, entry in report.get("files", {}).items():
        lines.append(f"wrote {entry['path']} ({key}, {entry['pairs']} pairs)")
    if not report.get("files"):
        lines.append("nothing selected: no test set files written (see report.json)")
    return "\n".join(lines)
