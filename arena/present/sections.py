"""The sections of the Markdown/HTML report, as tables built from a run's typed results.

A section renderer takes a :class:`ReportInput` (the run read once, its typed
:class:`~arena.stats.results.Scores` and :class:`~arena.stats.leaderboards.Leaderboards`)
and returns a :class:`Section` (a title and its tables) or ``None`` to leave it out.
:data:`SECTIONS` lists them in report order; a new section (the surface cues, say) is
a renderer added to that list, and the templates show it with no further edit.
Every registered metric (:mod:`arena.stats.registry`) gets a column under its
``label``.  Nothing is aggregated here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.present.console import mean_std, versus
from arena.present.fluency_gap import gap_rows
from arena.present.plots import FEW_ROUNDS, reference_kinds
from arena.present.tables import fmt, fmt_ci
from arena.stats import registry
from arena.stats.leaderboards import Leaderboards
from arena.stats.results import Cell, Scores, Summary
from arena.stats.run import RunData


@dataclass(frozen=True)
class ReportInput:
    run: RunData
    scores: Scores
    boards: Leaderboards


@dataclass(frozen=True)
class Section:
    title: str
    tables: Sequence[Mapping[str, Any]] = field(default_factory=tuple)


def table(title: str, headers: Sequence[str], rows: Sequence[Sequence[Any]], note: str = "",
          align: str | None = None) -> dict[str, Any]:
    """A table for the templates: cells already formatted as text; numbers right-aligned."""
    text_rows = [[fmt(cell) if not isinstance(cell, str) else cell for cell in row] for row in rows]
    if align is None:
        align = "".join(
            "r" if rows and all(isinstance(row[i], (int, float)) or row[i] is None for row in rows) else "l"
            for i in range(len(headers))
        )
    return {"title": title, "note": note, "headers": list(headers), "rows": text_rows, "align": align}


def few(rounds: int | None) -> str:
    return f"{rounds} (few)" if rounds is not None and rounds < FEW_ROUNDS else fmt(rounds)


def _labels() -> list[str]:
    return [m.label for m in registry.metrics()]


def _values(summary: Summary) -> list[Any]:
    return [summary.value(m.name) for m in registry.metrics()]


def _with_ci(summary: Summary) -> list[Any]:
    cells: list[Any] = []
    for metric in registry.metrics():
        found = summary.metric(metric.name)
        cells.append(found.value if found else None)
        if metric.ci:
            cells.append(fmt_ci(found.ci95 if found else None))
    return cells


def cell_tables(data: ReportInput) -> Section:
    """S, every metric, generative rate and yield per cell; S over seeds."""
    scores = data.scores
    metric_headers = [h for m in registry.metrics() for h in ([m.label, f"{m.short}. 95% CI"] if m.ci else [m.label])]
    metric_align = "".join("rl" if m.ci else "r" for m in registry.metrics())
    abstained = any(c.summary.judged != c.summary.rounds for c in scores.cells)  # then a column: the rounds S counts
    rows = [[c.john, c.zellig, c.claude, c.seed, few(c.summary.rounds), *([few(c.summary.judged)] if abstained else []),
             c.summary.S, fmt_ci(c.summary.S_ci95),
             *_with_ci(c.summary), c.generative_rate.rate if c.generative_rate else None, c.yield_.share]
            for c in scores.cells]
    tables = [table(
        "S and contrastive accuracy per cell",
        ["John", "Zellig", "Claude", "seed", "rounds", *(["judged"] if abstained else []), "S", "S 95% CI",
         *metric_headers, "gen. rate", "yield"],
        rows,
        f"95% bootstrap CIs resample instances; contrastive ties count as {scores.contrastive_ties}; "
        f"'(few)' marks cells with fewer than {FEW_ROUNDS} rounds, whose numbers are not reliable."
        + (" S counts only the rounds the Claude judged ('judged'): those it abstained on or answered late are "
           "left out ('-': it judged none)." if abstained else ""),
        align="lllrr" + "r" * abstained + "rl" + metric_align + "rr",
    )]
    if any(e.seeds > 1 for e in scores.over_seeds):
        names = [m for m in registry.metrics() if m.over_seeds]
        rows = []
        for e in scores.over_seeds:
            means = {m.name: mean_std(m.mean, m.std) for m in e.metrics}
            rows.append([e.john, e.zellig, e.claude, e.seeds, mean_std(e.S_mean, e.S_std),
                         *[means.get(m.name, "-") for m in names]])
        tables.append(table("S over seeds (mean ± sample std of the per-seed values)",
                            ["John", "Zellig", "Claude", "seeds", "S", *[m.label for m in names]], rows,
                            align="lllrl" + "l" * len(names)))
    return Section("Scores", tables)


def leaderboard_tables(data: ReportInput) -> Section:
    """The three leaderboards (:mod:`arena.stats.leaderboards`) and the people's agreement."""
    boards = data.boards
    metrics = registry.leaderboard_metrics()
    tables = [table(
        "Claudes by S (higher is better)",
        ["#", "Claude", "rounds", "S", "S 95% CI", "S over seeds", *[m.label for m in metrics], "paired bootstrap vs next"],
        [[e.rank or "-", e.claude, few(e.standing.rounds), e.standing.S, fmt_ci(e.standing.S_ci95),
          mean_std(e.standing.S_mean, e.standing.S_std),
          *[next((v.value for v in e.standing.metrics if v.name == m.name), None) for m in metrics],
          e.unranked and "not ranked" or versus(e.vs_next)] for e in boards.claudes],
        f"paired bootstrap ({boards.bootstrap_samples} samples) over the instances both Claudes judged"
        + "".join(f"; not ranked: {e.claude}: {e.unranked}" for e in boards.claudes if e.unranked),
        align="rlrrll" + "r" * len(metrics) + "l",
    )]
    for claude, entries in boards.zelligs.items():
        tables.append(table(
            f"Zelligs by S against {claude} (lower is better)",
            ["#", "Zellig", "rounds", "S", "S 95% CI", "S over seeds", "yield", "paired bootstrap vs next"],
            [[e.rank or "-", e.zellig, few(e.standing.rounds), e.standing.S, fmt_ci(e.standing.S_ci95),
              mean_std(e.standing.S_mean, e.standing.S_std), e.yield_, versus(e.vs_next)] for e in entries],
            "paired bootstrap of per-instance S over the instances both Zelligs apply to",
            align="rlrrllrl",
        ))
    tables.append(table(
        "Johns by S (higher is better)",
        ["#", "John", "rounds", "S", "S 95% CI", "S over seeds", "sign test vs next"],
        [[e.rank or "-", e.john, few(e.standing.rounds), e.standing.S, fmt_ci(e.standing.S_ci95),
          mean_std(e.standing.S_mean, e.standing.S_std), versus(e.vs_next)] for e in boards.johns],
        "two-sided sign test over matched (Zellig, Claude, seed) cells",
        align="rlrrlll",
    ))
    if boards.agreement:
        tables.append(table(
            "Agreement of people",
            ["people", "rounds", "agreement", "kappa", "measure"],
            [[", ".join(e.people), e.rounds, e.observed, e.kappa, e.measure] for e in boards.agreement],
            "the candidate judged corrupted, on the rounds all of them answered in time",
            align="lrrrl",
        ))
    return Section("Leaderboards", tables)


