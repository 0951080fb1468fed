"""The false-positive report as people read it: its table (text and Markdown), the legend, and
the files ``arena false-positives`` writes into ``RUN/report/`` (the rows themselves are
:func:`arena.stats.false_positives.build`'s)."""

from __future__ import annotations

from pathlib import Path

from arena.record import transcripts
from arena.stats import fp_adjust
from arena.stats.false_positive_records import (
    ClusteredRate,
    FalsePositiveReport,
    Rate,
    Spread,
)
from arena.stats.false_positives import MIN_ITEMS, REPORT_NAME


def _pct(rate: Rate | ClusteredRate | None) -> str:
    if not rate or rate.rate is None or rate.ci95 is None:
        return "-"
    low, high = rate.ci95
    return f"{100 * rate.rate:.1f} [{100 * low:.1f}, {100 * high:.1f}] (n={rate.n})"


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _over_seeds(entry: Spread | None) -> str:
    return f"{100 * entry.mean:.1f} ± {100 * entry.std:.1f}" if entry else "-"


COLUMNS = ["phenomenon", "refs", "claude", "contrastive error % [95% CI] (n)", "generative % [95% CI] (n)",
           "gap (pp)", "p", "verdict (raw rate)", "dist. discr."]


def table_rows(report: FalsePositiveReport) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of the report's table (shared by the text and the Markdown output)."""
    rows = report.rows
    pooled = report.pool_sources is not None
    replicas = any(row.per_seed for row in rows)
    zelligs = len({(r.zellig, r.phenomenon) for r in rows}) != len({r.phenomenon for r in rows})
    headers = list(COLUMNS)
    if pooled:
        headers.insert(5, "generative on pool % [95% CI] (n)")
    if replicas:
        headers += ["error over seeds %", "generative over seeds %"]
    if zelligs:
        headers.insert(1, "zellig")
    cells = []
    for row in rows:
        line = [row.phenomenon, row.reference_kind, row.claude, _pct(row.contrastive_error), _pct(row.generative)]
        if pooled:
            line.append(_pct(row.generative_pool))
        line += [
            "-" if row.gap is None else f"{100 * row.gap:+.1f}",
            _p(row.p_value),
            row.verdict,
            "-" if row.distributional_discrepancy is None else f"{row.distributional_discrepancy:.3f}",
        ]
        if replicas:
            line += [_over_seeds(row.contrastive_error_over_seeds), _over_seeds(row.generative_over_seeds)]
        if zelligs:
            line.insert(1, row.zellig)
        cells.append(line)
    return fp_adjust.extend_table(rows, headers, cells)


def _legend(report: FalsePositiveReport) -> str:
    used = (f"the pool's generative rate (the run's where fewer than {MIN_ITEMS} pool translations count)"
            if report.pool_sources else "the generative rate on the run's sources")
    return (f"verdict: 'exceeds' when the contrastive error rate significantly exceeds {used} (the errors are "
            f"likely false positives), 'equivalent (±{100 * report.margin:g})' when two one-sided tests put the gap "
            f"within ±{100 * report.margin:g} points, else 'undecided' with the n that would decide at the observed "
            f"gap ({report.test}, α = {report.alpha}); p: of the one-sided test; 95% intervals: bootstrap over instances for the error, "
            "Wilson for the generative rate; gap = error − generative, in percentage points; a detector that "
            "needs something in the source (a negation to drop, two clauses) counts only translations of "
            "sources that have it" + fp_adjust.legend(report.rows))


def format_text(report: FalsePositiveReport) -> str:
    from arena.present.tables import render

    headers, cells = table_rows(report)
    parts = [render(headers, cells, align="l" * len(headers)), "", _legend(report)]
    if report.signature:
        parts.append(f"signature: {report.signature}")
    return "\n".join(parts)


def format_markdown(report: FalsePositiveReport) -> str:
    headers, cells = table_rows(report)
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in line) + " |" for line in cells]
    return "\n".join(lines) + "\n\n" + _legend(report) + "\n"


def write(run_dir: Path, report: FalsePositiveReport, plot: bool = True) -> dict[str, Path]:
    """Write ``RUN/report/false_positives.{json,md,txt}`` and (with ``plot``) the PNG; return the paths."""
    from arena.codec import dump

    directory = Path(run_dir) / "report"
    directory.mkdir(exist_ok=True)
    paths = {
        "json": directory / f"{REPORT_NAME}.json",
        "markdown": directory / f"{REPORT_NAME}.md",
        "text": directory / f"{REPORT_NAME}.txt",
    }
    transcripts.atomic_write_json(paths["json"], dump(report))
    transcripts.atomic_write_text(paths["markdown"], format_markdown(report))
    transcripts.atomic_write_text(paths["text"], format_text(report) + "\n")
    if plot and report.rows:
        from arena.present.plots import false_positives

        paths["plot"] = false_positives(report.rows, directory / f"{REPORT_NAME}.png")
    return paths
