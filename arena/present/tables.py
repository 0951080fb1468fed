"""Readable plain-text tables and number formatting for the CLI and reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def fmt(value: Any, digits: int = 3) -> str:
    """A number with ``digits`` decimals, ``-`` for missing, as is for strings."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        return f"{value:.{digits}f}"
    return str(value)


def fmt_ci(low_high: Sequence[float] | None, digits: int = 3) -> str:
    if not low_high:
        return "-"
    return f"[{low_high[0]:.{digits}f}, {low_high[1]:.{digits}f}]"


def render(headers: Sequence[str], rows: Sequence[Sequence[Any]], align: str | None = None) -> str:
    """A table with a header rule; numbers right-aligned unless ``align`` says otherwise
    (one character per column: ``l`` or ``r``).  Cells are shown terminal-safe
    (:func:`arena.text_policy.visible`: a label holding ESC or a bidi control cannot
    rewrite the terminal or shift the columns)."""
    from arena.text_policy import visible

    cells = [[visible(fmt(c)) for c in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    if align is None:
        align = "".join(
            "r" if rows and all(isinstance(row[i], (int, float)) or row[i] is None for row in rows) else "l"
            for i in range(len(headers))
        )

    def line(items: Sequence[str]) -> str:
        return "  ".join(
            item.rjust(widths[i]) if align[i] == "r" else item.ljust(widths[i]) for i, item in enumerate(items)
        ).rstrip()

    out = [line(list(headers)), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in cells)
    return "\n".join(out)


def shorten(text: str, width: int = 40) -> str:
    """Cut long labels in the middle: ``distil-lingeval:dir=…/placeholder_ding.human``."""
    if len(text) <= width:
        return text
    keep = width - 1
    return text[: keep // 3] + "…" + text[-(keep - keep // 3) :]
