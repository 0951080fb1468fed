"""The HTML a notebook shows for a :class:`arena.api.Run` (``_repr_html_``): the run directory,
its signature and the cells with S, its CI, contrastive accuracy and n."""

from __future__ import annotations

import html
from typing import Any

CELL_COLUMNS = ("john", "zellig", "claude", "seed", "rounds", "S", "S_low", "S_high", "accuracy")


def run_html(run: Any) -> str:
    """A small self-contained HTML summary of a finished run."""
    cells = run.cells
    shown = [column for column in CELL_COLUMNS if column in cells.columns]
    table = cells[shown].to_html(index=False, float_format=lambda v: f"{v:.3f}", border=0)
    return (
        f"<div class='arena-run'><p><b>arena run</b> <code>{html.escape(str(run.run_dir))}</code></p>"
        f"<p><code>{html.escape(run.signature)}</code></p>{table}"
        "<p>cells with fewer than 30 rounds are too small to rank</p></div>"
    )
