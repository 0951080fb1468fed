"""The console: plain-text tables of a run's typed results.

What ``arena run`` and ``arena score`` print (:func:`format_scores`: one row per cell,
S over seeds, per phenomenon, by metadata, a game's S over rounds, the signature) and
what ``arena tournament`` and ``arena leaderboard`` print (:func:`format_leaderboards`).
Every registered metric (:mod:`arena.stats.registry`) gets a column under its ``short``
name; nothing is computed here.  A further part of :func:`format_scores` is a function
``Scores -> list[str]`` (lines; empty to leave it out) appended to :data:`SCORE_PARTS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.present.plots import FEW_ROUNDS
from arena.present.tables import fmt, fmt_ci, render, shorten
from arena.stats import registry
from arena.stats.leaderboards import Leaderboards, SignTest, VersusNext
from arena.stats.results import Cell, Scores, Summary
from arena.text_policy import visible_lines


def _values(summary: Summary) -> list[Any]:
    return [summary.value(metric.name) for metric in registry.metrics()]


def _shorts() -> list[str]:
    return [metric.short for metric in registry.metrics()]


def cells_table(scores: Scores, width: int = 32) -> str:
    """One row per (John, Zellig, Claude, seed); with a column ``judged`` (the rounds S counts) when a
    Claude abstained or answered late on some round."""
    abstained = any(c.summary.judged != c.summary.rounds for c in scores.cells)
    rows = [
        [shorten(c.john, width), shorten(c.zellig, width), shorten(c.claude, width), c.seed, c.summary.rounds,
         *([c.summary.judged] if abstained else []), c.summary.S, fmt_ci(c.summary.S_ci95), *_values(c.summary),
         c.generative_rate.rate if c.generative_rate else None, c.yield_.share]
        for c in scores.cells
    ]
    headers = ["john", "zellig", "claude", "seed", "rounds", *(["judged"] if abstained else []), "S", "S 95% CI",
               *_shorts(), "gen.rate", "yield"]
    return render(headers, rows, align="lllrr" + "r" * abstained + "rl" + "r" * len(registry.metrics()) + "rr")


def seeds_table(scores: Scores, width: int = 32) -> str:
    names = [m for m in registry.metrics() if m.over_seeds]
    rows = []
    for e in scores.over_seeds:
        means = {m.name: f"{fmt(m.mean)} ± {fmt(m.std)}" for m in e.metrics}
        rows.append([shorten(e.john, width), shorten(e.zellig, width), shorten(e.claude, width), e.seeds,
                     mean_std(e.S_mean, e.S_std), *[means.get(m.name, "-") for m in names]])
    headers = ["john", "zellig", "claude", "seeds", "S mean ± std", *[f"{m.short} mean ± std" for m in names]]
    return render(headers, rows, align="lllrl" + "l" * len(names))


def _bucket_table(scores: Scores, buckets: Callable[[Cell], Sequence[tuple[str, Summary]]], title: str,
                  width: int) -> str:
    rows = [[shorten(c.claude, width), c.seed, name, e.rounds, e.S, *_values(e)]
            for c in scores.cells for name, e in buckets(c)]
    return render(["claude", "seed", title, "rounds", "S", *_shorts()], rows,
                  align="lrlrr" + "r" * len(registry.metrics()))


def phenomena_table(scores: Scores, width: int = 32) -> str:
    return _bucket_table(scores, lambda c: list(c.phenomena.items()), "phenomenon", width)


def meta_table(scores: Scores, width: int = 32) -> str:
    """S and every metric by the variant meta keys (and ``john.`` keys of the John's
    metadata) an experiment's ``breakdowns`` names."""
    return _bucket_table(scores, lambda c: [(f"{key}={value}", e) for key, buckets in (c.by_meta or {}).items()
                                            for value, e in buckets.items()], "bucket", width)


def timeline_table(scores: Scores, width: int = 20) -> str:
    """A game's S over rounds: one row per window of every cell (``*``: the window
    belongs to an observation phase and does not count toward S)."""
    rows = [
        [shorten(c.zellig, width), shorten(c.claude, width), c.seed,
         f"{w.first}–{w.last}" + ("" if w.counts else " *"), w.S, fmt_ci(w.S_ci95)]
        for c in scores.cells if c.timeline for w in c.timeline.windows
    ]
    return render(["zellig", "claude", "seed", "rounds", "S", "S 95% CI"], rows, align="llrlrl")


def convergence_lines(scores: Scores, width: int = 24) -> list[str]:
    lines = []
    for c in scores.cells:
        settled = c.timeline.convergence if c.timeline else None
        if settled:
            lines.append(
                f"  {shorten(c.zellig, width)} / {shorten(c.claude, width)} / seed {c.seed}: "
                f"within ε={settled.epsilon} of its final S {fmt(settled.final_S)} after {settled.rounds} rounds"
            )
    return lines


def _seeds_part(scores: Scores) -> list[str]:
    return ["", "over seeds:", seeds_table(scores)] if any(e.seeds > 1 for e in scores.over_seeds) else []


def _phenomena_part(scores: Scores) -> list[str]:
    phenomena = {p for c in scores.cells for p in c.phenomena}
    return ["", "per phenomenon:", phenomena_table(scores)] if len(phenomena) > 1 else []


def _meta_part(scores: Scores) -> list[str]:
    return ["", "by metadata:", meta_table(scores)] if any(c.by_meta for c in scores.cells) else []


