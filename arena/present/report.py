"""``report.md`` and a self-contained ``report.html`` of a run (or of several, side by side).

What a report shows is *rendered*, never re-aggregated here: the run is read once
(:meth:`arena.stats.run.RunData.open`); the numbers come from its typed ``scores.json``
(:mod:`arena.stats.results`) and its leaderboards (:mod:`arena.stats.leaderboards`), the
tables from the section renderers of :mod:`arena.present.sections`, the plots from
:mod:`arena.present.plots`, the misjudged pairs from the transcripts.  Sections: the
signature, S and every registered metric per cell with 95% CIs, S over seeds, the
leaderboards with their paired tests, paired tests per cell, the adequacy−fluency gap
per phenomenon where a Claude judges without the source, per-phenomenon and
metadata breakdowns, discrepancy and generative rate, the S timeline of a game (and any
renderer added to :data:`arena.present.sections.SECTIONS`), the plots, and a handful of
misjudged pairs with the edit highlighted.  :func:`write_report_dir` writes
``RUN/report/`` (``leaderboard.json``, ``leaderboard.txt``, the PNG plots).

The templates (``arena/present/templates/report.md.j2`` and ``report.html.j2``, Jinja2) are
package data.  The HTML embeds its plots as base64 PNG and its style sheet, so it
opens offline and can be mailed as one file; the Markdown links the PNGs that sit in
``RUN/report/``.  A report never carries the time it was made, so rebuilding it from
the same transcripts gives the same files.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.codec import dump
from arena.errors import UsageError
from arena.present.console import format_leaderboards, mean_std
from arena.present.cues import SurfaceCues, with_surface_cues
from arena.present.sections import ReportInput, sections, table
from arena.present.tables import fmt
from arena.present.transfer import transfer_heatmap, transfer_sections
from arena.record import transcripts
from arena.stats.results import read_scores
from arena.stats.run import RunData

MARKDOWN = "report.md"
HTML = "report.html"
REPORT_DIR = "report"
MISJUDGED_PER_CLAUDE = 4


def report_input(run_dir: Path) -> ReportInput:
    """A finished run read once, with its typed scores (``scores.json``) and leaderboards."""
    from arena.stats.leaderboards import build

    run = RunData.open(run_dir, finished=True)
    return ReportInput(run, read_scores(run.run_dir), build(run))


def write_report_dir(data: ReportInput, plots: bool = True) -> dict[str, Path]:
    """Write ``report/leaderboard.json``, ``report/leaderboard.txt`` and (with ``plots``)
    the PNG plots into the run directory; return the paths written."""
    directory = data.run.run_dir / REPORT_DIR
    directory.mkdir(exist_ok=True)
    paths = {"json": directory / "leaderboard.json", "text": directory / "leaderboard.txt"}
    transcripts.atomic_write_json(paths["json"], dump(data.boards))
    transcripts.atomic_write_text(paths["text"], format_leaderboards(data.boards) + "\n")
    if plots:
        from arena.present import plots as plotting

        paths["s_heatmap"] = plotting.s_heatmap(data.scores, directory / "s_zellig_claude.png")
        if data.boards.phenomena:
            paths["phenomena"] = plotting.phenomena_by_reference(data.boards.phenomena,
                                                                 directory / "phenomena_human_vs_mt.png")
        heatmap = transfer_heatmap(data.run.run_dir, directory / "transfer.png")  # a run of `arena transfer`
        if heatmap is not None:
            paths["transfer"] = heatmap
        curves = plotting.game_curves(data.scores)
        if curves:  # a game: S over rounds and its convergence
            paths["timeline"] = plotting.timeline(curves, directory / "timeline.png")
            paths["convergence"] = plotting.convergence(curves, directory / "convergence.png")
    return paths


def _segments(reference: str, edits: Sequence[Any]) -> list[tuple[str, str]]:
    """The reference cut into ``(kind, text)``: ``same``, ``del`` (before) and ``ins`` (after)."""
    pieces: list[tuple[str, str]] = []
    cursor = 0
    for edit in sorted(edits, key=lambda e: e.start):
        if reference[cursor:edit.start]:
            pieces.append(("same", reference[cursor:edit.start]))
        if edit.before:
            pieces.append(("del", edit.before))
        if edit.after:
            pieces.append(("ins", edit.after))
        cursor = edit.end
    if reference[cursor:]:
        pieces.append(("same", reference[cursor:]))
    return pieces


def misjudged_pairs(run: RunData, per_claude: int = MISJUDGED_PER_CLAUDE) -> list[dict[str, Any]]:
    """A handful of rounds each Claude got wrong: those where it preferred the corrupted
    candidate by the widest margin first (in round order without scores)."""
    from arena.run_tokens import load_tokens

    views = load_tokens(run.run_dir)  # token views computed by `arena report --tokens` / `arena show --tokens`
    pairs = []
    for claude, outcomes in run.outcomes.items():
        wrong = [o for o in outcomes if not o.judgement.correct and o.round.variant is not None]
        wrong.sort(key=lambda o: -(o.scores[1] - o.scores[0]) if o.scores is not None else 0.0)
        for o in wrong[:per_claude]:
            scores, variant = o.scores, o.round.variant
            assert variant is not None
            pairs.append({
                "claude": claude, "round": o.round.id, "zellig": o.round.zellig, "phenomenon": variant.phenomenon,
                "resolved_by": o.judgement.resolved_by, "source": o.round.instance.source,
                "segments": _segments(o.round.instance.reference, variant.edits),
                "corrupted": variant.text,
                "scores": f"correct {scores[0]:.4f}, corrupted {scores[1]:.4f}" if scores is not None else "",
                "one_best": o.one_best.translation if o.one_best is not None else "",
                "reference": o.round.instance.reference,
                "blame": views.get((claude, o.round.id), {}).get("summary", ""),
            })
    return pairs


def _kinds(data: ReportInput) -> str:
    """The run's reference kinds in its own words (``human vs machine references``)."""
    from arena.present.plots import reference_kinds

    return reference_kinds(row.reference_kind for row in data.boards.phenomena)


