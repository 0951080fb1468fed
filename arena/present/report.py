"""``report.md`` and a self-contained ``report.html`` of a run (or of several, side by side).

What a report shows is *rendered*, never re-aggregated here: the numbers come from the
run's ``scores.json`` (:mod:`arena.stats.metrics`) and its leaderboards (:mod:`arena.present.leaderboards`),
the plots from :mod:`arena.present.plots`, the misjudged pairs from the transcripts.  Sections:
the signature, S and contrastive accuracy per cell with 95% CIs, S over seeds, the
leaderboards with their paired tests, paired tests per cell, per-phenomenon and
metadata breakdowns, discrepancy and generative rate, the S timeline of a game, the
plots, and a handful of misjudged pairs with the edit highlighted.

The templates (``arena/present/templates/report.md.j2`` and ``report.html.j2``, Jinja2) are
package data.  The HTML embeds its plots as base64 PNG and its style sheet, so it
opens offline and can be mailed as one file; the Markdown links the PNGs that sit in
``RUN/report/``.  A report never carries the time it was made, so rebuilding it from
the same transcripts gives the same files.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.engine import transcripts
from arena.present.plots import FEW_ROUNDS
from arena.present.tables import fmt, fmt_ci

MARKDOWN = "report.md"
HTML = "report.html"
MISJUDGED_PER_CLAUDE = 4


def _table(title: str, headers: Sequence[str], rows: Sequence[Sequence[Any]], note: str = "",
           align: str | None = None) -> dict[str, Any]:
    """A table for the templates: cells already formatted as text; numbers right-aligned."""
    text_rows = [[fmt(cell) if not isinstance(cell, str) else cell for cell in row] for row in rows]
    if align is None:
        align = "".join(
            "r" if rows and all(isinstance(row[i], (int, float)) or row[i] is None for row in rows) else "l"
            for i in range(len(headers))
        )
    return {"title": title, "note": note, "headers": list(headers), "rows": text_rows, "align": align}


def _few(rounds: int | None) -> str:
    return f"{rounds} (few)" if rounds is not None and rounds < FEW_ROUNDS else fmt(rounds)


def _mean_std(mean: float | None, std: float | None) -> str:
    return "-" if mean is None or mean != mean else f"{fmt(mean)} ± {fmt(std)}"


def cell_tables(scores: Mapping[str, Any]) -> list[dict[str, Any]]:
    """S, accuracy, discrepancy, generative rate and yield per cell; S over seeds."""
    cells = scores.get("cells", [])
    rows = []
    for c in cells:
        rate = c.get("generative_rate")
        rows.append([
            c["john"], c["zellig"], c["claude"], c["seed"], _few(c["rounds"]), c["S"], fmt_ci(c.get("S_ci95")),
            c.get("accuracy"), fmt_ci(c.get("accuracy_ci95")), c.get("discrepancy"),
            rate["rate"] if rate else None, c["yield"]["share"],
        ])
    tables = [_table(
        "S and contrastive accuracy per cell",
        ["John", "Zellig", "Claude", "seed", "rounds", "S", "S 95% CI", "accuracy", "acc. 95% CI", "discrepancy",
         "gen. rate", "yield"],
        rows,
        f"95% bootstrap CIs resample instances; contrastive ties count as {scores.get('contrastive_ties', 'wrong')}; "
        f"'(few)' marks cells with fewer than {FEW_ROUNDS} rounds, whose numbers are not reliable.",
        align="lllrrrlrlrrr",
    )]
    over = scores.get("over_seeds", [])
    if any(e["seeds"] > 1 for e in over):
        tables.append(_table(
            "S over seeds (mean ± sample std of the per-seed values)",
            ["John", "Zellig", "Claude", "seeds", "S", "accuracy"],
            [[e["john"], e["zellig"], e["claude"], e["seeds"], _mean_std(e.get("S_mean"), e.get("S_std")),
              _mean_std(e.get("accuracy_mean"), e.get("accuracy_std"))] for e in over],
            align="lllrll",
        ))
    return tables


def _vs(test: Mapping[str, Any] | None) -> str:
    if not test:
        return "-"
    if "wins" in test:
        return f"vs {test['other']}: {test['wins']}-{test['losses']} of {test['cells']} cells, p={fmt(test['p_value'])}"
    return (f"vs {test['other']}: Δ={test['delta']:+.3f} [{fmt(test['low'])}, {fmt(test['high'])}], "
            f"p={fmt(test['p_value'])}")


def leaderboard_tables(boards: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The three leaderboards of :func:`arena.present.leaderboards.leaderboards`."""
    samples = boards.get("bootstrap_samples")
    tables = [_table(
        "Claudes by S (higher is better)",
        ["#", "Claude", "rounds", "S", "S 95% CI", "S over seeds", "accuracy", "paired bootstrap vs next"],
        [[e.get("rank", "-"), e["claude"], _few(e["rounds"]), e["S"], fmt_ci(e.get("S_ci95")),
          _mean_std(e.get("S_mean"), e.get("S_std")), e.get("accuracy"), _vs(e.get("vs_next"))]
         for e in boards["claudes"]],
        f"paired bootstrap ({samples} samples) over the instances both Claudes judged",
        align="rlrrllrl",
    )]
    for claude, entries in boards["zelligs"].items():
        tables.append(_table(
            f"Zelligs by S against {claude} (lower is better)",
            ["#", "Zellig", "rounds", "S", "S 95% CI", "S over seeds", "yield", "paired bootstrap vs next"],
            [[e.get("rank", "-"), e["zellig"], _few(e["rounds"]), e["S"], fmt_ci(e.get("S_ci95")),
              _mean_std(e.get("S_mean"), e.get("S_std")), e.get("yield"), _vs(e.get("vs_next"))] for e in entries],
            "paired bootstrap of per-instance S over the instances both Zelligs apply to",
            align="rlrrllrl",
        ))
    tables.append(_table(
        "Johns by S (higher is better)",
        ["#", "John", "rounds", "S", "S 95% CI", "S over seeds", "sign test vs next"],
        [[e.get("rank", "-"), e["john"], _few(e["rounds"]), e["S"], fmt_ci(e.get("S_ci95")),
          _mean_std(e.get("S_mean"), e.get("S_std")), _vs(e.get("vs_next"))] for e in boards["johns"]],
        "two-sided sign test over matched (Zellig, Claude, seed) cells",
        align="rlrrlll",
    ))
    if boards.get("agreement"):
        tables.append(_table(
            "Agreement of people",
            ["people", "rounds", "agreement", "kappa", "measure"],
            [[", ".join(e["people"]), e["rounds"], e["observed"], e["kappa"], e["measure"]] for e in boards["agreement"]],
            "the candidate judged corrupted, on the rounds all of them answered in time",
            align="lrrrl",
        ))
    return tables