def paired_tables(data: ReportInput) -> Section:
    """Paired bootstrap tests per cell between Claudes and between Zelligs."""
    paired = data.scores.paired
    tables = []
    for tests, within, title in ((paired.claudes, "zellig", "Paired tests between Claudes (same rounds)"),
                                 (paired.zelligs, "claude", "Paired tests between Zelligs (instances both apply to)")):
        if tests:
            tables.append(table(
                title,
                ["John", within.capitalize(), "seed", "A", "B", "ΔS = S(A) − S(B)", "95% CI", "p", "instances"],
                [[t.john, getattr(t, within), t.seed, t.a, t.b, f"{t.test.delta:+.3f}",
                  fmt_ci((t.test.low, t.test.high)), t.test.p_value, t.test.n] for t in tests],
                align="llrllrlrr",
            ))
    return Section("Paired tests", tables)


def _bucket_table(cells: Sequence[Cell], title: str, column: str,
                  buckets: Callable[[Cell], Sequence[tuple[str, Summary]]]) -> dict[str, Any] | None:
    rows = [[c.claude, c.zellig, c.seed, name, few(e.rounds), e.S, *_values(e)] for c in cells for name, e in buckets(c)]
    if not rows:
        return None
    return table(title, ["Claude", "Zellig", "seed", column, "rounds", "S", *_labels()], rows,
                 align="llrlrr" + "r" * len(registry.metrics()))