def _png(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


PLOT_TITLES = {
    "s_heatmap": "S per Zellig × Claude",
    "phenomena": "Per phenomenon and reference kind",
    "timeline": "S over rounds",
    "convergence": "Convergence of S",
    "transfer": "Transfer: gain over the untuned base, tuned against × judged by",
}


def run_context(run_dir: Path, plots: bool = True, cues: SurfaceCues | None = None) -> dict[str, Any]:
    """Everything one run's report shows; writes the leaderboards and PNG plots into
    ``RUN/report/`` on the way (:func:`write_report_dir`).  ``cues``: builders of the surface
    Claudes for the *Surface cues* section (:mod:`arena.present.cues`; none: no section)."""
    data = report_input(Path(run_dir))
    paths = write_report_dir(data, plots=plots)
    experiment, scores = data.run.experiment, data.scores
    titles = {**PLOT_TITLES, "phenomena": "Per phenomenon, " + _kinds(data)}
    figures = [
        {"title": titles.get(key, key.replace("_", " ")), "file": path.relative_to(data.run.run_dir).as_posix(),
         "data": _png(path)}
        for key, path in paths.items() if path.suffix == ".png"
    ]
    signatures = [(role[:-1], label, text) for role, entries in scores.signatures.items()
                  for label, text in entries.items()]
    quick = [] if experiment.get("discrepancy", True) else [
        "1-best decoding was skipped (discrepancy: false): no discrepancy and no generative rate."]
    return {
        "name": experiment["name"],
        "description": experiment.get("description", ""),
        "run_dir": str(data.run.run_dir),
        "signature": scores.signature,
        "performer_signatures": signatures,
        "notes": quick,
        "sections": with_surface_cues([{"title": s.title, "tables": list(s.tables)}
                                       for s in [*sections(data), *transfer_sections(data)]],
                                      data.run, cues),
        "figures": figures,
        "misjudged": misjudged_pairs(data.run),
        "over_seeds": scores.over_seeds,
    }


def comparison_table(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """S (mean ± std over seeds) per (John, Zellig, Claude), one column per run."""
    keys: dict[tuple[str, str, str], None] = {}
    values: dict[tuple[int, tuple[str, str, str]], str] = {}
    for index, run in enumerate(runs):
        for e in run["over_seeds"]:
            key = (e.john, e.zellig, e.claude)
            keys.setdefault(key)
            values[index, key] = fmt(e.S_mean) if e.seeds == 1 else mean_std(e.S_mean, e.S_std)
    headers = ["John", "Zellig", "Claude", *[f"run {i + 1}: S" for i in range(len(runs))]]
    rows = [[*key, *[values.get((i, key), "-") for i in range(len(runs))]] for key in keys]
    return table("S side by side", headers, rows,
                 "mean ± std over seeds where a run has several; '-' where a run has no such cell",
                 align="lll" + "r" * len(runs))


def _environment():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("arena.present", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def render(runs: Sequence[Mapping[str, Any]], markdown_links: bool = True) -> tuple[str, str]:
    """``(markdown, html)`` of one run or of several side by side."""
    from arena.version import __version__

    environment = _environment()
    context = {
        "runs": runs,
        "comparison": comparison_table(runs) if len(runs) > 1 else None,
        "version": __version__,
        "markdown_links": markdown_links,
    }
    return (environment.get_template("report.md.j2").render(**context),
            environment.get_template("report.html.j2").render(**context))


def write_reports(run_dirs: Sequence[Path], out: Path | None = None, plots: bool = True,
                  cues: SurfaceCues | None = None) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html``: into the run directory for one run
    (``out`` defaults to it), into ``out`` for several side by side.  Returns the paths.
    ``cues``: the surface Claudes' builders for the *Surface cues* section (none: no section)."""
    run_dirs = [Path(d) for d in run_dirs]
    if not run_dirs:
        raise UsageError("no run directory given", key="RUN_DIR", hint="arena report RUN_DIR")
    if len(run_dirs) > 1 and out is None:
        raise UsageError("several runs: give --out DIR for the side-by-side report", key="--out",
                         hint="arena report RUN1 RUN2 --out DIR")
    runs = [run_context(d, plots, cues) for d in run_dirs]
    target = Path(out) if out is not None else run_dirs[0]
    # the Markdown links the PNGs relative to the run directory it sits in
    markdown, html = render(runs, markdown_links=len(run_dirs) == 1 and target.resolve() == run_dirs[0].resolve())
    target.mkdir(parents=True, exist_ok=True)
    transcripts.atomic_write_text(target / MARKDOWN, markdown)
    transcripts.atomic_write_text(target / HTML, html)
    return target / MARKDOWN, target / HTML
