"""What ``arena play`` prints about people: a person's score as a Claude, and the live verdict of
the run's Claudes and detector on a person's corruption (``arena play --as zellig --live``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.present.tables import fmt, fmt_ci, render
from arena.text_policy import visible_lines


def format_summary(data: Mapping[str, Any], name: str) -> str:
    """A person's S as a Claude, per phenomenon and beside the run's Claudes on the same rounds
    (:func:`arena.people.session.summary`)."""
    if not data["rounds"]:
        return f"{name} has judged no round yet"
    lines = [f"{name}: S = {fmt(data['S'])} {fmt_ci(data['S_ci95'])} on {data['rounds']} rounds"]
    rows = [[p, e["rounds"], e["S"]] for p, e in data["phenomena"].items()]
    if rows:
        lines += ["", render(["phenomenon", "rounds", "S"], rows, align="lrr")]
    rows = [[c["claude"], c["rounds"], c["S"], fmt_ci(c["S_ci95"])] for c in data["comparison"]]
    if rows:
        lines += ["", "on the same rounds:", render(["claude", "rounds", "S", "S 95% CI"], rows, align="lrrl")]
    return visible_lines("\n".join(lines))


def format_live(result: Mapping[str, Any]) -> list[str]:
    """Terminal lines of a live result (``arena play --as zellig --live``)."""
    lines = []
    for r in result["claudes"]:
        verdict = "FOOLED" if r["fooled"] else "not fooled"
        lines.append(f"  {r['claude']}: reference {r['reference']:.3f}, edit {r['edit']:.3f} → {verdict}")
    if result["detector"] is not None:
        lines.append(f"  detector: the edit {'shows' if result['detector'] else 'does not show'} the phenomenon")
    return lines