def paired_tables(scores: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Paired bootstrap tests per cell between Claudes and between Zelligs."""
    tables = []
    paired = scores.get("paired", {})
    for kind, within, title in (("claudes", "zellig", "Paired tests between Claudes (same rounds)"),
                                ("zelligs", "claude", "Paired tests between Zelligs (instances both apply to)")):
        if paired.get(kind):
            tables.append(_table(
                title,
                ["John", within.capitalize(), "seed", "A", "B", "ΔS = S(A) − S(B)", "95% CI", "p", "instances"],
                [[t["john"], t[within], t["seed"], t["a"], t["b"], f"{t['delta']:+.3f}",
                  fmt_ci((t["low"], t["high"])), t["p_value"], t["n"]] for t in paired[kind]],
                align="llrllrlrr",
            ))
    return tables


def breakdown_tables(scores: Mapping[str, Any], boards: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per phenomenon, by reference kind, by LingEval97 bins and by metadata keys."""
    cells = scores.get("cells", [])
    tables = []
    rows = [[c["claude"], c["zellig"], c["seed"], name, _few(e["rounds"]), e["S"], e.get("accuracy"), e.get("discrepancy")]
            for c in cells for name, e in c.get("phenomena", {}).items()]
    if rows:
        tables.append(_table("Per phenomenon", ["Claude", "Zellig", "seed", "phenomenon", "rounds", "S", "accuracy",
                                                 "discrepancy"], rows, align="llrlrrrr"))
    kinds = boards.get("phenomena", [])
    if kinds:
        tables.append(_table(
            "Per phenomenon and reference kind (human vs machine references)",
            ["Claude", "phenomenon", "references", "metric", "rounds", "value", "95% CI"],
            [[r["claude"], r["phenomenon"], r["reference_kind"], r["metric"], _few(r["rounds"]), r["value"],
              fmt_ci(r.get("ci95"))] for r in kinds],
            align="llllrrl",
        ))
    for key, title in (("by_distance", "by distance (LingEval97 bins)"), ("by_frequency", "by frequency (LingEval97 bins)")):
        rows = [[c["claude"], c["zellig"], c["seed"], bucket, _few(e["rounds"]), e["S"], e.get("accuracy")]
                for c in cells for bucket, e in c.get(key, {}).items()]
        if rows:
            tables.append(_table(f"S and accuracy {title}", ["Claude", "Zellig", "seed", "bin", "rounds", "S",
                                                             "accuracy"], rows, align="llrlrrr"))
    rows = [[c["claude"], c["zellig"], c["seed"], f"{key} = {value}", _few(e["rounds"]), e["S"], e.get("accuracy")]
            for c in cells for key, buckets in c.get("by_meta", {}).items() for value, e in buckets.items()]
    if rows:
        tables.append(_table("S and accuracy by metadata", ["Claude", "Zellig", "seed", "bucket", "rounds", "S",
                                                           "accuracy"], rows, align="llrlrrr"))
    return tables


def generative_table(scores: Mapping[str, Any]) -> dict[str, Any] | None:
    """Contrastive error rate next to the generative rate (Vamvas & Sennrich 2021,
    Table 1: an error rate far above the generative rate flags implausible variants)."""
    rows = []
    for c in scores.get("cells", []):
        rate = c.get("generative_rate")
        if rate is None and c.get("discrepancy") is None:
            continue
        error = None if c.get("accuracy") is None else 1.0 - c["accuracy"]
        gap = None if error is None or rate is None else error - rate["rate"]
        rows.append([c["john"], c["zellig"], c["claude"], c["seed"], error,
                     rate["rate"] if rate else None, f"{rate['detected']}/{rate['sources']}" if rate else "-",
                     f"{gap:+.3f}" if gap is not None else "-", c.get("discrepancy")])
    if not rows:
        return None
    return _table(
        "Discrepancy and generative rate",
        ["John", "Zellig", "Claude", "seed", "contrastive error rate", "generative rate", "detected/sources",
         "error − generative", "discrepancy"],
        rows,
        "generative rate: share of the Claude's own beam-search translations in which the Zellig's detector finds "
        "the phenomenon; discrepancy: mean of max(0, s(1-best) − max(s(correct), s(corrupted))).",
        align="lllrrrlrr",
    )


def timeline_tables(scores: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The S timeline of each cell of a game (windows of rounds) and its convergence."""
    tables = []
    for c in scores.get("cells", []):
        timeline = c.get("timeline")
        if not timeline:
            continue
        settled = timeline.get("convergence")
        note = (f"S stays within ε={settled['epsilon']} of its final value {fmt(settled['final_S'])} "
                f"after {settled['rounds']} rounds" if settled else "")
        tables.append(_table(
            f"S over rounds: {c['john']} · {c['zellig']} · {c['claude']} · seed {c['seed']}",
            ["first round", "last round", "rounds", "S", "S 95% CI", "counts toward S"],
            [[w["first"], w["last"], _few(w["rounds"]), w["S"], fmt_ci(w.get("S_ci95")),
              "yes" if w.get("counts", True) else "no (observation)"] for w in timeline.get("windows", [])],
            note,
            align="rrrrll",
        ))
    return tables


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


def misjudged_pairs(run_dir: Path, per_claude: int = MISJUDGED_PER_CLAUDE) -> list[dict[str, Any]]:
    """A handful of rounds each Claude got wrong: those where it preferred the corrupted
    candidate by the widest margin first (in round order without scores)."""
    from arena.present.leaderboards import load
    from arena.run_tokens import load_tokens

    _, outcomes_by_claude, _ = load(run_dir)
    views = load_tokens(run_dir)  # token views computed by `arena report --tokens` / `arena show --tokens`
    pairs = []
    for claude, outcomes in outcomes_by_claude.items():
        wrong = [o for o in outcomes if not o.judgement.correct and o.round.variant is not None]
        wrong.sort(key=lambda o: -(o.scores[1] - o.scores[0]) if o.scores is not None else 0.0)
        for o in wrong[:per_claude]:
            scores = o.scores
            pairs.append({
                "claude": claude, "round": o.round.id, "zellig": o.round.zellig, "phenomenon": o.round.variant.phenomenon,
                "resolved_by": o.judgement.resolved_by, "source": o.round.instance.source,
                "segments": _segments(o.round.instance.reference, o.round.variant.edits),
                "corrupted": o.round.variant.text,
                "scores": f"correct {scores[0]:.4f}, corrupted {scores[1]:.4f}" if scores is not None else "",
                "one_best": o.one_best.translation if o.one_best is not None else "",
                "reference": o.round.instance.reference,
                "blame": views.get((claude, o.round.id), {}).get("summary", ""),
            })
    return pairs


def _png(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


PLOT_TITLES = {
    "s_heatmap": "S per Zellig × Claude",
    "phenomena": "Per phenomenon, human vs machine references",
    "timeline": "S over rounds",
    "convergence": "Convergence of S",
}


def run_context(run_dir: Path, plots: bool = True) -> dict[str, Any]:
    """Everything one run's report shows; writes the leaderboards and PNG plots into
    ``RUN/report/`` on the way (:func:`arena.present.leaderboards.write_report`)."""
    from arena.present.leaderboards import build, write_report

    run_dir = Path(run_dir)
    if not transcripts.is_finished(run_dir):
        raise ValueError(f"{run_dir}: not a finished run (no {transcripts.SCORES}); finish or resume it first")
    manifest = json.loads((run_dir / transcripts.MANIFEST).read_text(encoding="utf-8"))
    scores = json.loads((run_dir / transcripts.SCORES).read_text(encoding="utf-8"))
    paths = write_report(run_dir, plots=plots)
    boards = build(run_dir)
    experiment = manifest["experiment"]
    figures = [
        {"title": PLOT_TITLES.get(key, key.replace("_", " ")), "file": path.relative_to(run_dir).as_posix(),
         "data": _png(path)}
        for key, path in paths.items() if path.suffix == ".png"
    ]
    signatures = [(role[:-1], label, text) for role, entries in scores.get("signatures", {}).items()
                  for label, text in entries.items()]
    quick = [] if experiment.get("discrepancy", True) else [
        "1-best decoding was skipped (discrepancy: false): no discrepancy and no generative rate."]
    return {
        "name": experiment["name"],
        "description": experiment.get("description", ""),
        "run_dir": str(run_dir),
        "signature": scores.get("signature", ""),
        "performer_signatures": signatures,
        "notes": quick,
        "cell_tables": cell_tables(scores),
        "leaderboards": leaderboard_tables(boards),
        "paired": paired_tables(scores),
        "breakdowns": breakdown_tables(scores, boards),
        "generative": generative_table(scores),
        "timelines": timeline_tables(scores),
        "figures": figures,
        "misjudged": misjudged_pairs(run_dir),
        "over_seeds": scores.get("over_seeds", []),
    }


def comparison_table(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """S (mean ± std over seeds) per (John, Zellig, Claude), one column per run."""
    keys: dict[tuple[str, str, str], None] = {}
    values: dict[tuple[int, tuple[str, str, str]], str] = {}
    for index, run in enumerate(runs):
        for e in run["over_seeds"]:
            key = (e["john"], e["zellig"], e["claude"])
            keys.setdefault(key)
            s = fmt(e.get("S_mean"))
            values[index, key] = s if e["seeds"] == 1 else _mean_std(e.get("S_mean"), e.get("S_std"))
    headers = ["John", "Zellig", "Claude", *[f"run {i + 1}: S" for i in range(len(runs))]]
    rows = [[*key, *[values.get((i, key), "-") for i in range(len(runs))]] for key in keys]
    return _table("S side by side", headers, rows,
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


def write_reports(run_dirs: Sequence[Path], out: Path | None = None, plots: bool = True) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html``: into the run directory for one run
    (``out`` defaults to it), into ``out`` for several side by side.  Returns the paths."""
    run_dirs = [Path(d) for d in run_dirs]
    if not run_dirs:
        raise ValueError("no run directory given")
    if len(run_dirs) > 1 and out is None:
        raise ValueError("several runs: give --out DIR for the side-by-side report")
    runs = [run_context(d, plots) for d in run_dirs]
    target = Path(out) if out is not None else run_dirs[0]
    # the Markdown links the PNGs relative to the run directory it sits in
    markdown, html = render(runs, markdown_links=len(run_dirs) == 1 and target.resolve() == run_dirs[0].resolve())
    target.mkdir(parents=True, exist_ok=True)
    transcripts.atomic_write_text(target / MARKDOWN, markdown)
    transcripts.atomic_write_text(target / HTML, html)
    return target / MARKDOWN, target / HTML