def breakdown_tables(data: ReportInput) -> Section:
    """Per phenomenon, by reference kind, by LingEval97 bins and by metadata keys."""
    cells = data.scores.cells
    tables = [_bucket_table(cells, "Per phenomenon", "phenomenon", lambda c: list(c.phenomena.items()))]
    kinds = data.boards.phenomena
    if kinds:
        tables.append(table(
            f"Per phenomenon and reference kind ({reference_kinds(r.reference_kind for r in kinds)})",
            ["Claude", "phenomenon", "references", "metric", "rounds", "value", "95% CI"],
            [[r.claude, r.phenomenon, r.reference_kind, r.metric, few(r.rounds), r.value, fmt_ci(r.ci95)]
             for r in kinds],
            align="llllrrl",
        ))
    tables.append(_bucket_table(cells, "S and metrics by distance (LingEval97 bins)", "bin",
                                lambda c: list(c.by_distance.items())))
    tables.append(_bucket_table(cells, "S and metrics by frequency (LingEval97 bins)", "bin",
                                lambda c: list(c.by_frequency.items())))
    tables.append(_bucket_table(cells, "S and metrics by metadata", "bucket",
                                lambda c: [(f"{key} = {value}", e) for key, buckets in (c.by_meta or {}).items()
                                           for value, e in buckets.items()]))
    return Section("Breakdowns", [t for t in tables if t is not None])


def generative_table(data: ReportInput) -> Section:
    """Contrastive error rate next to the generative rate (Vamvas & Sennrich 2021,
    Table 1: an error rate far above the generative rate flags implausible variants)."""
    rows = []
    for c in data.scores.cells:
        rate, accuracy, discrepancy = c.generative_rate, c.summary.value("accuracy"), c.summary.value("discrepancy")
        if rate is None and discrepancy is None:
            continue
        error = None if accuracy is None else 1.0 - accuracy
        gap = None if error is None or rate is None else error - rate.rate
        rows.append([c.john, c.zellig, c.claude, c.seed, error, rate.rate if rate else None,
                     f"{rate.detected}/{rate.sources}" if rate else "-", f"{gap:+.3f}" if gap is not None else "-",
                     discrepancy])
    tables = [table(
        "Discrepancy and generative rate",
        ["John", "Zellig", "Claude", "seed", "contrastive error rate", "generative rate", "detected/sources",
         "error − generative", "discrepancy"],
        rows,
        "generative rate: share of the Claude's own beam-search translations in which the Zellig's detector finds "
        "the phenomenon; discrepancy: mean of max(0, s(1-best) − max(s(correct), s(corrupted))).",
        align="lllrrrlrr",
    )] if rows else []
    return Section("Discrepancy and generative rate", tables)


def timeline_tables(data: ReportInput) -> Section:
    """The S timeline of each cell of a game (windows of rounds) and its convergence."""
    tables = []
    for c in data.scores.cells:
        if not c.timeline:
            continue
        settled = c.timeline.convergence
        note = (f"S stays within ε={settled.epsilon} of its final value {fmt(settled.final_S)} "
                f"after {settled.rounds} rounds" if settled else "")
        tables.append(table(
            f"S over rounds: {c.john} · {c.zellig} · {c.claude} · seed {c.seed}",
            ["first round", "last round", "rounds", "S", "S 95% CI", "counts toward S"],
            [[w.first, w.last, few(w.rounds), w.S, fmt_ci(w.S_ci95), "yes" if w.counts else "no (observation)"]
             for w in c.timeline.windows],
            note,
            align="rrrrll",
        ))
    return Section("S over time", tables)


def fluency_gap_tables(data: ReportInput) -> Section:
    """S of each adequacy Claude against each fluency Claude (no source) per Zellig and
    their gap (:mod:`arena.present.fluency_gap`); empty without a fluency Claude."""
    rows = [[r.john, r.zellig, ", ".join(r.phenomena) or "-", r.seed, r.adequacy, r.fluency, few(r.rounds),
             r.S_adequacy, r.S_fluency, f"{r.gap:+.3f}", fmt_ci((r.low, r.high)), r.p_value]
            for r in gap_rows(data.run.experiment, data.scores)]
    tables = [table(
        "S with and without the source, per phenomenon",
        ["John", "Zellig", "phenomenon", "seed", "adequacy Claude", "fluency Claude", "rounds", "S adequacy",
         "S fluency", "gap = adequacy − fluency", "95% CI", "p"],
        rows,
        "fluency Claude: judges without the source (sees: {source: false}); the gap is how much of the phenomenon "
        "needs the source (Smith 2012, §4.3); paired bootstrap over the same rounds (scores.json → paired).",
        align="lllrllrrrrlr",
    )] if rows else []
    return Section("Adequacy vs fluency", tables)


# the report's sections in order; a section without tables is left out
SECTIONS: list[Callable[[ReportInput], Section | None]] = [
    cell_tables, leaderboard_tables, paired_tables, fluency_gap_tables, breakdown_tables, generative_table,
    timeline_tables,
]


def sections(data: ReportInput) -> list[Section]:
    """Every section of :data:`SECTIONS` that has tables."""
    return [s for s in (render(data) for render in SECTIONS) if s is not None and s.tables]