def _timeline_part(scores: Scores) -> list[str]:
    if not any(c.timeline for c in scores.cells):
        return []
    return ["", "S over rounds (a game; * = observation phase, not counted in S):", timeline_table(scores),
            "", "convergence:", *convergence_lines(scores)]


# the parts after the cells table, in order; each gives its lines (none to leave it out)
SCORE_PARTS: list[Callable[[Scores], list[str]]] = [_seeds_part, _phenomena_part, _meta_part, _timeline_part]


def _name(signature: str) -> str:
    """The performer's name in its signature (:class:`arena.specs.signature.Signature`)."""
    from arena.specs.signature import Signature

    try:
        return Signature.parse(signature).name
    except ValueError:  # not a signature: nothing to leave out
        return ""


def signature_lines(signature: str, signatures: Any) -> list[str]:
    """The run's signature and each performer's, as every console output ends."""
    lines = [f"signature: {signature}"]
    for role, entries in signatures.items():
        for label, text in entries.items():
            lines.append(f"  {role[:-1]} {label} = {text}" if label != _name(text) else f"  {role[:-1]} {text}")
    return lines


def format_scores(scores: Scores) -> str:
    """What ``arena run`` and ``arena score`` print."""
    parts = [cells_table(scores)]
    for part in SCORE_PARTS:
        parts += part(scores)
    parts += ["", f"contrastive ties count as: {scores.contrastive_ties}"]
    return visible_lines("\n".join(parts + signature_lines(scores.signature, scores.signatures)))


def versus(test: VersusNext | SignTest | None) -> str:
    """A leaderboard entry's test against the next one down, naming it (an unranked entry
    may stand between them): the one wording of the console and the report."""
    if test is None:
        return "-"
    if isinstance(test, SignTest):
        return f"vs {test.other}: {test.wins}-{test.losses} of {test.cells} cells, p={fmt(test.p_value)}"
    t = test.test
    return f"vs {test.other}: Δ={t.delta:+.3f} [{fmt(t.low)}, {fmt(t.high)}], p={fmt(t.p_value)}"


def mean_std(mean: float | None, std: float | None) -> str:
    return "-" if mean is None or mean != mean else f"{fmt(mean)} ± {fmt(std)}"


def format_leaderboards(boards: Leaderboards, width: int = 36) -> str:
    """Plain-text leaderboards (what ``arena tournament`` and ``arena leaderboard`` print)."""
    metrics = registry.leaderboard_metrics()
    few = [False]

    def n(rounds: int) -> str | int:
        """A standing's rounds, marked when there are too few to read S as a result (as the plots grey them)."""
        if rounds < FEW_ROUNDS:
            few[0] = True
            return f"{rounds}*"
        return rounds

    parts = ["Claudes by S (higher is better; vs next: paired bootstrap on the same rounds)"]
    rows = [[e.rank or "-", shorten(e.claude, width), n(e.standing.rounds), e.standing.S, fmt_ci(e.standing.S_ci95),
             mean_std(e.standing.S_mean, e.standing.S_std), e.standing.seeds,
             *[next((v.value for v in e.standing.metrics if v.name == m.name), None) for m in metrics],
             e.unranked and "not ranked" or versus(e.vs_next)] for e in boards.claudes]
    parts.append(render(["#", "claude", "rounds", "S", "S 95% CI", "S over seeds", "seeds", *[m.short for m in metrics],
                         "vs next"], rows, align="rlrrllr" + "r" * len(metrics) + "l"))
    parts += [f"not ranked: {shorten(e.claude, width)}: {e.unranked}" for e in boards.claudes if e.unranked]
    for claude, entries in boards.zelligs.items():
        parts += ["", f"Zelligs by S against {claude} (lower is better; vs next: paired bootstrap on common instances)"]
        rows = [[e.rank or "-", shorten(e.zellig, width), n(e.standing.rounds), e.standing.S, fmt_ci(e.standing.S_ci95),
                 mean_std(e.standing.S_mean, e.standing.S_std), e.yield_, versus(e.vs_next)] for e in entries]
        parts.append(render(["#", "zellig", "rounds", "S", "S 95% CI", "S over seeds", "yield", "vs next"],
                            rows, align="rlrrllrl"))
    parts += ["", "Johns by S (higher is better; vs next: sign test over matched (Zellig, Claude, seed) cells)"]
    rows = [[e.rank or "-", shorten(e.john, width), n(e.standing.rounds), e.standing.S, fmt_ci(e.standing.S_ci95),
             mean_std(e.standing.S_mean, e.standing.S_std), versus(e.vs_next)] for e in boards.johns]
    parts.append(render(["#", "john", "rounds", "S", "S 95% CI", "S over seeds", "vs next"], rows, align="rlrrlll"))
    if boards.agreement:
        parts += ["", "Agreement of people (candidate judged corrupted, on the rounds all of them answered in time)"]
        rows = [[", ".join(e.people), e.rounds, e.observed, e.kappa, e.measure] for e in boards.agreement]
        parts.append(render(["people", "rounds", "agreement", "kappa", "measure"], rows, align="lrrrl"))
    if few[0]:
        parts += ["", f"* fewer than {FEW_ROUNDS} rounds: too few to read S as a result (greyed in the plots)"]
    parts += ["", f"CIs and tests: {boards.bootstrap_samples} bootstrap samples over instances; "
                  f"contrastive ties count as {boards.contrastive_ties}"]
    if boards.signature:
        parts.append(f"signature: {boards.signature}")
    return visible_lines("\n".join(parts))  # labels from configs and data, terminal-safe
